#include "session/service/message_transaction.hpp"

#include <charconv>
#include <chrono>

#include <spdlog/spdlog.h>

#include "common/crypto/digest.hpp"
#include "common/log/log_event.hpp"
#include "session/protocol/auth.hpp"
#include "session/service/sync_replies.hpp"
#include "session/service/tenant_limits.hpp"

namespace syncml::session {
namespace {

std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
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

// What the database refused the message while opening its session, or what makes it wait for another session.
std::optional<sync_failure> refusal_of(const persistence::session_record& rec, const message_run& run) {
    // A row that never answered a message is a session that starts (a live one goes on at the cap).
    if (rec.sessions_refused || (run.at_cap && rec.last_msg_id.empty() && rec.state.empty())) {
        return sync_failure::too_many_sessions;
    }
    if (rec.device_refused) return sync_failure::too_many_devices;
    // MsgID 1 starts a session, also when a restarted client reuses its last SessionID.
    if (run.in.header.msg_id != "1" && rec.superseded) return sync_failure::busy;
    return std::nullopt;
}

// What let a later message of a session go on; also a message 1 that reuses the SessionID of a live session counts
// as a continuation here (it is one until the engine starts over).
engine_metrics::continuation continuation_of(const persistence::session_record& rec, const message_run& run) {
    if (rec.continued_by_address) return engine_metrics::continuation::address;
    if (run.admitted.verified_user != 0) return engine_metrics::continuation::credentials;
    return engine_metrics::continuation::token;
}

message_report refused(sync_failure failure, const message_run& run, engine_metrics* metrics) {
    message_report report;
    report.result = message_result_of(failure);
    report.response = failure_reply(failure, scene_of(run.in, &run.tenant), metrics);
    return report;
}

// The session's state for this message (`starting`: a session that starts with it).
struct message_state {
    session_state state;
    bool starting = false;
};

// A client that reuses a SessionID starts over with MsgID 1; a finished session never continues.
message_state state_of(const persistence::session_record& rec, const message_run& run) {
    const auto& in = run.in;
    message_state s{decode_state(rec.state).value_or(session_state{})};
    if ((in.header.msg_id == "1" && !rec.last_msg_id.empty()) || s.state.current == phase::done) {
        s.state = session_state{};
    }
    s.starting = s.state.started_unix_ms == 0;
    if (s.starting) {
        s.state.started_unix_ms = now_ms();
        // Earlier messages of the client got a challenge, each with our next MsgID.
        if (auto n = numeric_msg_id(in.header.msg_id)) s.state.next_msg_id = *n;
    }
    s.state.bytes_in += static_cast<std::int64_t>(run.request.body.size());
    return s;
}

// The session's device row: read with the session row for later messages, upserted (last seen) once when
// a session starts or its user changes, unless open_message_session did that already.
persistence::device_record session_device(persistence::sync_store& store, std::int64_t tenant,
                                          const persistence::session_record& rec, std::int64_t user, bool starting,
                                          const std::string& device_uri) {
    if (user == 0) return {};
    if ((rec.device_touched || !starting) && rec.device.id != 0 && rec.device_user_id == user) return rec.device;
    return store.device(tenant, user, device_uri);
}

}  // namespace

bool message_transaction::run(persistence::sync_store& store, const message_run& run, message_report& report) {
    const auto& in = run.in;
    const admission_limits limits{.address_idle = settings_.session_address_idle,
                                  .max_age = settings_.session_max_age,
                                  .max_devices = run.tenant.settings.max_devices_per_user,
                                  .max_sessions = run.tenant.settings.max_sessions};
    auto rec = store.open_message_session(run.tenant.id,
                                          message_session_of(run.admitted, in.header, run.request.remote_addr, limits));
    if (!rec) {
        report = no_session(store, run);
        return false;
    }
    if (auto failure = refusal_of(*rec, run)) {
        report = refused(*failure, run, metrics_);
        return false;
    }
    if (!rec->last_msg_id.empty() && metrics_) metrics_->continued(continuation_of(*rec, run));
    // Every line of the message says so when it went on by its address alone (an operator sees which devices need
    // the tenant's opt-in).
    std::optional<common::log_context> by_address;
    if (rec->continued_by_address)
        by_address.emplace(std::initializer_list<common::log_field>{{"continued_by", "address"}});
    const auto digest = common::sha256(run.request.body);
    if (is_resend(*rec, in, digest)) {
        // The stored reply holds the user's items; on the address path the sender may be anyone behind the phone's
        // public address. The phone gets a challenge and resends with credentials, which find the reply.
        if (rec->continued_by_address) {
            report = challenge(store, run);
            return false;
        }
        report.result = engine_metrics::message_result::resend;
        report.response.content_type = rec->last_reply_type;
        report.response.body = rec->last_reply;
        return false;
    }
    return engine_run(store, run, *rec, digest, report);
}

message_report message_transaction::no_session(persistence::sync_store& store, const message_run& run) {
    const auto& in = run.in;
    // A later message that finds no session: expired, finished, another user's, or (on a distributed schema) not
    // where it was written. The phone gets a challenge; the line says which session it asked for.
    if (in.header.msg_id != "1") {
        // A guessed SessionID looks like this: the address pays for the lookup (auth/address_budget.hpp).
        if (settings_.guard) settings_.guard->budget().charge(run.request.remote_addr);
        common::log_event(spdlog::level::info, "sync: no session to continue",
                          {{"msg_id", in.header.msg_id},
                           {"token_user", run.admitted.token ? run.admitted.token->user : 0},
                           {"token_key", run.admitted.token ? run.admitted.token->key : 0},
                           {"route_user", run.admitted.route_user},
                           {"verified_user", run.admitted.verified_user}});
    }
    return challenge(store, run);
}

engine_context message_transaction::context_of(persistence::sync_store& store, const message_run& run,
                                               const session_token& session) {
    engine_context ctx;
    ctx.tenant_id = run.tenant.id;
    ctx.metrics = metrics_;
    if (session.key != 0) {
        ctx.resp_uri = base_uri(run.request) + "?s=" + make_session_token(session, secrets_.get(store));
    }
    ctx.account = run.account;
    ctx.now_ms = now_ms();
    ctx.max_msg_size = settings_.max_msg_size;
    ctx.max_obj_size = settings_.max_obj_size;
    apply_tenant_limits(ctx, run.tenant.settings);
    ctx.stateless_nonces =
        stateless_nonces(secrets_.get(store), run.tenant.id, run.in.header.source.loc_uri, ctx.now_ms / 1000);
    ctx.allow_basic = run.tenant.settings.auth_basic;
    ctx.allow_md5 = run.tenant.settings.auth_md5;
    return ctx;
}

// A message that may continue no session: the engine answers it (a challenge, statuses for its commands) against a
// fresh state and the device's stored nonce, and the caller rolls back whatever that wrote.
message_report message_transaction::challenge(persistence::sync_store& store, const message_run& run) {
    session_state state;
    if (auto n = numeric_msg_id(run.in.header.msg_id)) state.next_msg_id = *n;
    persistence::device_record device;
    device.nonce = run.check.device_nonce;
    auto outcome = process_message(run.in, state, device, context_of(store, run, {}), store);
    message_report report;
    report.response = syncml_reply(outcome.reply, run.in.encoding, metrics_);
    report.result = engine_metrics::message_result::auth_failed;
    return report;
}

// The engine's run in the session, stored only once authenticated (a nonce of the device changed meanwhile: a
// replay lost) with the reply for a resend.
bool message_transaction::engine_run(persistence::sync_store& store, const message_run& run,
                                     persistence::session_record& rec, const std::string& digest,
                                     message_report& report) {
    const auto& in = run.in;
    auto [state, starting] = state_of(rec, run);
    std::int64_t user = state.user_id != 0 ? state.user_id : run.admitted.verified_user;
    auto device = session_device(store, run.tenant.id, rec, user, starting, in.header.source.loc_uri);
    auto outcome = process_message(in, state, device, context_of(store, run, {rec.user_id, rec.id}), store);
    report.response = syncml_reply(outcome.reply, in.encoding, metrics_);
    if (outcome.auth_failed) report.result = engine_metrics::message_result::auth_failed;
    if (!state.authenticated) return false;
    state.bytes_out += static_cast<std::int64_t>(report.response.body.size());
    rec.user_id = state.user_id;
    rec.state = encode_state(state);
    rec.last_msg_id = in.header.msg_id;
    rec.last_reply = report.response.body;
    rec.last_reply_type = report.response.content_type;
    rec.last_request_digest = digest;
    rec.device = device;
    rec.finished = outcome.session_done;
    rec.credentials_verified = run.admitted.verified_user != 0;
    rec.client_address = run.request.remote_addr;
    store.save_session(run.tenant.id, rec);
    report.session_done = outcome.session_done;
    report.state = std::move(state);
    report.device = in.header.source.loc_uri;
    return true;
}

}  // namespace syncml::session
