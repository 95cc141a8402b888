#pragma once
// Per-tenant figures for the operator's metrics (src/app/tenant_metrics.hpp): counted over all tenants in a few
// grouped statements, one round of them per call, so the cost does not grow with the number of tenants' queries.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace syncml::persistence {

class database;

struct tenant_figures {
    std::string tenant;
    std::int64_t users = 0;
    std::int64_t devices = 0;
    // Devices that started a SyncML session in the last hour (devices.last_seen is set at every session's start;
    // the session rows themselves are deleted 30 minutes after their last message, so they cannot be counted).
    std::int64_t active_devices = 0;
    std::int64_t stored_bytes = 0;  // the users' live items (datastores.stored_bytes, what the quota counts)
    // Live sessions as the tenant's session limit counts them (persistence/sync/tenant_sessions.cpp), and the limit.
    std::int64_t live_sessions = 0;
    std::int64_t max_sessions = 0;
    // Users whose stored bytes reached 90% of the tenant's quota (none without a quota).
    std::int64_t users_near_quota = 0;
};

// One entry per tenant, in no particular order. session_max_age as the server's (a session older is not live).
// Throws db_error.
std::vector<tenant_figures> read_tenant_figures(database& db, std::chrono::seconds session_max_age);

}  // namespace syncml::persistence
