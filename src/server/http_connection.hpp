#pragma once
// One HTTP/1.1 connection as its three translation units share it (http_connection.cpp: admission and the
// keep-alive loop; http_exchange.cpp: reading heads and bodies, writing replies; http_answer.cpp: which front end
// answers and the request's log line). The coroutines are templates over the stream, plain or TLS, instantiated for
// both in the file that defines them.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "src/http/client_origin.hpp"
#include "src/server/http_internal.hpp"

namespace syncml::server {

using plain_stream = beast::tcp_stream;
using tls_stream = beast::ssl_stream<beast::tcp_stream>;

struct accepted_socket {
    std::string remote;  // peer address:port, for logs
    socket_ends ends;
};

template <class Stream>
struct connection {
    connection(Stream s, std::shared_ptr<front_end_state> st, listener_kind kind, accepted_socket where)
        : stream(std::move(s)),
          state(std::move(st)),
          listener(kind),
          registry(state->connections(kind)),
          remote(std::move(where.remote)),
          ends(std::move(where.ends)),
          body(state->bodies) {}

    beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream); }
    void close() {
        error_code ignored;
        lowest().socket().close(ignored);
    }

    Stream stream;
    std::shared_ptr<front_end_state> state;
    listener_kind listener;
    connection_registry& registry;
    std::string remote;
    socket_ends ends;
    beast::flat_buffer buffer;
    std::optional<http::request_parser<http::string_body>> parser;
    std::uint64_t id = 0;
    std::uint64_t requests = 0;  // answered so far: the first head must come within header_timeout
    // Per request:
    std::chrono::steady_clock::time_point started;
    std::size_t request_bytes = 0;
    bool must_close = false;   // the body was not read or the request was broken
    bool silent = false;       // the peer is gone: nothing to answer
    std::string client;        // the client's address: the peer's, or X-Forwarded-For from a trusted proxy
    body_share body;           // the request body's part of the server's body budget
    bool over_budget = false;  // a chunk did not fit the body budget
    // Grows `body` chunk by chunk; the parser keeps a reference to it, so it lives here.
    std::function<void(std::uint64_t, beast::string_view, error_code&)> on_chunk;
};

// Waits for the next request head (a new connection's within header_timeout; a kept-alive one's first byte within
// idle_timeout, the rest within header_timeout); a broken head is answered and ends the connection. False ends
// the connection.
template <class Stream>
net::awaitable<bool> read_head(std::shared_ptr<connection<Stream>> conn);

enum class body_read { complete, too_large, malformed, over_budget };

// Reads the request's body up to `limit` bytes (refusing a larger announced one before reading it), within the
// server's body budget (refusing an announced length, or a chunk, that does not fit).
template <class Stream>
net::awaitable<body_read> read_body(std::shared_ptr<connection<Stream>> conn, std::uint64_t limit);

// Writes the reply. Returns true to keep the connection open.
template <class Stream>
net::awaitable<bool> send_reply(std::shared_ptr<connection<Stream>> conn, http_reply reply, bool head_only);

// Answers the request whose head is in the parser. Returns true to keep the connection open.
template <class Stream>
net::awaitable<bool> answer(std::shared_ptr<connection<Stream>> conn);

}  // namespace syncml::server
