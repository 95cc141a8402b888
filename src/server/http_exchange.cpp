// Reading a request and writing its reply on the wire: heads within the idle timeout, bodies within their limit
// and the read timeout, 100-continue, and the one answer a broken head gets before the connection closes.
#include "src/server/http_connection.hpp"

#include <limits>
#include <vector>

#include "common/log/log_event.hpp"
#include "src/http/failure_reply.hpp"
#include "src/http/request_target.hpp"

namespace syncml::server {
namespace {

using clock = std::chrono::steady_clock;
constexpr const char* server_header = "syncml-server/" SYNCML_VERSION;
// What a kept-alive connection reads when its next request starts; the rest of the head follows in the parser.
constexpr std::size_t first_read_size = 1024;

bool is_transport_error(const error_code& ec) {
    return ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::operation_aborted ||
           ec == beast::error::timeout || ec == net::error::connection_reset || ec == net::ssl::error::stream_truncated;
}

template <class Stream>
net::awaitable<void> send_continue(std::shared_ptr<connection<Stream>> conn) {
    http::response<http::empty_body> interim{http::status::continue_, 11};
    error_code ec;
    conn->lowest().expires_after(conn->state->config.http.read_timeout);
    co_await http::async_write(conn->stream, interim, net::redirect_error(net::use_awaitable, ec));
}

http_failure head_failure(const error_code& ec) {
    if (ec == http::error::header_limit) return http_failure::header_too_large;
    if (ec == http::error::body_limit) return http_failure::body_too_large;
    return http_failure::malformed_request;
}

// Errors found while reading the head are answered once, then the connection closes.
template <class Stream>
net::awaitable<void> reject_head(std::shared_ptr<connection<Stream>> conn, error_code ec) {
    http_reply reply = text_failure_reply(head_failure(ec));
    conn->started = clock::now();
    conn->must_close = true;
    conn->state->services.metrics.request_started();
    conn->state->services.metrics.request_finished("unmatched", reply.status, clock::now() - conn->started, 0,
                                                   reply.body.size());
    common::log_event(conn->state->services.log, spdlog::level::info, "request rejected",
                      {{"remote", conn->remote}, {"status", reply.status}, {"error", ec.message()}});
    http::response<http::string_body> response{static_cast<http::status>(reply.status), 11};
    response.set(http::field::server, server_header);
    response.set(http::field::content_type, reply.content_type);
    response.keep_alive(false);
    response.body() = std::move(reply.body);
    response.prepare_payload();
    conn->lowest().expires_after(conn->state->config.http.read_timeout);
    co_await http::async_write(conn->stream, response, net::redirect_error(net::use_awaitable, ec));
}

// Takes the body's part of the body budget: its announced length at once, a chunked body chunk by chunk as the
// chunks are announced. False when an announced length does not fit.
template <class Stream>
bool reserve_body(connection<Stream>& conn) {
    conn.body.release();
    conn.over_budget = false;
    auto& parser = *conn.parser;
    if (auto length = parser.content_length()) return *length == 0 || conn.body.grow(*length);
    if (!parser.chunked()) return true;
    conn.on_chunk = [share = &conn.body, over = &conn.over_budget](std::uint64_t size, beast::string_view,
                                                                   error_code& ec) {
        if (share->grow(size)) return;
        *over = true;
        ec = http::error::body_limit;
    };
    parser.on_chunk_header(conn.on_chunk);
    return true;
}

// An absolute-form target becomes the origin form routing knows, and its authority the Host the listener checks.
void to_origin_form(http::request<http::string_body>& request) {
    const auto target = request.target();
    auto split = split_absolute_target(std::string_view(target.data(), target.size()));
    if (!split) return;
    request.target(split->origin_form);
    request.set(http::field::host, split->authority);
}

bool client_keeps_alive(const http::request<http::string_body>& request) {
    std::vector<std::string_view> connection;
    const auto [first, last] = request.equal_range(http::field::connection);
    for (auto field = first; field != last; ++field)
        connection.emplace_back(field->value().data(), field->value().size());
    return keeps_alive(request.version(), connection);
}

}  // namespace

template <class Stream>
net::awaitable<bool> read_head(std::shared_ptr<connection<Stream>> conn) {
    const auto& limits = conn->state->config.http;
    conn->parser.emplace();
    conn->parser->header_limit(static_cast<std::uint32_t>(limits.header_limit));
    // The body limit is applied once the route is known, so an oversized sync request is logged with its tenant.
    conn->parser->body_limit(std::numeric_limits<std::uint64_t>::max());
    if (!conn->registry.set_idle(conn->id, true)) co_return false;
    error_code ec;
    if (conn->requests > 0 && conn->buffer.size() == 0) {
        // A kept-alive connection may wait idle_timeout for its next request; once that starts, the head must
        // come as fast as a new connection's.
        conn->lowest().expires_after(limits.idle_timeout);
        const std::size_t got = co_await conn->stream.async_read_some(conn->buffer.prepare(first_read_size),
                                                                      net::redirect_error(net::use_awaitable, ec));
        conn->buffer.commit(got);
    }
    // A connection that sends nothing, or dribbles its head a byte at a time, holds a socket and a coroutine: it
    // gets header_timeout (seconds), not idle_timeout (a minute).
    if (!ec) {
        conn->lowest().expires_after(limits.header_timeout);
        co_await http::async_read_header(conn->stream, conn->buffer, *conn->parser,
                                         net::redirect_error(net::use_awaitable, ec));
    }
    conn->registry.set_idle(conn->id, false);
    if (!ec) {
        to_origin_form(conn->parser->get());
        co_return true;
    }
    if (is_transport_error(ec)) {
        common::log_event(conn->state->services.log, spdlog::level::debug, "connection closed",
                          {{"remote", conn->remote}, {"reason", ec.message()}});
    } else {
        co_await reject_head(conn, ec);
    }
    co_return false;
}

template <class Stream>
net::awaitable<body_read> read_body(std::shared_ptr<connection<Stream>> conn, std::uint64_t limit) {
    auto& parser = *conn->parser;
    if (parser.content_length().value_or(0) > limit) {
        conn->must_close = true;
        co_return body_read::too_large;
    }
    if (!reserve_body(*conn)) {
        conn->must_close = true;
        conn->state->services.metrics.body_budget_refused();
        co_return body_read::over_budget;
    }
    parser.body_limit(limit);
    if (beast::iequals(parser.get()[http::field::expect], "100-continue")) co_await send_continue(conn);
    error_code ec;
    conn->lowest().expires_after(conn->state->config.http.read_timeout);
    co_await http::async_read(conn->stream, conn->buffer, parser, net::redirect_error(net::use_awaitable, ec));
    conn->must_close = static_cast<bool>(ec);
    if (conn->over_budget) {
        conn->state->services.metrics.body_budget_refused();
        co_return body_read::over_budget;
    }
    if (ec == http::error::body_limit) co_return body_read::too_large;
    if (ec) {
        conn->silent = is_transport_error(ec);
        co_return body_read::malformed;
    }
    conn->request_bytes = parser.get().body().size();
    co_return body_read::complete;
}

template <class Stream>
net::awaitable<bool> send_reply(std::shared_ptr<connection<Stream>> conn, http_reply reply, bool head_only) {
    const auto& request = conn->parser->get();
    http::response<http::string_body> response{static_cast<http::status>(reply.status), request.version()};
    response.set(http::field::server, server_header);
    if (!reply.body.empty() || head_only) response.set(http::field::content_type, reply.content_type);
    for (auto& [name, value] : reply.headers) response.set(name, value);
    const bool keep_alive = client_keeps_alive(request) && !conn->must_close && !conn->registry.stopping();
    response.keep_alive(keep_alive);
    response.body() = std::move(reply.body);
    response.prepare_payload();
    error_code ec;
    conn->lowest().expires_after(conn->state->config.http.read_timeout);
    if (head_only) {
        http::response<http::empty_body> head{std::move(response.base())};
        co_await http::async_write(conn->stream, head, net::redirect_error(net::use_awaitable, ec));
    } else {
        co_await http::async_write(conn->stream, response, net::redirect_error(net::use_awaitable, ec));
    }
    co_return !ec && keep_alive;
}

template net::awaitable<bool> read_head(std::shared_ptr<connection<plain_stream>>);
template net::awaitable<bool> read_head(std::shared_ptr<connection<tls_stream>>);
template net::awaitable<body_read> read_body(std::shared_ptr<connection<plain_stream>>, std::uint64_t);
template net::awaitable<body_read> read_body(std::shared_ptr<connection<tls_stream>>, std::uint64_t);
template net::awaitable<bool> send_reply(std::shared_ptr<connection<plain_stream>>, http_reply, bool);
template net::awaitable<bool> send_reply(std::shared_ptr<connection<tls_stream>>, http_reply, bool);

}  // namespace syncml::server
