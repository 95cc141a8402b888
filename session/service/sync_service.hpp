#pragma once
// The protocol engine behind the HTTP front end: decodes a message, finds and locks its session, runs
// the engine in ONE database transaction, stores the new state and the encoded reply (for resends)
// and answers in the request's encoding. Keeps nothing about sessions in memory.
//
// One device runs one SyncML session at a time. A new session of a device (another SessionID) takes over:
// a client that was killed or gave up restarts at once, never blocked by its abandoned session. The older
// session is superseded once the new one authenticated: its further messages are refused (busy, 101) instead
// of interleaving with the new session's changes. The state is the sessions table itself (shared by every
// server instance); a per-device advisory lock taken first in each message's transaction orders the messages
// of all sessions of the device, so the superseded check and everything the message does see the device as
// the previous message left it.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "auth/login_guard.hpp"
#include "auth/throttle_source.hpp"
#include "persistence/accounts/auth_throttle.hpp"
#include "session/service/activity_sink.hpp"
#include "session/service/device_trace.hpp"
#include "session/service/session_token.hpp"
#include "session/service/sync_handler.hpp"

namespace syncml::session {

struct engine_metrics;

struct service_settings {
    std::int64_t max_msg_size = 1024 * 1024;  // what we accept and announce
    std::int64_t max_obj_size = 16 * 1024 * 1024;
    persistence::throttle_settings auth_throttle;
    // Where each message's login is counted; empty: the database's throttle with auth_throttle's settings.
    auth::throttle_source throttle;
    std::chrono::seconds credential_cache_ttl{60};  // 0: check every basic-auth password with PBKDF2
    std::chrono::seconds tenant_cache_ttl{60};      // 0: look the tenant up for every message
    // A message without RespURI token and without valid credentials continues a session only from the address
    // that authenticated it, and only this long after the session's last message (tenant session_binding
    // token-or-address).
    std::chrono::seconds session_address_idle{300};
    std::chrono::seconds session_max_age{4 * 3600};  // absolute lifetime of a session
    trace_settings trace;                            // devices whose messages go to files (device_trace.hpp)
    // Bounds the password hashes and the failed session lookups of each client address (auth/login_guard.hpp),
    // shared with the DAV front end and the HTTP layer; null: unbounded.
    auth::login_guard* guard = nullptr;
    // Whether the schema is distributed over Citus nodes (persistence/DISTRIBUTED.md), asked per message: the front
    // end learns it when the database is first reachable, which may be after start. Empty: one database.
    std::function<bool()> distributed_schema;
    // Told what became of each message of a known tenant (the admin page's activity); null: nobody.
    activity_sink* activity = nullptr;
};

class sync_service final : public sync_handler {
  public:
    explicit sync_service(service_settings settings = {}, engine_metrics* metrics = nullptr);
    ~sync_service() override;
    sync_response handle(const sync_request& request, persistence::database& db) override;

  private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace syncml::session
