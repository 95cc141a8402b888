#pragma once
// What a message needs around its transaction on a distributed schema (persistence/DISTRIBUTED.md), where a
// statement must not span the shards of the tenant's users: the user whose shard a session without token or
// credentials is on, the session start recorded before the transaction of a message with valid credentials, and the
// tenant's session cap counted outside. On one database each is a no-op; the session function does all in one.

#include <cstdint>

#include "persistence/accounts/accounts.hpp"
#include "session/protocol/message.hpp"
#include "session/service/sync_handler.hpp"
#include "session/service/sync_service.hpp"
#include "session/service/tenant_session_gauge.hpp"

namespace syncml::persistence {
class database;
}

namespace syncml::session {

class distributed_sessions {
  public:
    // `settings` outlives this (the topology is asked per message: it becomes known when the database is reachable).
    explicit distributed_sessions(const service_settings& settings) : settings_(settings) {}

    // For a message without valid token or credentials that may continue a session by its address: the recorded
    // session starts of its device and SessionID at its address name the user whose shard the session is on, or
    // nobody while another user's start of the device there is recent (persistence/sync/session_routes.hpp); 0 when
    // there is none or nothing to look for.
    std::int64_t route_user(persistence::database& db, const persistence::tenant_info& tenant,
                            const sync_request& request, const message& in) const;

    // Before the transaction of a message with valid credentials, whatever the tenant's binding (it may change while
    // sessions live): its user starts or goes on with the device's session of its SessionID from the request's
    // address (outside the message's
    // transaction, which stays on the user's shard). Recorded first, so that a message without token or credentials
    // can never be routed to another user's session of the same device while this one may live; false (after a log
    // line) when that failed: the message then gets a retryable error.
    bool record_start(persistence::database& db, const persistence::tenant_info& tenant, const sync_request& request,
                      const message& in, std::int64_t user) const;

    // The tenant has its maximum of live sessions by a count outside the message's transaction (tenant_session_gauge
    // .hpp), applied to the sessions that start; on one database the session function counts exactly.
    bool beyond_session_cap(persistence::database& db, const persistence::tenant_info& tenant);

  private:
    bool in_use() const { return settings_.distributed_schema && settings_.distributed_schema(); }
    // Whether this tenant's sessions may go on by address, which on a distributed schema needs a session route.
    bool routes_sessions(const persistence::tenant_info& tenant) const;

    const service_settings& settings_;
    tenant_session_gauge live_sessions_;
};

}  // namespace syncml::session
