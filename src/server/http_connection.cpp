// One HTTP/1.1 connection: admission to its listener, the TLS handshake and the keep-alive loop (reading and
// writing: http_exchange.cpp; answering: http_answer.cpp). Each connection runs on its own strand; nothing here
// blocks an io thread.
#include "src/server/http_connection.hpp"

#include "common/log/log_event.hpp"
#include "common/net/ip_network.hpp"

namespace syncml::server {
namespace {

// The bucket the per-address cap counts the peer in; none for a trusted proxy, whose connections carry everyone's
// requests.
std::string counted_address(const http_config& config, const socket_ends& ends) {
    const auto peer = common::parse_ip_address(ends.peer_address);
    if (!peer || common::contains_any(config.trusted_proxies, *peer)) return {};
    return common::client_group(*peer);
}

// Counts a refused connection and, at most every few seconds per kind, logs the refusals with their count.
void report_refusal(front_end_state& state, const connection_registry& registry,
                    const connection_registry::admission& admitted, const char* listener, const std::string& address) {
    using refusal = connection_registry::refusal;
    if (admitted.refused == refusal::listener_full) state.services.metrics.connection_refused(listener);
    if (admitted.refused == refusal::address_full) state.services.metrics.connection_refused_per_address(listener);
    if (admitted.refusals_to_report == 0) return;
    if (admitted.refused == refusal::address_full) {
        common::log_event(state.services.log, spdlog::level::warn, "connection limit per address reached",
                          {{"listener", listener},
                           {"address", address},
                           {"limit", registry.per_address_limit()},
                           {"refused", admitted.refusals_to_report}});
    } else {
        common::log_event(
            state.services.log, spdlog::level::warn, "connection limit reached",
            {{"listener", listener}, {"limit", registry.limit()}, {"refused", admitted.refusals_to_report}});
    }
}

// Holds the connection's place in its listener's registry for as long as the serving coroutine runs. A full
// listener refuses the connection before any TLS handshake or read; refusals are logged at most every few
// seconds with their count, so a flood does not become a flood of log lines. So does a full address: one host must
// not take every socket (and file descriptor) the server has.
template <class Stream>
struct registration {
    explicit registration(const std::shared_ptr<connection<Stream>>& conn) : registry(conn->registry) {
        std::weak_ptr<connection<Stream>> weak = conn;
        auto executor = conn->lowest().get_executor();
        const std::string address = counted_address(conn->state->config.http, conn->ends);
        const auto admitted = registry.add(
            [weak, executor] {
                net::post(executor, [weak] {
                    if (auto alive = weak.lock()) alive->close();
                });
            },
            address);
        const char* listener = conn->listener == listener_kind::sync      ? "sync"
                               : conn->listener == listener_kind::metrics ? "metrics"
                                                                          : "admin";
        report_refusal(*conn->state, registry, admitted, listener, address);
        id = admitted.id;
        if (id) conn->id = *id;
    }
    ~registration() {
        if (id) registry.remove(*id);
    }
    registration(const registration&) = delete;
    registration& operator=(const registration&) = delete;

    connection_registry& registry;
    std::optional<std::uint64_t> id;
};

template <class Stream>
net::awaitable<void> serve_requests(std::shared_ptr<connection<Stream>> conn) {
    // Written without for (;;) + break: g++ 12 compiled that loop, as this coroutine's whole body, to a trap.
    bool open = true;
    while (open) {
        open = co_await read_head(conn);
        if (open) open = co_await answer(conn);
    }
    co_return;
}

net::awaitable<void> run_plain(tcp::socket socket, std::shared_ptr<front_end_state> state, listener_kind listener,
                               accepted_socket where) {
    auto conn =
        std::make_shared<connection<plain_stream>>(plain_stream(std::move(socket)), state, listener, std::move(where));
    registration admitted(conn);
    if (!admitted.id) co_return;  // the socket closes with conn
    co_await serve_requests(conn);
    error_code ignored;
    conn->lowest().socket().shutdown(tcp::socket::shutdown_send, ignored);
}

net::awaitable<void> run_tls(tcp::socket socket, std::shared_ptr<front_end_state> state, accepted_socket where) {
    // The connection keeps the context it started with alive through a certificate reload.
    const std::shared_ptr<ssl::context> context = state->tls->current();
    auto conn = std::make_shared<connection<tls_stream>>(tls_stream(beast::tcp_stream(std::move(socket)), *context),
                                                         state, listener_kind::sync, std::move(where));
    registration admitted(conn);
    if (!admitted.id) co_return;
    error_code ec;
    // A handshake that never comes holds a socket like a head that never comes.
    conn->lowest().expires_after(state->config.http.header_timeout);
    co_await conn->stream.async_handshake(ssl::stream_base::server, net::redirect_error(net::use_awaitable, ec));
    if (ec) {
        common::log_event(state->services.log, spdlog::level::debug, "tls handshake failed",
                          {{"remote", conn->remote}, {"reason", ec.message()}});
        co_return;
    }
    co_await serve_requests(conn);
    conn->lowest().expires_after(std::chrono::seconds(2));
    co_await conn->stream.async_shutdown(net::redirect_error(net::use_awaitable, ec));
}

// Canonical form: an IPv4 peer of a dual-stack listener is 192.0.2.7, not ::ffff:192.0.2.7.
std::string address_text(const net::ip::address& address) {
    auto parsed = common::parse_ip_address(address.to_string());
    return parsed ? common::format_ip_address(*parsed) : address.to_string();
}

accepted_socket describe(const tcp::socket& socket, bool tls) {
    accepted_socket where;
    where.ends.tls = tls;
    error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    if (ec) {
        where.remote = "unknown";
    } else {
        where.ends.peer_address = address_text(peer.address());
        const bool v6 = where.ends.peer_address.find(':') != std::string::npos;
        where.remote =
            (v6 ? "[" + where.ends.peer_address + "]" : where.ends.peer_address) + ":" + std::to_string(peer.port());
    }
    const auto local = socket.local_endpoint(ec);
    if (!ec) {
        where.ends.local_address = address_text(local.address());
        where.ends.local_port = local.port();
    }
    return where;
}

}  // namespace

void spawn_connection(tcp::socket socket, std::shared_ptr<front_end_state> state, listener_kind listener) {
    const bool tls = listener == listener_kind::sync && state->tls;
    accepted_socket where = describe(socket, tls);
    std::string remote = where.remote;
    auto executor = socket.get_executor();
    auto& log = state->services.log;
    auto on_exit = [&log, remote](std::exception_ptr error) {
        if (!error) return;
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            common::log_event(log, spdlog::level::err, "connection failed", {{"remote", remote}, {"error", e.what()}});
        } catch (...) {
            common::log_event(log, spdlog::level::err, "connection failed", {{"remote", remote}, {"error", "unknown"}});
        }
    };
    if (tls) {
        net::co_spawn(executor, run_tls(std::move(socket), std::move(state), std::move(where)), on_exit);
    } else {
        net::co_spawn(executor, run_plain(std::move(socket), std::move(state), listener, std::move(where)), on_exit);
    }
}

}  // namespace syncml::server
