#include "session/service/throttle_settlement.hpp"

#include <spdlog/spdlog.h>

#include "auth/login.hpp"
#include "common/log/log_event.hpp"
#include "session/protocol/auth.hpp"
#include "session/service/sync_replies.hpp"

namespace syncml::session {

void settle_throttle(persistence::auth_throttle& throttle, const persistence::tenant_info& tenant, const message& in,
                     const sync_request& request, const login_outcome& login, message_report& report) {
    if (!in.header.cred) return;
    const auto& check = login.check;
    // The session the message went on in is of the user its Cred names (basic or md5, which the engine checks):
    // else the Cred was someone else's, whatever the session made of it.
    const bool own_session = report.state.user_id != 0 && login.cred_user == report.state.user_id;
    const auth::login_attempt attempt{tenant.id, credential_user(in.header).value_or(""), in.header.source.loc_uri,
                                      request.remote_addr};
    if (report.result == engine_metrics::message_result::auth_failed) {
        if (check.blocked.count() > 0) {
            failure_scene scene;
            scene.blocked = check.blocked;
            scene.challenge = std::move(report.response);
            // Counts nothing: a throttled login is no limit, and the challenge's statuses were counted when it was
            // built.
            report.response = failure_reply(sync_failure::login_throttled, std::move(scene), nullptr);
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
    } else if (own_session && login.cred_verified && report.result == engine_metrics::message_result::ok &&
               report.state.authenticated) {
        // Only a Cred that verified clears the failures: a wrong one in one's own session counts as nothing (an
        // md5 digest over an old nonce looks the same) and must not wipe guesses made elsewhere either.
        auth::record_success(throttle, check, attempt, report.state.user_id);
    }
}

}  // namespace syncml::session
