#pragma once
// The admin page's lists, a page at a time (GET /admin/v1/tenants/{t}/users?limit=&after= and .../devices): at most
// `limit` rows after a cursor, so a tenant of many users never answers in one piece. not_found for an unknown tenant.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "persistence/accounts/users.hpp"

namespace syncml::persistence {

class database;

// The tenant's users by name, those after `after` (empty: from the first).
std::vector<user_info> list_users_page(database& db, std::string_view tenant, std::string_view after, int limit);

// A device of any of the tenant's users, with what the admin page shows of it.
struct tenant_device {
    std::int64_t id = 0;  // the cursor of the next page
    std::string user;
    std::string device_uri;
    std::string first_seen;                // ISO 8601 UTC, like the others
    std::optional<std::string> last_seen;  // its last message
    std::optional<std::string> last_sync;  // the latest completed sync of any of its stores
    int stores = 0;
    bool needs_slow_sync = false;  // a store of it will slow-sync next (new, or reset)
};

// The tenant's devices by id, those with an id above `after_id`.
std::vector<tenant_device> list_tenant_devices(database& db, std::string_view tenant, std::int64_t after_id, int limit);

}  // namespace syncml::persistence
