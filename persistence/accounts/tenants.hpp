#pragma once
// Tenants as the admin CLI and the protocol engine see them: their settings and the names they are stored by.
// Every function runs one transaction on the given connection. Errors: not_found for an unknown tenant,
// already_exists for a duplicate name, std::invalid_argument for a malformed name or settings, db_error for
// database failures.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/vocabulary/conflict_policy.hpp"
#include "persistence/sync/sync_window.hpp"

namespace syncml::persistence {

class database;

// The tenant that `POST /sync` (no tenant in the path) uses; created by the first migration.
inline constexpr std::string_view default_tenant = "default";

// Stored as "merge", "server_wins", ... (common/vocabulary/conflict_policy.hpp).
using common::conflict_policy;
using common::parse_conflict_policy;
using common::to_string;

// How a message without credentials proves it may continue a session: by the signed RespURI token only (the default:
// OMA DS requires clients to use the RespURI), or also by coming from the address that authenticated the session,
// shortly after its last message: an opt-in for phones that ignore RespURI, which gives up the session to anyone
// behind the same public address (README, "Sessions"). Stored as "token" and "token-or-address".
enum class session_binding { token, token_or_address };
std::string_view to_string(session_binding binding);
std::optional<session_binding> parse_session_binding(std::string_view text);

struct tenant_settings {
    conflict_policy on_conflict = conflict_policy::merge;
    session_binding binding = session_binding::token;
    bool auth_basic = true;
    bool auth_md5 = true;
    bool dav = false;        // CardDAV and CalDAV under /dav/<tenant>/ with the same accounts
    int max_sessions = 100;  // concurrent sync sessions of the tenant
    int max_devices_per_user = 20;
    int max_items_per_datastore = 100000;
    int max_message_bytes = 1024 * 1024;
    int max_object_bytes = 16 * 1024 * 1024;
    // The bytes of a user's live items, all datastores together (0: no quota): a write that would grow them beyond it
    // is refused (persistence/sync/storage_quota.hpp). 1 GiB is far above what a person's contacts and calendars
    // take (20,000 contacts with a 50 KB photo each), and keeps one account from filling the database of all tenants.
    std::int64_t max_user_bytes = std::int64_t{1} << 30;
    // Deleted items are kept this long (for devices that have not synced since), then purged by the janitor.
    int tombstone_retention_days = 90;
    sync_window window;  // what its devices get at most (a device's own window replaces it)
    // Server-alerted sync (issue 37): whether the tenant's devices that opted in get notifications, and how many
    // notifications the tenant may send a day (UTC; 0: no budget): SMS cost money.
    bool push = false;
    int push_daily_budget = 1000;
};

struct tenant_info {
    std::int64_t id = 0;
    std::string name;  // [A-Za-z0-9][A-Za-z0-9._-]{0,62}
    tenant_settings settings;
};

bool valid_tenant_name(std::string_view name);

tenant_info add_tenant(database& db, std::string_view name, const tenant_settings& settings = {});
std::vector<tenant_info> list_tenants(database& db);
std::optional<tenant_info> find_tenant(database& db, std::string_view name);
// Replaces the tenant's settings; not_found for an unknown tenant. Turning auth_md5 off drops the users' md5
// secrets; turning it on stores none: see credential_store.hpp.
tenant_info update_tenant(database& db, std::string_view name, const tenant_settings& settings);
// Changes whenever a tenant's settings change (update_tenant bumps its settings_version) or tenants are added or
// deleted: what a cache of tenant settings compares to notice a change made on another instance or by the CLI.
std::string tenant_settings_fingerprint(database& db);
// Deletes the tenant and everything it owns; one that still has users only with `with_users` (else
// std::invalid_argument naming how many).
void delete_tenant(database& db, std::string_view name, bool with_users = false);

}  // namespace syncml::persistence
