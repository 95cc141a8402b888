#pragma once
// One message in its transaction: the session its admission opens (found and locked with the device lock in one
// round trip), the refusals the database decided, a resend, the engine run against the session's state, and the new
// state and encoded reply stored (for resends).

#include <optional>
#include <string>

#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/auth_throttle.hpp"
#include "persistence/sync/sync_store.hpp"
#include "session/engine/engine.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/engine/state.hpp"
#include "session/service/admission.hpp"
#include "session/service/session_token.hpp"
#include "session/service/sync_handler.hpp"
#include "session/service/sync_service.hpp"

namespace syncml::session {

// What one message did, for metrics, the auth throttle and the session log once the transaction ended.
struct message_report {
    sync_response response;
    engine_metrics::message_result result = engine_metrics::message_result::ok;
    bool session_done = false;
    session_state state;
    std::string device;
};

// One message and what was decided before its transaction.
struct message_run {
    const persistence::tenant_info& tenant;
    const sync_request& request;
    const message& in;
    const std::optional<account_info>& account;  // find_account's answer (login.hpp)
    const persistence::credential_check& check;
    admission admitted;
    // On a distributed schema, the tenant has its maximum of live sessions (a new one is refused).
    bool at_cap = false;
};

class message_transaction {
  public:
    // metrics: where the engine's conflicts, limit refusals and reply statuses are counted (null: nowhere).
    message_transaction(const service_settings& settings, token_secret_cache& secrets, engine_metrics* metrics)
        : settings_(settings), secrets_(secrets), metrics_(metrics) {}

    // One message in `store`'s transaction; false: roll back everything it wrote (it did not authenticate, or it only
    // gets a stored reply or a refusal).
    bool run(persistence::sync_store& store, const message_run& run, message_report& report);
    // The answer to a message that may continue no session (a challenge, statuses for its commands); also what a
    // tenant that does not exist answers, so that it looks like one whose credentials are wrong.
    message_report challenge(persistence::sync_store& store, const message_run& run);

  private:
    // A message that finds no session to continue: a challenge, and a log line with the session it asked for.
    message_report no_session(persistence::sync_store& store, const message_run& run);
    engine_context context_of(persistence::sync_store& store, const message_run& run, const session_token& session);
    bool engine_run(persistence::sync_store& store, const message_run& run, persistence::session_record& rec,
                    const std::string& digest, message_report& report);

    const service_settings& settings_;
    token_secret_cache& secrets_;
    engine_metrics* metrics_;
};

}  // namespace syncml::session
