#pragma once
// The tenant's live sessions, counted outside any message's transaction: on a distributed schema the count spans
// the shards of all the tenant's users, which a message's transaction must not (persistence/DISTRIBUTED.md).

#include <chrono>
#include <cstdint>

namespace syncml::persistence {

class database;

// Live sessions of the tenant as migrations/0013_tenant_session_limit.sql counts them (unfinished, not idle for 10
// minutes, younger than `max_age`), counted up to `limit` at most. Throws db_error.
std::int64_t count_live_sessions(database& db, std::int64_t tenant, std::int64_t limit, std::chrono::seconds max_age);

}  // namespace syncml::persistence
