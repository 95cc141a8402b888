#include "session/service/sync_service.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <mutex>

#include "auth/credential_cache.hpp"
#include "auth/login.hpp"
#include "common/crypto/digest.hpp"
#include "common/crypto/secrets.hpp"
#include "common/log/log_event.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/sync/session_routes.hpp"
#include "persistence/sync/sync_store.hpp"
#include "persistence/sync/tenant_sessions.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/engine.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/engine/session_log.hpp"
#include "session/protocol/auth.hpp"
#include "session/service/device_trace.hpp"
#include "session/service/syncml_login.hpp"
#include "session/service/tenant_cache.hpp"
#include "session/service/tenant_limits.hpp"
#include "session/service/tenant_session_gauge.hpp"

namespace syncml::session {
namespace {

std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

sync_response http_error(int status) {
    sync_response r;
    r.http_status = status;
    return r;
}

sync_response syncml_reply(const message& reply, wire_encoding encoding) {
    engine_metrics::statuses_sent(reply);
    sync_response r;
    r.content_type = content_type(encoding);
    r.body = encode(reply, encoding);
    return r;
}

std::string query_token(const std::string& url) {
    auto q = url.find("?s=");
    if (q == std::string::npos) q = url.find("&s=");
    if (q == std::string::npos) return {};
    auto end = url.find('&', q + 3);
    return url.substr(q + 3, end == std::string::npos ? std::string::npos : end - q - 3);
}

std::string base_uri(const sync_request& request) {
    auto path = request.url.substr(0, request.url.find('?'));
    if (path.empty() || path[0] != '/') path = "/" + path;
    if (!request.public_base.empty()) return request.public_base + path;
    return (request.tls ? "https://" : "http://") + request.host + path;
}

std::optional<std::int64_t> numeric_msg_id(const std::string& text) {
    std::int64_t n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc{} || ptr != text.data() + text.size() || n < 1) return std::nullopt;
    return n;
}

// A resend repeats the last answered message: the stored reply answers it. MsgID 1 with another body is the
// first message of a new session that reuses the SessionID (a phone that fetched our DevInf in a session of
// its own, then syncs). Later MsgIDs keep the stored reply: the session's state moved on past them.
bool is_resend(const persistence::session_record& rec, const message& in, const std::string& digest) {
    if (rec.last_msg_id != in.header.msg_id || rec.last_reply.empty()) return false;
    return in.header.msg_id != "1" || rec.last_request_digest.empty() || rec.last_request_digest == digest;
}

sync_response retry_later(sync_response response, std::chrono::seconds after) {
    response.headers.emplace_back("Retry-After", std::to_string(std::max<std::int64_t>(after.count(), 1)));
    return response;
}

// What one message did, for metrics and the session log once the transaction committed.
struct message_report {
    sync_response response;
    engine_metrics::message_result result = engine_metrics::message_result::ok;
    bool session_done = false;
    session_state state;
    std::string device;
};

}  // namespace

struct sync_service::impl {
    impl(service_settings s, engine_metrics* m)
        : settings(s), metrics(m), credentials(s.credential_cache_ttl), tenants(s.tenant_cache_ttl) {
        if (!s.trace.devices.empty()) trace = std::make_unique<device_trace>(s.trace);
    }

    // The message of a decoded request: the tenant looked up, the message served or refused.
    sync_response answer(persistence::database& db, const sync_request& request, const message& in,
                         const std::string& tenant_name, std::chrono::steady_clock::time_point start);

    service_settings settings;
    engine_metrics* metrics = nullptr;
    std::unique_ptr<device_trace> trace;
    auth::credential_cache credentials;
    tenant_cache tenants;
    tenant_session_gauge live_sessions;
    std::mutex secret_mutex;
    std::string secret;  // read once from the database; the same for every instance

    const std::string& token_secret(persistence::sync_store& store) {
        std::lock_guard lock(secret_mutex);
        if (secret.empty()) secret = store.token_secret();
        return secret;
    }

    // The secret outside a message's transaction (md5 logins are checked before it): read once per process.
    std::string token_secret(persistence::database& db) {
        {
            std::lock_guard lock(secret_mutex);
            if (!secret.empty()) return secret;
        }
        std::string read;
        persistence::run_sync_transaction(db, [&](persistence::sync_store& store) { read = token_secret(store); });
        return read;
    }

    // The session this message may continue, found and locked with the device lock in one round trip: by a valid
    // RespURI token, by the credentials it proved (`verified_user`), or by the address that authenticated the
    // session (migrations/0010_session_binding.sql; unless !by_address), among the sessions of `route_user` when
    // not 0; nullopt when none.
    std::optional<persistence::session_record> open_session(persistence::sync_store& store,
                                                            const persistence::tenant_info& tenant,
                                                            const sync_request& request, const message& in,
                                                            std::int64_t verified_user, std::int64_t route_user,
                                                            bool by_address) {
        persistence::message_session m;
        m.device_uri = in.header.source.loc_uri;
        m.session_id = in.header.session_id;
        if (auto token = parse_session_token(query_token(request.url), token_secret(store))) {
            m.key = token->key;
            m.key_user = token->user;
        }
        m.route_user = route_user;
        m.msg_id = in.header.msg_id;
        m.user = verified_user;
        m.address = request.remote_addr;
        if (by_address && tenant.settings.binding == persistence::session_binding::token_or_address) {
            m.address_idle = settings.session_address_idle;
        }
        m.max_age = settings.session_max_age;
        m.max_devices = tenant.settings.max_devices_per_user;
        m.max_sessions = tenant.settings.max_sessions;
        return store.open_message_session(tenant.id, m);
    }

    // The session's device row: read with the session row for later messages, upserted (last seen) once when
    // a session starts or its user changes, unless open_message_session did that already.
    static persistence::device_record session_device(persistence::sync_store& store, std::int64_t tenant,
                                                     const persistence::session_record& rec, std::int64_t user,
                                                     bool starting, const std::string& device_uri) {
        if (user == 0) return {};
        if ((rec.device_touched || !starting) && rec.device.id != 0 && rec.device_user_id == user) return rec.device;
        return store.device(tenant, user, device_uri);
    }

    static message_report busy(const persistence::tenant_info& tenant, const message& in) {
        common::log_event(
            spdlog::level::info, "sync: busy, a newer session of the device took over",
            {{"tenant", tenant.name}, {"device", in.header.source.loc_uri}, {"session", in.header.session_id}});
        message_report report;
        report.result = engine_metrics::message_result::unavailable;
        report.response = syncml_reply(error_reply(in.header, in.version, in.encoding, 101), in.encoding);
        return report;
    }

    static message_report too_many_devices(const persistence::tenant_info& tenant, const message& in) {
        common::log_event(spdlog::level::info, "sync: refused, the user has the tenant's maximum of devices",
                          {{"tenant", tenant.name},
                           {"user", credential_user(in.header).value_or("")},
                           {"device", in.header.source.loc_uri},
                           {"limit", tenant.settings.max_devices_per_user}});
        message_report report;
        engine_metrics::limit_refused(engine_metrics::limit::devices_per_user);
        report.response = syncml_reply(error_reply(in.header, in.version, in.encoding, 403), in.encoding);
        return report;
    }

    // The tenant has max_sessions live sessions: come back later (HTTP 503, which phones retry), nothing written.
    static message_report too_many_sessions(const persistence::tenant_info& tenant, const message& in) {
        common::log_event(spdlog::level::info, "sync: refused, the tenant has its maximum of live sessions",
                          {{"tenant", tenant.name},
                           {"device", in.header.source.loc_uri},
                           {"session", in.header.session_id},
                           {"limit", tenant.settings.max_sessions}});
        message_report report;
        engine_metrics::limit_refused(engine_metrics::limit::sessions);
        report.result = engine_metrics::message_result::unavailable;
        report.response = retry_later(http_error(503), std::chrono::seconds(30));
        return report;
    }

    engine_context context_of(persistence::sync_store& store, const persistence::tenant_info& tenant,
                              const sync_request& request, const message& in, const std::optional<account_info>& acct,
                              const session_token& session) {
        engine_context ctx;
        ctx.tenant_id = tenant.id;
        if (session.key != 0) {
            ctx.resp_uri = base_uri(request) + "?s=" + make_session_token(session, token_secret(store));
        }
        ctx.account = acct;
        ctx.now_ms = now_ms();
        ctx.max_msg_size = settings.max_msg_size;
        ctx.max_obj_size = settings.max_obj_size;
        apply_tenant_limits(ctx, tenant.settings);
        ctx.stateless_nonces =
            stateless_nonces(token_secret(store), tenant.id, in.header.source.loc_uri, ctx.now_ms / 1000);
        ctx.allow_basic = tenant.settings.auth_basic;
        ctx.allow_md5 = tenant.settings.auth_md5;
        return ctx;
    }

    // A message that may continue no session: the engine answers it (a challenge, statuses for its commands)
    // against a fresh state and the device's stored nonce, and the caller rolls back whatever that wrote.
    message_report challenge(persistence::sync_store& store, const persistence::tenant_info& tenant,
                             const sync_request& request, const message& in, const std::optional<account_info>& acct,
                             const persistence::credential_check& check) {
        session_state state;
        if (auto n = numeric_msg_id(in.header.msg_id)) state.next_msg_id = *n;
        persistence::device_record device;
        device.nonce = check.device_nonce;
        auto outcome = process_message(in, state, device, context_of(store, tenant, request, in, acct, {}), store);
        message_report report;
        report.response = syncml_reply(outcome.reply, in.encoding);
        report.result = engine_metrics::message_result::auth_failed;
        return report;
    }

    // One message in its transaction; false: roll back everything it wrote (it did not authenticate, or it only
    // gets a stored reply or a refusal).
    // at_cap: on a distributed schema, the tenant has its maximum of live sessions (a new one is refused).
    // verified: the user whose credentials this message proved, 0 for none. route_user, by_address: see open_session.
    bool run(persistence::sync_store& store, const persistence::tenant_info& tenant, const sync_request& request,
             const message& in, const std::optional<account_info>& acct, std::int64_t verified,
             const persistence::credential_check& check, bool at_cap, std::int64_t route_user, bool by_address,
             message_report& report) {
        auto rec = open_session(store, tenant, request, in, verified, route_user, by_address);
        if (!rec) {
            report = challenge(store, tenant, request, in, acct, check);
            return false;
        }
        // A row that never answered a message is a session that starts (a live one goes on at the cap).
        if (rec->sessions_refused || (at_cap && rec->last_msg_id.empty() && rec->state.empty())) {
            report = too_many_sessions(tenant, in);
            return false;
        }
        if (rec->device_refused) {
            report = too_many_devices(tenant, in);
            return false;
        }
        // MsgID 1 starts a session, also when a restarted client reuses its last SessionID.
        if (in.header.msg_id != "1" && rec->superseded) {
            report = busy(tenant, in);
            return false;
        }
        const auto digest = common::sha256(request.body);
        if (is_resend(*rec, in, digest)) {
            report.result = engine_metrics::message_result::resend;
            report.response.content_type = rec->last_reply_type;
            report.response.body = rec->last_reply;
            return false;
        }
        auto state = decode_state(rec->state).value_or(session_state{});
        // A client that reuses a SessionID starts over with MsgID 1; a finished session never continues.
        if ((in.header.msg_id == "1" && !rec->last_msg_id.empty()) || state.current == phase::done) {
            state = session_state{};
        }
        const bool starting = state.started_unix_ms == 0;
        if (starting) {
            state.started_unix_ms = now_ms();
            // Earlier messages of the client got a challenge, each with our next MsgID.
            if (auto n = numeric_msg_id(in.header.msg_id)) state.next_msg_id = *n;
        }
        state.bytes_in += static_cast<std::int64_t>(request.body.size());
        std::int64_t user = state.user_id != 0 ? state.user_id : verified;
        auto device = session_device(store, tenant.id, *rec, user, starting, in.header.source.loc_uri);
        auto ctx = context_of(store, tenant, request, in, acct, {rec->user_id, rec->id});
        auto outcome = process_message(in, state, device, ctx, store);
        auto reply = syncml_reply(outcome.reply, in.encoding);
        report.response = std::move(reply);
        if (outcome.auth_failed) report.result = engine_metrics::message_result::auth_failed;
        // Only an authenticated session is stored (a nonce of the device changed meanwhile: a replay lost).
        if (!state.authenticated) return false;
        state.bytes_out += static_cast<std::int64_t>(report.response.body.size());
        rec->user_id = state.user_id;
        rec->state = encode_state(state);
        rec->last_msg_id = in.header.msg_id;
        rec->last_reply = report.response.body;
        rec->last_reply_type = report.response.content_type;
        rec->last_request_digest = digest;
        rec->device = device;
        rec->finished = outcome.session_done;
        rec->credentials_verified = verified != 0;
        rec->client_address = request.remote_addr;
        store.save_session(tenant.id, *rec);
        report.session_done = outcome.session_done;
        report.state = std::move(state);
        report.device = in.header.source.loc_uri;
        return true;
    }

    // One message: the credential check with the auth throttle (messages with Cred), the transaction (device lock,
    // session, engine), and what the outcome means for the throttle.
    sync_response serve(persistence::database& db, const persistence::tenant_info& tenant, const sync_request& request,
                        const message& in, std::chrono::steady_clock::time_point start) {
        persistence::pg_auth_throttle throttle(db, settings.auth_throttle);
        persistence::credential_check check;
        std::optional<account_info> acct;
        if (in.header.cred) {
            check = throttle.check(tenant.id, credential_user(in.header).value_or(""), in.header.source.loc_uri,
                                   request.remote_addr);
            login_context login{
                {db, persistence::md5_key_of(settings.auth_throttle), credentials},
                stateless_nonces(token_secret(db), tenant.id, in.header.source.loc_uri, now_ms() / 1000)};
            acct = find_account(check, tenant, in.header, login);
        }
        message_report report;
        // Only a message with credentials (basic, or md5 that the engine checks) may start a session.
        const bool at_cap = in.header.cred && beyond_distributed_session_cap(db, tenant);
        const std::int64_t verified = acct && acct->password_ok ? acct->user_id : 0;
        // Credentials that did not verify (wrong, stale or blocked) still say whose phone sends: such a message may go
        // on only in a session of that user (as its owner), never in another user's by address; naming an unknown
        // user, in none by address. Credentials that name nobody (md5 without LocName) count as none.
        const bool names_user = in.header.cred && credential_user(in.header);
        const std::int64_t claimed = names_user && verified == 0 && check.account ? check.account->user_id : 0;
        const bool by_address = !names_user || verified != 0 || claimed != 0;
        const std::int64_t route_user = verified != 0 ? 0
                                        : names_user  ? claimed
                                                      : distributed_route_user(db, tenant, request, in);
        auto outcome = persistence::transaction_outcome::failed;
        if (verified == 0 || record_distributed_session_start(db, tenant, in, verified)) {
            outcome = persistence::run_sync_transaction_if(db, [&](persistence::sync_store& store) {
                return run(store, tenant, request, in, acct, verified, check, at_cap, route_user, by_address, report);
            });
        }
        if (outcome == persistence::transaction_outcome::failed) {
            // Also what a tenant deleted meanwhile looks like: look it up afresh next time.
            tenants.forget(tenant.name);
            report.result = engine_metrics::message_result::unavailable;
            report.response = retry_later(http_error(503), std::chrono::seconds(5));
        } else {
            settle(throttle, tenant, in, request, report, check, acct ? acct->user_id : 0, verified != 0);
        }
        finish(report, tenant.name, start);
        return std::move(report.response);
    }

    // Whether this tenant's sessions may go on by address on a distributed schema, where that needs a session route.
    bool routes_sessions(const persistence::tenant_info& tenant) const {
        return persistence::distributed_schema_in_use() &&
               tenant.settings.binding == persistence::session_binding::token_or_address &&
               settings.session_address_idle.count() > 0;
    }

    // On a distributed schema a message without valid token or credentials that may continue a session by its
    // address names no user: the recorded session starts of its device and SessionID name the user whose shard the
    // session is on, or nobody while another user's start of the device is recent
    // (persistence/sync/session_routes.hpp); 0 when there is none or nothing to look for.
    std::int64_t distributed_route_user(persistence::database& db, const persistence::tenant_info& tenant,
                                        const sync_request& request, const message& in) {
        if (!routes_sessions(tenant) || in.header.msg_id == "1" || request.remote_addr.empty()) return 0;
        if (parse_session_token(query_token(request.url), token_secret(db))) return 0;
        return persistence::session_route_user(db, tenant.id, in.header.source.loc_uri, in.header.session_id,
                                               settings.session_max_age + persistence::k_session_start_refresh);
    }

    // Before the transaction of a message with valid credentials on a distributed schema, whatever the tenant's binding
    // (it may change while sessions live): its user starts or goes on with the device's session of its SessionID
    // (outside the message's transaction, which stays on the user's shard). Recorded first, so that a message without
    // token or credentials can never be routed to another user's session of the same device while this one may live;
    // false (after a log line) when that failed: the message then gets a retryable error.
    bool record_distributed_session_start(persistence::database& db, const persistence::tenant_info& tenant,
                                          const message& in, std::int64_t user) {
        if (!persistence::distributed_schema_in_use()) return true;
        try {
            persistence::record_session_start(db, tenant.id, in.header.source.loc_uri, user, in.header.session_id);
            return true;
        } catch (const persistence::db_error& error) {
            common::log_event(spdlog::level::warn, "sync: session start not recorded", {{"error", error.what()}});
            return false;
        }
    }

    // On a distributed schema the tenant's session cap comes from a count outside the message's transaction
    // (tenant_session_gauge.hpp), applied to the sessions that start; on one database the session function counts
    // exactly.
    bool beyond_distributed_session_cap(persistence::database& db, const persistence::tenant_info& tenant) {
        if (!persistence::distributed_schema_in_use() || tenant.settings.max_sessions <= 0) return false;
        return live_sessions.at_limit(
            tenant.id, tenant.settings.max_sessions, [&](std::int64_t id, std::int64_t limit) {
                return persistence::count_live_sessions(db, id, limit, settings.session_max_age);
            });
    }

    // What the outcome means for the auth throttle.
    static void settle(persistence::auth_throttle& throttle, const persistence::tenant_info& tenant, const message& in,
                       const sync_request& request, message_report& report, const persistence::credential_check& check,
                       std::int64_t cred_user, bool cred_verified) {
        if (!in.header.cred) return;
        // The session the message went on in is of the user its Cred names (basic or md5, which the engine checks):
        // else the Cred was someone else's, whatever the session made of it.
        const bool own_session = report.state.user_id != 0 && cred_user == report.state.user_id;
        const auth::login_attempt attempt{tenant.id, credential_user(in.header).value_or(""), in.header.source.loc_uri,
                                          request.remote_addr};
        if (report.result == engine_metrics::message_result::auth_failed) {
            if (check.blocked.count() > 0) {
                report.response = retry_later(std::move(report.response), check.blocked);
            } else {
                common::log_event(spdlog::level::info, "sync: auth failed",
                                  {{"tenant", tenant.name}, {"user", attempt.user}, {"device", attempt.device}});
                auth::record_failure(throttle, check, attempt);
            }
        } else if (!own_session && report.result == engine_metrics::message_result::ok) {
            // Another user's Cred in a message that went on in a session its token or address continued is a failed
            // login of that user: else a session of one's own would let anyone guess another user's password without
            // the throttle counting (and reset that user's counters after each guess).
            if (check.blocked.count() == 0) {
                common::log_event(spdlog::level::info, "sync: auth failed in a continued session",
                                  {{"tenant", tenant.name}, {"user", attempt.user}, {"device", attempt.device}});
                auth::record_failure(throttle, check, attempt);
            }
        } else if (own_session && cred_verified && report.result == engine_metrics::message_result::ok &&
                   report.state.authenticated) {
            // Only a Cred that verified clears the failures: a wrong one in one's own session counts as nothing (an
            // md5 digest over an old nonce looks the same) and must not wipe guesses made elsewhere either.
            auth::record_success(throttle, check, attempt);
        }
    }

    void finish(const message_report& report, const std::string& tenant, std::chrono::steady_clock::time_point start) {
        auto now = now_ms();
        if (report.session_done) log_session_end(tenant, report.state, report.device, now);
        if (!metrics) return;
        metrics->message(report.result, std::chrono::steady_clock::now() - start);
        if (report.session_done) {
            metrics->session_end(report.state, std::chrono::milliseconds(now - report.state.started_unix_ms));
        }
    }
};

sync_service::sync_service(service_settings settings, engine_metrics* metrics)
    : impl_(std::make_unique<impl>(settings, metrics)) {}

sync_service::~sync_service() = default;

sync_response sync_service::handle(const sync_request& request, persistence::database& db) {
    auto start = std::chrono::steady_clock::now();
    const std::string tenant_name = request.tenant.empty() ? std::string(persistence::default_tenant) : request.tenant;
    // Every line written while this message is served names its tenant, client and (once decoded) session.
    common::log_context context({{"tenant", tenant_name}, {"client", request.remote_addr}});
    auto decoded = decode(request.body, request.encoding);
    if (!decoded) {
        if (impl_->metrics) impl_->metrics->message(engine_metrics::message_result::bad_request, {});
        const auto& err = decoded.error();
        const int code = err.header && err.unsupported_version ? 505 : 400;
        if (err.header) {
            context.add({"device", err.header->source.loc_uri});
            context.add({"session", err.header->session_id});
        }
        common::log_event(
            spdlog::level::info, "sync: message rejected",
            {{"status", code}, {"reason", err.unsupported_version ? "unsupported SyncML version" : err.describe()}});
        if (!err.header) return http_error(400);
        auto version = err.version.value_or(syncml_version::v1_2);
        return syncml_reply(error_reply(*err.header, version, request.encoding, code), request.encoding);
    }
    const auto& in = decoded.value();
    context.add({"device", in.header.source.loc_uri});
    context.add({"session", in.header.session_id});
    sync_response response = impl_->answer(db, request, in, tenant_name, start);
    if (impl_->trace && impl_->trace->wants(in.header.source.loc_uri)) impl_->trace->record(tenant_name, in, response);
    return response;
}

sync_response sync_service::impl::answer(persistence::database& db, const sync_request& request, const message& in,
                                         const std::string& tenant_name, std::chrono::steady_clock::time_point start) {
    try {
        auto tenant = tenants.find(tenant_name, [&] { return persistence::find_tenant(db, tenant_name); });
        if (!tenant) {
            common::log_event(spdlog::level::info, "sync: message rejected",
                              {{"status", 404}, {"reason", "unknown tenant"}});
            return syncml_reply(error_reply(in.header, in.version, in.encoding, 404), in.encoding);
        }
        if (auto refused = refuse_oversized_message(request, tenant->settings)) {
            common::log_event(spdlog::level::info, "sync: message rejected",
                              {{"status", refused->http_status},
                               {"reason", "message larger than the tenant's max_message_bytes"},
                               {"bytes", request.body.size()}});
            return *refused;
        }
        return serve(db, *tenant, request, in, start);
    } catch (const persistence::db_error& e) {
        common::log_event(spdlog::level::warn, "sync: database error", {{"error", e.what()}});
        auto busy = http_error(503);
        busy.headers.emplace_back("Retry-After", "5");
        return busy;
    }
}

std::string make_session_token(const session_token& token, const std::string& secret) {
    auto id = std::to_string(token.user) + "." + std::to_string(token.key);
    return id + "-" + common::hmac_sha256_hex(secret, "session:" + id).substr(0, 32);
}

std::optional<session_token> parse_session_token(const std::string& token, const std::string& secret) {
    auto dot = token.find('.');
    auto dash = token.find('-');
    if (dot == std::string::npos || dash == std::string::npos || dot > dash || secret.empty()) return std::nullopt;
    session_token parsed;
    auto [user_end, user_ec] = std::from_chars(token.data(), token.data() + dot, parsed.user);
    auto [key_end, key_ec] = std::from_chars(token.data() + dot + 1, token.data() + dash, parsed.key);
    if (user_ec != std::errc{} || user_end != token.data() + dot || key_ec != std::errc{} ||
        key_end != token.data() + dash)
        return std::nullopt;
    if (!common::constant_time_equal(make_session_token(parsed, secret), token)) return std::nullopt;
    return parsed;
}

}  // namespace syncml::session
