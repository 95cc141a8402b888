#include "session/service/sync_replies.hpp"

#include <spdlog/spdlog.h>

#include <stdexcept>

#include "common/http/retry_after.hpp"
#include "common/log/log_event.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/engine.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::session {
namespace {

using namespace std::chrono_literals;

// How a failure is answered: a SyncML status in a reply to its SyncHdr, or else an HTTP status.
struct failure_rule {
    int http_status = 200;
    int syncml_status = 0;  // 0: none, the HTTP status answers
    std::chrono::seconds retry_after{0};
};

failure_rule syncml_status(int status) { return {200, status, 0s}; }
failure_rule http_status(int status, std::chrono::seconds retry_after = 0s) { return {status, 0, retry_after}; }

failure_rule rule_of(sync_failure failure, const failure_scene& scene) {
    switch (failure) {
        case sync_failure::malformed:
            return scene.header ? syncml_status(400) : http_status(400);
        case sync_failure::unsupported_version:
            return scene.header ? syncml_status(505) : http_status(400);
        case sync_failure::unknown_tenant:
            return syncml_status(404);
        case sync_failure::oversized:
            return http_status(413);
        case sync_failure::busy:
            return syncml_status(101);
        case sync_failure::too_many_devices:
            return syncml_status(403);
        case sync_failure::too_many_sessions:
            return http_status(503, 30s);
        case sync_failure::database_unavailable:
            return http_status(503, 5s);
        case sync_failure::login_throttled:
            return http_status(scene.challenge.http_status, scene.blocked);
        case sync_failure::address_busy:
            return http_status(503, scene.blocked);
    }
    throw std::logic_error("sync_failure out of range");
}

// "sync: message rejected": a message that never reached a session.
void log_rejected(sync_failure failure, const failure_scene& scene, int status) {
    if (failure == sync_failure::oversized) {
        common::log_event(spdlog::level::info, "sync: message rejected",
                          {{"status", status},
                           {"reason", "message larger than the tenant's max_message_bytes"},
                           {"bytes", scene.bytes}});
        return;
    }
    const std::string reason = failure == sync_failure::malformed        ? scene.detail.value_or("")
                               : failure == sync_failure::unknown_tenant ? "unknown tenant"
                                                                         : "unsupported SyncML version";
    common::log_event(spdlog::level::info, "sync: message rejected", {{"status", status}, {"reason", reason}});
}

void log_failure(sync_failure failure, const failure_scene& scene, const failure_rule& rule) {
    const auto& tenant = scene.tenant ? scene.tenant->name : std::string();
    const auto& device = scene.header ? scene.header->source.loc_uri : std::string();
    const auto& session = scene.header ? scene.header->session_id : std::string();
    switch (failure) {
        case sync_failure::busy:
            common::log_event(spdlog::level::info, "sync: busy, a newer session of the device took over",
                              {{"tenant", tenant}, {"device", device}, {"session", session}});
            return;
        case sync_failure::too_many_devices:
            common::log_event(spdlog::level::info, "sync: refused, the user has the tenant's maximum of devices",
                              {{"tenant", tenant},
                               {"user", credential_user(*scene.header).value_or("")},
                               {"device", device},
                               {"limit", scene.tenant->settings.max_devices_per_user}});
            return;
        case sync_failure::too_many_sessions:
            common::log_event(spdlog::level::info, "sync: refused, the tenant has its maximum of live sessions",
                              {{"tenant", tenant},
                               {"device", device},
                               {"session", session},
                               {"limit", scene.tenant->settings.max_sessions}});
            return;
        case sync_failure::database_unavailable:
            if (scene.detail)
                common::log_event(spdlog::level::warn, "sync: database error", {{"error", *scene.detail}});
            return;
        case sync_failure::login_throttled:
            return;  // the throttle's refusal is the challenge the engine answered
        case sync_failure::address_busy:
            return;  // a flood's every message: counted (syncml_limit_refusals_total), not logged
        default:
            log_rejected(failure, scene, rule.syncml_status != 0 ? rule.syncml_status : rule.http_status);
    }
}

void count_limit(sync_failure failure, engine_metrics* metrics) {
    if (!metrics) return;
    if (failure == sync_failure::oversized) metrics->limit_refused(engine_metrics::limit::message_bytes);
    if (failure == sync_failure::too_many_devices) metrics->limit_refused(engine_metrics::limit::devices_per_user);
    if (failure == sync_failure::too_many_sessions) metrics->limit_refused(engine_metrics::limit::sessions);
    if (failure == sync_failure::address_busy) metrics->limit_refused(engine_metrics::limit::client_address);
}

}  // namespace

sync_response syncml_reply(const message& reply, wire_encoding encoding, engine_metrics* metrics) {
    if (metrics) metrics->statuses_sent(reply);
    sync_response r;
    r.content_type = content_type(encoding);
    r.body = encode(reply, encoding);
    return r;
}

failure_scene scene_of(const message& in, const persistence::tenant_info* tenant) {
    failure_scene scene;
    scene.header = &in.header;
    scene.version = in.version;
    scene.encoding = in.encoding;
    scene.tenant = tenant;
    return scene;
}

sync_response failure_reply(sync_failure failure, failure_scene scene, engine_metrics* metrics) {
    const auto rule = rule_of(failure, scene);
    count_limit(failure, metrics);
    log_failure(failure, scene, rule);
    sync_response reply;
    if (rule.syncml_status != 0) {
        reply = syncml_reply(error_reply(*scene.header, scene.version, scene.encoding, rule.syncml_status),
                             scene.encoding, metrics);
    } else if (failure == sync_failure::login_throttled) {
        reply = std::move(scene.challenge);
    } else {
        reply.http_status = rule.http_status;
    }
    if (rule.retry_after.count() > 0) reply.headers.push_back(common::retry_after(rule.retry_after));
    return reply;
}

engine_metrics::message_result message_result_of(sync_failure failure) {
    switch (failure) {
        case sync_failure::malformed:
        case sync_failure::unsupported_version:
            return engine_metrics::message_result::bad_request;
        case sync_failure::login_throttled:
            return engine_metrics::message_result::auth_failed;
        case sync_failure::too_many_devices:
            return engine_metrics::message_result::ok;  // counted as a limit (syncml_limit_refusals_total)
        default:
            return engine_metrics::message_result::unavailable;
    }
}

}  // namespace syncml::session
