// Which front end answers a request (SyncML and DAV on the worker pool, the admin API, the probes and metrics), the
// hand-off to a worker without holding the io thread, and the request's log line and metrics.
#include "src/server/http_connection.hpp"

#include <algorithm>

#include "common/log/log_event.hpp"
#include "dav/dav_handler.hpp"
#include "persistence/accounts/accounts.hpp"
#include "session/service/session_token.hpp"
#include "src/frontends/dav_service.hpp"
#include "src/http/failure_reply.hpp"
#include "src/http/host_check.hpp"
#include "src/telemetry/process_metrics.hpp"

namespace syncml::server {
namespace {

using clock = std::chrono::steady_clock;

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
net::awaitable<std::shared_ptr<job_slot<Result>>> make_slot() {
    auto slot = std::make_shared<job_slot<Result>>(co_await net::this_coro::executor);
    slot->timer.expires_at(clock::time_point::max());
    co_return slot;
}

template <class Result>
net::awaitable<Result> wait_for(std::shared_ptr<job_slot<Result>> slot) {
    error_code ec;
    while (!slot->outcome) co_await slot->timer.async_wait(net::redirect_error(net::use_awaitable, ec));
    co_return std::move(*slot->outcome);
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
            return text_failure_reply(http_failure::database_unavailable);
        case sync_outcome::kind::failed:
            break;
    }
    return text_failure_reply(http_failure::internal_error);
}

// The public port says only whether the instance is ready: a database error's text (host names, user names,
// versions) is for the operator, who reads it on the metrics port or in the log.
http_reply probe_reply(const front_end_state& state, endpoint_kind endpoint, listener_kind listener) {
    if (endpoint == endpoint_kind::healthz) return text_reply(200, "ok\n");
    if (endpoint == endpoint_kind::readyz) {
        std::string reason;
        if (state.services.readiness.ready(reason)) return text_reply(200, "ready\n");
        if (listener != listener_kind::metrics) return text_failure_reply(http_failure::not_ready);
        return text_failure_reply(http_failure::not_ready, reason);
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

std::vector<std::string> header_lines(const http::fields& fields, const char* name) {
    std::vector<std::string> lines;
    for (auto [at, end] = fields.equal_range(name); at != end; ++at) lines.emplace_back(at->value());
    return lines;
}

forwarded_headers forwarded_headers_of(const http::fields& fields) {
    return {header_lines(fields, "X-Forwarded-For"), header_lines(fields, "X-Forwarded-Proto"),
            header_lines(fields, "X-Forwarded-Host")};
}

// The SyncML and DAV refusal of a body that could not be read; nullopt when it was.
std::optional<http_reply> body_refusal(body_read read) {
    if (read == body_read::too_large) return text_failure_reply(http_failure::body_too_large);
    if (read == body_read::malformed) return text_failure_reply(http_failure::malformed_body);
    if (read == body_read::over_budget) return text_failure_reply(http_failure::body_budget_full);
    return std::nullopt;
}

// A client whose address spent its budget of password checks and failed session lookups is refused before its
// request takes a place in the worker queue: a flood from one address never reaches the workers.
template <class State>
std::optional<http_reply> over_budget(State& state, const std::string& client_address) {
    if (!state.services.guard) return std::nullopt;
    const auto wait = state.services.guard->wait(client_address);
    if (wait.count() == 0) return std::nullopt;
    return text_failure_reply(http_failure::client_over_budget, std::nullopt, wait);
}

// Reads the body, queues the job, waits for the worker's answer without holding the io thread.
template <class Stream>
net::awaitable<http_reply> answer_sync(std::shared_ptr<connection<Stream>> conn, route_decision route) {
    const body_read read = co_await read_body(conn, conn->state->config.http.body_limit);
    if (auto refused = body_refusal(read)) co_return std::move(*refused);
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
    // A message with a RespURI token continues a session without a password check: the phones behind a NAT whose
    // address a flood spent go on with their sessions (a forged token finds nothing and costs the address then).
    if (session::query_token(job.url).empty()) {
        if (auto refused = over_budget(*conn->state, origin.client_address)) co_return std::move(*refused);
    }

    auto slot = co_await make_slot<sync_outcome>();
    const bool queued =
        conn->state->services.dispatcher.submit(std::move(job), job_slot<sync_outcome>::completion(slot));
    if (!queued) co_return text_failure_reply(http_failure::server_busy);
    co_return reply_from(co_await wait_for(slot));
}

// The admin API: what the head decides is answered at once, the rest on a worker (admin_api.hpp).
template <class Stream>
net::awaitable<http_reply> answer_admin(std::shared_ptr<connection<Stream>> conn) {
    admin_dispatcher& admin = *conn->state->services.admin;
    const auto& head = conn->parser->get();
    // Before the body: a page whose name was rebound to this address must not reach the API (DNS rebinding).
    if (!host_allowed(std::string_view(head[http::field::host].data(), head[http::field::host].size()),
                      conn->state->config.admin.allowed_hosts, conn->ends.local_address)) {
        conn->must_close = !conn->parser->is_done();
        co_return admin_failure_reply(http_failure::misdirected);
    }
    const std::size_t limit =
        admin_body_limit(std::string_view(head.method_string().data(), head.method_string().size()),
                         std::string_view(head.target().data(), head.target().size()));
    const body_read read = co_await read_body(conn, limit);
    if (read == body_read::too_large) co_return admin_failure_reply(http_failure::body_too_large, limit);
    if (read == body_read::malformed) co_return admin_failure_reply(http_failure::malformed_body);
    if (read == body_read::over_budget) co_return admin_failure_reply(http_failure::body_budget_full);
    auto& request = conn->parser->get();
    conn->client = conn->ends.peer_address;
    admin_api_request call{.method = std::string(request.method_string()),
                           .target = std::string(request.target()),
                           .content_type = std::string(request[http::field::content_type]),
                           .authorization = std::string(request[http::field::authorization]),
                           .body = std::move(request.body())};
    if (auto now = admin.answer_now(call)) co_return std::move(*now);
    auto slot = co_await make_slot<http_reply>();
    if (!admin.submit(std::move(call), job_slot<http_reply>::completion(slot))) {
        co_return admin_failure_reply(http_failure::server_busy);
    }
    co_return co_await wait_for(slot);
}

dav_http_request dav_job(http::request<http::string_body>& request, const route_decision& route,
                         const client_origin& origin) {
    return {.tenant = route.tenant,
            .method = std::string(request.method_string()),
            .target = std::string(request.target()),
            .authorization = std::string(request[http::field::authorization]),
            .depth = std::string(request["Depth"]),
            .if_match = std::string(request[http::field::if_match]),
            .if_none_match = std::string(request[http::field::if_none_match]),
            .accept_encoding = std::string(request[http::field::accept_encoding]),
            .client_address = origin.client_address,
            .body = std::move(request.body())};
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
    if (auto refused = body_refusal(read)) co_return std::move(*refused);
    auto& request = conn->parser->get();
    const client_origin origin = decide_origin(conn->state->config.http, conn->ends, forwarded_headers_of(request));
    conn->client = origin.client_address;
    if (request.method() == http::verb::options) {
        const std::string target(request.target());
        auto options = dav::options_response(path_of(target));
        http_reply reply = text_reply(200, {});
        reply.headers = std::move(options.headers);
        co_return reply;
    }
    auto* dav = conn->state->services.dav;
    if (!dav) co_return text_reply(404, "not found\n");
    if (auto refused = over_budget(*conn->state, origin.client_address)) co_return std::move(*refused);
    auto slot = co_await make_slot<http_reply>();
    if (!dav->submit(dav_job(request, route, origin), job_slot<http_reply>::completion(slot))) {
        co_return text_failure_reply(http_failure::server_busy);
    }
    co_return co_await wait_for(slot);
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

template <class Stream>
net::awaitable<http_reply> route_to_front_end(std::shared_ptr<connection<Stream>> conn, route_decision route) {
    if (route.reply) {
        conn->must_close = !conn->parser->is_done();  // an unread body cannot be skipped safely
        co_return *route.reply;
    }
    if (route.endpoint == endpoint_kind::sync) co_return co_await answer_sync(conn, route);
    if (route.endpoint == endpoint_kind::admin) co_return co_await answer_admin(conn);
    if (route.endpoint == endpoint_kind::dav) co_return co_await answer_dav(conn, route);
    conn->must_close = !conn->parser->is_done();
    co_return probe_reply(*conn->state, route.endpoint, conn->listener);
}

}  // namespace

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
    http_reply reply = co_await route_to_front_end(conn, route);
    conn->body.release();  // the body is consumed once the answer is known: others may have its bytes
    const int status = reply.status;
    const std::size_t response_bytes = route.head_only ? 0 : reply.body.size();
    const std::string reason = refusal_reason(reply);
    bool keep_alive = false;
    if (!conn->silent) keep_alive = co_await send_reply(conn, std::move(reply), route.head_only);
    ++conn->requests;
    log_request(*conn, route, conn->silent ? 499 : status, conn->silent ? 0 : response_bytes, reason);
    co_return keep_alive;
}

template net::awaitable<bool> answer(std::shared_ptr<connection<plain_stream>>);
template net::awaitable<bool> answer(std::shared_ptr<connection<tls_stream>>);

}  // namespace syncml::server
