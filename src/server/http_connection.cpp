// One HTTP/1.1 connection: keep-alive loop, limits and timeouts, routing, and the hand-off of sync requests
// to the worker pool. Each connection runs on its own strand; nothing here blocks an io thread.
#include "src/server/http_internal.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "common/log/log_event.hpp"
#include "dav/dav_handler.hpp"
#include "persistence/accounts/accounts.hpp"
#include "src/frontends/dav_service.hpp"
#include "src/http/client_origin.hpp"
#include "src/telemetry/process_metrics.hpp"

namespace syncml::server {
namespace {

using clock = std::chrono::steady_clock;
constexpr const char* server_header = "syncml-server/" SYNCML_VERSION;

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
          ends(std::move(where.ends)) {}

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
    // Per request:
    clock::time_point started;
    std::size_t request_bytes = 0;
    bool must_close = false;  // the body was not read or the request was broken
    bool silent = false;      // the peer is gone: nothing to answer
    std::string client;       // the client's address: the peer's, or X-Forwarded-For from a trusted proxy
};

// A worker's result (a sync_outcome, an admin reply) travels back to the connection's strand through this slot;
// the timer is the wake-up.
template <class Result>
struct job_slot {
    explicit job_slot(net::any_io_executor executor) : timer(executor) {}
    net::steady_timer timer;
    std::optional<Result> outcome;

    // The completion a worker calls.
    static auto completion(std::shared_ptr<job_slot> slot) {
        return [slot](Result result) {
            auto executor = slot->timer.get_executor();
            net::post(executor, [slot, result = std::move(result)]() mutable {
                slot->outcome = std::move(result);
                slot->timer.cancel();
            });
        };
    }
};

template <class Result>
net::awaitable<Result> wait_for(std::shared_ptr<job_slot<Result>> slot) {
    error_code ec;
    while (!slot->outcome) co_await slot->timer.async_wait(net::redirect_error(net::use_awaitable, ec));
    co_return std::move(*slot->outcome);
}

bool is_transport_error(const error_code& ec) {
    return ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::operation_aborted ||
           ec == beast::error::timeout || ec == net::error::connection_reset || ec == net::ssl::error::stream_truncated;
}

http_reply with_header(http_reply reply, const char* name, std::string value) {
    reply.headers.emplace_back(name, std::move(value));
    return reply;
}

http_reply reply_from(sync_outcome outcome) {
    switch (outcome.result) {
        case sync_outcome::kind::answered: {
            http_reply reply;
            reply.status = outcome.response.http_status;
            reply.content_type = std::move(outcome.response.content_type);
            reply.body = std::move(outcome.response.body);
            reply.headers = std::move(outcome.response.headers);
            return reply;
        }
        case sync_outcome::kind::database_unavailable:
            return with_header(text_reply(503, "database unavailable, try again later\n"), "Retry-After", "5");
        case sync_outcome::kind::failed:
            break;
    }
    return text_reply(500, "internal server error\n");
}

// The public port says only whether the instance is ready: a database error's text (host names, user names,
// versions) is for the operator, who reads it on the metrics port or in the log.
http_reply probe_reply(const front_end_state& state, endpoint_kind endpoint, listener_kind listener) {
    if (endpoint == endpoint_kind::healthz) return text_reply(200, "ok\n");
    if (endpoint == endpoint_kind::readyz) {
        std::string reason;
        if (state.services.readiness.ready(reason)) return text_reply(200, "ready\n");
        const std::string detail = listener == listener_kind::metrics ? ": " + reason : std::string();
        return with_header(text_reply(503, "not ready" + detail + "\n"), "Retry-After", "1");
    }
    std::string reason;
    const bool ready = state.services.readiness.ready(reason);
    const std::optional<double> tls_not_after = state.tls ? state.tls->not_after() : std::nullopt;
    http_reply reply = text_reply(
        200,
        serialize_metrics(state.services.registry, scrape_time_families(read_process_stats(), ready, tls_not_after)));
    reply.content_type = "text/plain; version=0.0.4; charset=utf-8";
    return reply;
}

template <class Stream>
net::awaitable<bool> send_reply(std::shared_ptr<connection<Stream>> conn, http_reply reply, bool head_only) {
    const auto& request = conn->parser->get();
    http::response<http::string_body> response{static_cast<http::status>(reply.status), request.version()};
    response.set(http::field::server, server_header);
    if (!reply.body.empty() || head_only) response.set(http::field::content_type, reply.content_type);
    for (auto& [name, value] : reply.headers) response.set(name, value);
    const bool keep_alive = request.keep_alive() && !conn->must_close && !conn->registry.stopping();
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

template <class Stream>
net::awaitable<void> send_continue(std::shared_ptr<connection<Stream>> conn) {
    http::response<http::empty_body> interim{http::status::continue_, 11};
    error_code ec;
    conn->lowest().expires_after(conn->state->config.http.read_timeout);
    co_await http::async_write(conn->stream, interim, net::redirect_error(net::use_awaitable, ec));
}

std::vector<std::string> header_lines(const http::fields& fields, const char* name) {
    std::vector<std::string> lines;
    for (auto [at, end] = fields.equal_range(name); at != end; ++at) lines.emplace_back(at->value());
    return lines;
}

forwarded_headers forwarded_headers_of(const http::fields& fields) {
    return {header_lines(fields, "X-Forwarded-For"), header_lines(fields, "X-Forwarded-Proto"),
            header_lines(fields, "X-Forwarded-Host")};
}

enum class body_read { complete, too_large, malformed };

// Reads the request's body up to `limit` bytes (refusing a larger announced one before reading it).
template <class Stream>
net::awaitable<body_read> read_body(std::shared_ptr<connection<Stream>> conn, std::uint64_t limit) {
    auto& parser = *conn->parser;
    if (parser.content_length().value_or(0) > limit) {
        conn->must_close = true;
        co_return body_read::too_large;
    }
    parser.body_limit(limit);
    if (beast::iequals(parser.get()[http::field::expect], "100-continue")) co_await send_continue(conn);
    error_code ec;
    conn->lowest().expires_after(conn->state->config.http.read_timeout);
    co_await http::async_read(conn->stream, conn->buffer, parser, net::redirect_error(net::use_awaitable, ec));
    conn->must_close = static_cast<bool>(ec);
    if (ec == http::error::body_limit) co_return body_read::too_large;
    if (ec) {
        conn->silent = is_transport_error(ec);
        co_return body_read::malformed;
    }
    conn->request_bytes = parser.get().body().size();
    co_return body_read::complete;
}

// Reads the body, queues the job, waits for the worker's answer without holding the io thread.
template <class Stream>
net::awaitable<http_reply> answer_sync(std::shared_ptr<connection<Stream>> conn, route_decision route) {
    const body_read read = co_await read_body(conn, conn->state->config.http.body_limit);
    if (read == body_read::too_large) co_return text_reply(413, "request body too large\n");
    if (read == body_read::malformed) co_return text_reply(400, "malformed request body\n");
    auto& request = conn->parser->get();
    const client_origin origin = decide_origin(conn->state->config.http, conn->ends, forwarded_headers_of(request));
    session::sync_request job;
    job.tenant = route.tenant;
    job.url = std::string(request.target());
    job.host = std::string(request[http::field::host]);
    job.tls = conn->ends.tls;
    job.public_base = origin.public_base;
    job.remote_addr = origin.client_address;
    conn->client = origin.client_address;
    job.encoding = route.encoding;
    job.body = std::move(request.body());

    auto slot = std::make_shared<job_slot<sync_outcome>>(co_await net::this_coro::executor);
    slot->timer.expires_at(clock::time_point::max());
    const bool queued =
        conn->state->services.dispatcher.submit(std::move(job), job_slot<sync_outcome>::completion(slot));
    if (!queued) co_return with_header(text_reply(503, "server busy, try again later\n"), "Retry-After", "1");
    co_return reply_from(co_await wait_for(slot));
}

// The admin API: what the head decides is answered at once, the rest on a worker (admin_api.hpp).
template <class Stream>
net::awaitable<http_reply> answer_admin(std::shared_ptr<connection<Stream>> conn) {
    admin_dispatcher& admin = *conn->state->services.admin;
    const auto& head = conn->parser->get();
    const std::size_t limit =
        admin_body_limit(std::string_view(head.method_string().data(), head.method_string().size()),
                         std::string_view(head.target().data(), head.target().size()));
    const body_read read = co_await read_body(conn, limit);
    if (read == body_read::too_large) {
        co_return admin_error_reply(413, "request body larger than " + std::to_string(limit / 1024) + " KiB");
    }
    if (read == body_read::malformed) co_return admin_error_reply(400, "malformed request body");
    auto& request = conn->parser->get();
    conn->client = conn->ends.peer_address;
    admin_api_request call{.method = std::string(request.method_string()),
                           .target = std::string(request.target()),
                           .content_type = std::string(request[http::field::content_type]),
                           .authorization = std::string(request[http::field::authorization]),
                           .body = std::move(request.body())};
    if (auto now = admin.answer_now(call)) co_return std::move(*now);
    auto slot = std::make_shared<job_slot<http_reply>>(co_await net::this_coro::executor);
    slot->timer.expires_at(clock::time_point::max());
    if (!admin.submit(std::move(call), job_slot<http_reply>::completion(slot))) {
        co_return with_header(admin_error_reply(503, "server busy, try again later"), "Retry-After", "1");
    }
    co_return co_await wait_for(slot);
}

// CardDAV/CalDAV: OPTIONS at once, the rest (authentication included) on a worker (dav_service.hpp).
template <class Stream>
net::awaitable<http_reply> answer_dav(std::shared_ptr<connection<Stream>> conn, route_decision route) {
    // XML bodies cost a multiple of their size to parse: they get a smaller limit than items (PUT).
    const auto method = conn->parser->get().method_string();
    const bool xml = method == "PROPFIND" || method == "REPORT" || method == "PROPPATCH";
    const auto limit = xml ? std::min<std::size_t>(dav::k_max_xml_body, conn->state->config.http.body_limit)
                           : conn->state->config.http.body_limit;
    const body_read read = co_await read_body(conn, limit);
    if (read == body_read::too_large) co_return text_reply(413, "request body too large\n");
    if (read == body_read::malformed) co_return text_reply(400, "malformed request body\n");
    auto& request = conn->parser->get();
    const client_origin origin = decide_origin(conn->state->config.http, conn->ends, forwarded_headers_of(request));
    conn->client = origin.client_address;
    if (request.method() == http::verb::options) {
        auto options = dav::options_response();
        http_reply reply = text_reply(200, {});
        reply.headers = std::move(options.headers);
        co_return reply;
    }
    auto* dav = conn->state->services.dav;
    if (!dav) co_return text_reply(404, "not found\n");
    dav_http_request job{.tenant = route.tenant,
                         .method = std::string(request.method_string()),
                         .target = std::string(request.target()),
                         .authorization = std::string(request[http::field::authorization]),
                         .depth = std::string(request["Depth"]),
                         .if_match = std::string(request[http::field::if_match]),
                         .if_none_match = std::string(request[http::field::if_none_match]),
                         .accept_encoding = std::string(request[http::field::accept_encoding]),
                         .client_address = origin.client_address,
                         .body = std::move(request.body())};
    auto slot = std::make_shared<job_slot<http_reply>>(co_await net::this_coro::executor);
    slot->timer.expires_at(clock::time_point::max());
    if (!dav->submit(std::move(job), job_slot<http_reply>::completion(slot)))
        co_return with_header(text_reply(503, "server busy, try again later\n"), "Retry-After", "1");
    co_return co_await wait_for(slot);
}

// Why a request was refused, for its log line: the first line of the plain-text reply the client got.
std::string refusal_reason(const http_reply& reply) {
    const bool readable = reply.content_type.starts_with("text/plain") || reply.content_type == "application/json";
    if (reply.status < 400 || !readable) return {};
    constexpr std::size_t max_reason = 200;
    return reply.body.substr(0, std::min({reply.body.find('\n'), reply.body.size(), max_reason}));
}

template <class Stream>
void log_request(const connection<Stream>& conn, const route_decision& route, int status, std::size_t response_bytes,
                 const std::string& reason) {
    const auto& request = conn.parser->get();
    const auto elapsed = std::chrono::duration<double>(clock::now() - conn.started);
    const bool served = route.endpoint == endpoint_kind::sync || route.endpoint == endpoint_kind::dav;
    const bool probe = !served && route.endpoint != endpoint_kind::none;
    const auto level = probe && status < 300 ? spdlog::level::debug : spdlog::level::info;
    const std::string tenant = !served                ? "-"
                               : route.tenant.empty() ? std::string(persistence::default_tenant)
                                                      : route.tenant;
    conn.state->services.metrics.request_finished(route_label(route.endpoint), status, elapsed, conn.request_bytes,
                                                  response_bytes);
    std::vector<common::log_field> fields{
        {"tenant", tenant},
        {"remote", conn.remote},
        {"client", conn.client},
        {"method", std::string_view(request.method_string().data(), request.method_string().size())},
        {"path", path_of(std::string(request.target()))},
        {"status", status},
        {"bytes_in", conn.request_bytes},
        {"bytes_out", response_bytes},
        {"duration_ms", elapsed.count() * 1000}};
    if (!reason.empty()) fields.emplace_back("reason", reason);
    common::log_event(conn.state->services.log, level, "request", fields);
}

// Answers the request whose head is in the parser. Returns true to keep the connection open.
template <class Stream>
net::awaitable<bool> answer(std::shared_ptr<connection<Stream>> conn) {
    const auto& request = conn->parser->get();
    conn->started = clock::now();
    conn->request_bytes = 0;
    conn->must_close = false;
    conn->client = conn->ends.peer_address;
    const route_decision route =
        route_request(request_head{std::string(request.method_string()), std::string(request.target()),
                                   std::string(request[http::field::content_type])},
                      conn->listener);
    conn->state->services.metrics.request_started();
    http_reply reply;
    if (route.reply) {
        reply = *route.reply;
        conn->must_close = !conn->parser->is_done();  // an unread body cannot be skipped safely
    } else if (route.endpoint == endpoint_kind::sync) {
        reply = co_await answer_sync(conn, route);
    } else if (route.endpoint == endpoint_kind::admin) {
        reply = co_await answer_admin(conn);
    } else if (route.endpoint == endpoint_kind::dav) {
        reply = co_await answer_dav(conn, route);
    } else {
        reply = probe_reply(*conn->state, route.endpoint, conn->listener);
        conn->must_close = !conn->parser->is_done();
    }
    const int status = reply.status;
    const std::size_t response_bytes = route.head_only ? 0 : reply.body.size();
    const std::string reason = refusal_reason(reply);
    bool keep_alive = false;
    if (!conn->silent) keep_alive = co_await send_reply(conn, std::move(reply), route.head_only);
    log_request(*conn, route, conn->silent ? 499 : status, conn->silent ? 0 : response_bytes, reason);
    co_return keep_alive;
}

// Errors found while reading the head are answered once, then the connection closes.
template <class Stream>
net::awaitable<void> reject_head(std::shared_ptr<connection<Stream>> conn, error_code ec) {
    http_reply reply = ec == http::error::header_limit ? text_reply(431, "request header too large\n")
                       : ec == http::error::body_limit ? text_reply(413, "request body too large\n")
                                                       : text_reply(400, "malformed request\n");
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

// Waits (idle timeout) for the next request head. False ends the connection.
template <class Stream>
net::awaitable<bool> read_head(std::shared_ptr<connection<Stream>> conn) {
    const auto& limits = conn->state->config.http;
    conn->parser.emplace();
    conn->parser->header_limit(static_cast<std::uint32_t>(limits.header_limit));
    // The body limit is applied once the route is known, so an oversized sync request is logged with its tenant.
    conn->parser->body_limit(std::numeric_limits<std::uint64_t>::max());
    if (!conn->registry.set_idle(conn->id, true)) co_return false;
    conn->lowest().expires_after(limits.idle_timeout);
    error_code ec;
    co_await http::async_read_header(conn->stream, conn->buffer, *conn->parser,
                                     net::redirect_error(net::use_awaitable, ec));
    conn->registry.set_idle(conn->id, false);
    if (!ec) co_return true;
    if (is_transport_error(ec)) {
        common::log_event(conn->state->services.log, spdlog::level::debug, "connection closed",
                          {{"remote", conn->remote}, {"reason", ec.message()}});
    } else {
        co_await reject_head(conn, ec);
    }
    co_return false;
}

// Holds the connection's place in its listener's registry for as long as the serving coroutine runs. A full
// listener refuses the connection before any TLS handshake or read; refusals are logged at most every few
// seconds with their count, so a flood does not become a flood of log lines.
template <class Stream>
struct registration {
    explicit registration(const std::shared_ptr<connection<Stream>>& conn) : registry(conn->registry) {
        std::weak_ptr<connection<Stream>> weak = conn;
        auto executor = conn->lowest().get_executor();
        const auto admitted = registry.add([weak, executor] {
            net::post(executor, [weak] {
                if (auto alive = weak.lock()) alive->close();
            });
        });
        const char* listener = conn->listener == listener_kind::sync      ? "sync"
                               : conn->listener == listener_kind::metrics ? "metrics"
                                                                          : "admin";
        if (!admitted.id) conn->state->services.metrics.connection_refused(listener);
        if (admitted.refusals_to_report > 0) {
            common::log_event(
                conn->state->services.log, spdlog::level::warn, "connection limit reached",
                {{"listener", listener}, {"limit", registry.limit()}, {"refused", admitted.refusals_to_report}});
        }
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
    auto conn = std::make_shared<connection<beast::tcp_stream>>(beast::tcp_stream(std::move(socket)), state, listener,
                                                                std::move(where));
    registration admitted(conn);
    if (!admitted.id) co_return;  // the socket closes with conn
    co_await serve_requests(conn);
    error_code ignored;
    conn->lowest().socket().shutdown(tcp::socket::shutdown_send, ignored);
}

net::awaitable<void> run_tls(tcp::socket socket, std::shared_ptr<front_end_state> state, accepted_socket where) {
    using tls_stream = beast::ssl_stream<beast::tcp_stream>;
    // The connection keeps the context it started with alive through a certificate reload.
    const std::shared_ptr<ssl::context> context = state->tls->current();
    auto conn = std::make_shared<connection<tls_stream>>(tls_stream(beast::tcp_stream(std::move(socket)), *context),
                                                         state, listener_kind::sync, std::move(where));
    registration admitted(conn);
    if (!admitted.id) co_return;
    error_code ec;
    conn->lowest().expires_after(state->config.http.read_timeout);
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
    auto parsed = parse_ip_address(address.to_string());
    return parsed ? format_ip_address(*parsed) : address.to_string();
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
