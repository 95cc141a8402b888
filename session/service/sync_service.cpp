#include "session/service/sync_service.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "auth/credential_cache.hpp"
#include "common/log/log_event.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/sync/sync_store.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/engine.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/engine/session_log.hpp"
#include "session/protocol/auth.hpp"
#include "session/protocol/header_limits.hpp"
#include "session/service/admission.hpp"
#include "session/service/device_trace.hpp"
#include "session/service/distributed_sessions.hpp"
#include "session/service/message_transaction.hpp"
#include "session/service/session_token.hpp"
#include "session/service/sync_replies.hpp"
#include "session/service/syncml_login.hpp"
#include "session/service/tenant_cache.hpp"
#include "session/service/tenant_limits.hpp"
#include "session/service/throttle_settlement.hpp"

namespace syncml::session {
namespace {

std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

struct sync_service::impl {
    impl(service_settings s, engine_metrics* m)
        : settings(std::move(s)),
          metrics(m),
          credentials(settings.credential_cache_ttl),
          tenants(settings.tenant_cache_ttl),
          distributed(settings),
          transaction(settings, secrets, m),
          open_throttle(settings.throttle ? settings.throttle : auth::database_throttle(settings.auth_throttle)) {
        if (!settings.trace.devices.empty()) trace = std::make_unique<device_trace>(settings.trace);
    }

    // The message of a decoded request: the tenant looked up, the message served or refused.
    sync_response answer(persistence::database& db, const sync_request& request, const message& in,
                         const std::string& tenant_name, std::chrono::steady_clock::time_point start);

    service_settings settings;
    engine_metrics* metrics = nullptr;
    std::unique_ptr<device_trace> trace;
    auth::credential_cache credentials;
    tenant_cache tenants;
    token_secret_cache secrets;
    distributed_sessions distributed;
    message_transaction transaction;
    auth::throttle_source open_throttle;

    // A tenant that does not exist answers what one with the default settings answers credentials that name nobody:
    // the engine's challenge, after a password hash as long as a real check. Tenant names cannot be probed; nothing
    // is written (a throttle row would need a tenant); the log line tells the operator.
    sync_response answer_unknown_tenant(persistence::database& db, const sync_request& request, const message& in,
                                        const std::string& tenant_name) {
        common::log_event(spdlog::level::info, "sync: unknown tenant, answered as wrong credentials", {});
        const persistence::tenant_info nobody{.id = 0, .name = tenant_name, .settings = {}};
        if (auto refused = refuse_oversized_message(request, nobody.settings, metrics)) return *refused;
        if (in.header.cred) {
            if (auto basic = parse_basic(*in.header.cred)) {
                const auth::login_context login{db, persistence::md5_key_of(settings.auth_throttle), credentials,
                                                settings.guard, request.remote_addr};
                if (auth::check_password(login, {}, nobody.id, *basic) == auth::login_verdict::busy) {
                    failure_scene scene = scene_of(in, &nobody);
                    scene.blocked = auth::busy_wait(login);
                    return failure_reply(sync_failure::address_busy, std::move(scene), metrics);
                }
            }
        }
        const persistence::credential_check check;
        const std::optional<account_info> no_account;
        const message_run run{
            .tenant = nobody, .request = request, .in = in, .account = no_account, .check = check, .admitted = {}};
        message_report report;
        const auto outcome = persistence::run_sync_transaction_if(db, [&](persistence::sync_store& store) {
            report = transaction.challenge(store, run);
            return false;
        });
        if (outcome == persistence::transaction_outcome::failed) {
            return failure_reply(sync_failure::database_unavailable, {}, metrics);
        }
        if (metrics) metrics->message(report.result, {});
        return std::move(report.response);
    }

    // One message: the credential check with the auth throttle (messages with Cred), its admission, the transaction
    // (device lock, session, engine), and what the outcome means for the throttle.
    sync_response serve(persistence::database& db, const persistence::tenant_info& tenant, const sync_request& request,
                        const message& in, std::chrono::steady_clock::time_point start) {
        const auto counted = open_throttle(db);
        auto& throttle = *counted;
        persistence::credential_check check;
        std::optional<account_info> acct;
        if (in.header.cred) {
            check = throttle.check(tenant.id, credential_user(in.header).value_or(""), in.header.source.loc_uri,
                                   request.remote_addr);
            login_context login{
                {db, persistence::md5_key_of(settings.auth_throttle), credentials, settings.guard, request.remote_addr},
                stateless_nonces(secrets.get(db), tenant.id, in.header.source.loc_uri, now_ms() / 1000)};
            auto found = find_account(check, tenant, in.header, login);
            if (found.busy) return address_busy(tenant, in, request, found.wait, start);
            acct = std::move(found.account);
        }
        // Only a message with credentials (basic, or md5 that the engine checks) may start a session.
        const bool at_cap = in.header.cred && distributed.beyond_session_cap(db, tenant);
        const message_run run{.tenant = tenant,
                              .request = request,
                              .in = in,
                              .account = acct,
                              .check = check,
                              .admitted = admit_message(db, tenant, request, in, acct, check),
                              .at_cap = at_cap};
        message_report report;
        if (transact(db, run, report)) {
            const login_outcome login{.check = check,
                                      .cred_user = acct ? acct->user_id : 0,
                                      .cred_verified = run.admitted.verified_user != 0};
            settle_throttle(throttle, tenant, in, request, login, report);
        }
        record_trace(tenant, in, report);
        finish(report, tenant.name, start);
        tell_activity(tenant, in, request, report);
        return std::move(report.response);
    }

    void tell_activity(const persistence::tenant_info& tenant, const message& in, const sync_request& request,
                       const message_report& report) const {
        if (settings.activity == nullptr) return;
        const auto user = in.header.cred ? credential_user(in.header) : std::nullopt;
        settings.activity->message_answered({.tenant = tenant.name,
                                             .user = user ? std::string_view(*user) : std::string_view(),
                                             .device = in.header.source.loc_uri,
                                             .address = request.remote_addr,
                                             .result = report.result,
                                             .session_done = report.session_done});
    }

    // The client's address has spent its budget of password checks: the answer says when to come back.
    sync_response address_busy(const persistence::tenant_info& tenant, const message& in, const sync_request& request,
                               std::chrono::seconds wait, std::chrono::steady_clock::time_point start) {
        failure_scene scene = scene_of(in, &tenant);
        scene.blocked = wait;
        message_report report;
        report.result = message_result_of(sync_failure::address_busy);
        report.response = failure_reply(sync_failure::address_busy, std::move(scene), metrics);
        finish(report, tenant.name, start);
        tell_activity(tenant, in, request, report);
        return std::move(report.response);
    }

    // Only what went on in an authenticated session is the device's: anyone may send messages naming a traced device
    // id, and must not fill its trace budget or write files with what he sent.
    void record_trace(const persistence::tenant_info& tenant, const message& in, const message_report& report) {
        if (trace && report.state.authenticated && trace->wants(in.header.source.loc_uri)) {
            trace->record(tenant.name, in, report.response);
        }
    }

    // The one admission of the message (admission.hpp).
    admission admit_message(persistence::database& db, const persistence::tenant_info& tenant,
                            const sync_request& request, const message& in, const std::optional<account_info>& acct,
                            const persistence::credential_check& check) {
        std::optional<session_token> token;
        if (auto text = query_token(request.url); !text.empty()) token = parse_session_token(text, secrets.get(db));
        return admit({.header = in.header,
                      .token = token,
                      .account = acct,
                      .check = check,
                      .binding = tenant.settings.binding,
                      .route_of = [&] { return distributed.route_user(db, tenant, request, in); }});
    }

    // The message's transaction, after the session start a distributed schema records first; false: the database
    // failed (the reply says come back later).
    bool transact(persistence::database& db, const message_run& run, message_report& report) {
        auto outcome = persistence::transaction_outcome::failed;
        const auto verified = run.admitted.verified_user;
        if (verified == 0 || distributed.record_start(db, run.tenant, run.request, run.in, verified)) {
            outcome = persistence::run_sync_transaction_if(
                db, [&](persistence::sync_store& store) { return transaction.run(store, run, report); });
        }
        if (outcome != persistence::transaction_outcome::failed) return true;
        // Also what a tenant deleted meanwhile looks like: look it up afresh next time.
        tenants.forget(run.tenant.name);
        report.result = message_result_of(sync_failure::database_unavailable);
        report.response = failure_reply(sync_failure::database_unavailable, {}, metrics);
        return false;
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
    : impl_(std::make_unique<impl>(std::move(settings), metrics)) {}

sync_service::~sync_service() = default;

sync_response sync_service::handle(const sync_request& request, persistence::database& db) {
    auto start = std::chrono::steady_clock::now();
    const std::string tenant_name = request.tenant.empty() ? std::string(persistence::default_tenant) : request.tenant;
    // Every line written while this message is served names its tenant, client and (once decoded) session.
    common::log_context context({{"tenant", tenant_name}, {"client", request.remote_addr}});
    auto decoded = decode(request.body, request.encoding);
    if (!decoded) {
        const auto& err = decoded.error();
        const auto failure = err.unsupported_version ? sync_failure::unsupported_version : sync_failure::malformed;
        if (impl_->metrics) impl_->metrics->message(message_result_of(failure), {});
        if (err.header) {
            context.add({"device", err.header->source.loc_uri});
            context.add({"session", err.header->session_id});
        }
        failure_scene scene;
        scene.header = err.header ? &*err.header : nullptr;
        scene.version = err.version.value_or(syncml_version::v1_2);
        scene.encoding = request.encoding;
        if (failure == sync_failure::malformed) scene.detail = err.describe();
        return failure_reply(failure, std::move(scene), impl_->metrics);
    }
    const auto& in = decoded.value();
    // Before the identifiers go into the log context and, as keys, to the database.
    if (auto too_long = oversized_identifier(in.header)) {
        if (impl_->metrics) impl_->metrics->message(message_result_of(sync_failure::malformed), {});
        failure_scene scene = scene_of(in);
        scene.detail = std::move(*too_long);
        return failure_reply(sync_failure::malformed, std::move(scene), impl_->metrics);
    }
    context.add({"device", in.header.source.loc_uri});
    context.add({"session", in.header.session_id});
    return impl_->answer(db, request, in, tenant_name, start);
}

sync_response sync_service::impl::answer(persistence::database& db, const sync_request& request, const message& in,
                                         const std::string& tenant_name, std::chrono::steady_clock::time_point start) {
    try {
        tenants.notice_changes([&] { return persistence::tenant_settings_fingerprint(db); });
        auto tenant = tenants.find(tenant_name, [&] { return persistence::find_tenant(db, tenant_name); });
        if (!tenant) return answer_unknown_tenant(db, request, in, tenant_name);
        if (auto refused = refuse_oversized_message(request, tenant->settings, metrics)) return *refused;
        return serve(db, *tenant, request, in, start);
    } catch (const persistence::db_error& e) {
        failure_scene scene;
        scene.detail = e.what();
        return failure_reply(sync_failure::database_unavailable, std::move(scene), metrics);
    }
}

}  // namespace syncml::session
