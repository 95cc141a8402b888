#pragma once
// Tenants, users and devices as the admin CLI and the protocol engine see them. Every function runs
// one transaction on the given connection. Errors: not_found when a named tenant/user/device does
// not exist, already_exists for duplicate names, std::invalid_argument for malformed names or
// settings, db_error for database failures.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/vocabulary/conflict_policy.hpp"
#include "persistence/accounts/secret_key.hpp"
#include "persistence/sync/sync_window.hpp"

namespace syncml::persistence {

class database;

// The tenant that `POST /sync` (no tenant in the path) uses; created by the first migration.
inline constexpr std::string_view default_tenant = "default";

// Stored as "merge", "server_wins", ... (common/vocabulary/conflict_policy.hpp).
using common::conflict_policy;
using common::parse_conflict_policy;
using common::to_string;

// How a message without credentials proves it may continue a session: by the signed RespURI token only, or also
// by coming from the address that authenticated the session, shortly after its last message (for the many
// phones that ignore RespURI). Stored as "token" and "token-or-address".
enum class session_binding { token, token_or_address };
std::string_view to_string(session_binding binding);
std::optional<session_binding> parse_session_binding(std::string_view text);

struct tenant_settings {
    conflict_policy on_conflict = conflict_policy::merge;
    session_binding binding = session_binding::token_or_address;
    bool auth_basic = true;
    bool auth_md5 = true;
    bool dav = false;        // CardDAV and CalDAV under /dav/<tenant>/ with the same accounts
    int max_sessions = 100;  // concurrent sync sessions of the tenant
    int max_devices_per_user = 20;
    int max_items_per_datastore = 100000;
    int max_message_bytes = 1024 * 1024;
    int max_object_bytes = 16 * 1024 * 1024;
    // Deleted items are kept this long (for devices that have not synced since), then purged by the janitor.
    int tombstone_retention_days = 90;
    sync_window window;  // what its devices get at most (a device's own window replaces it)
};

struct tenant_info {
    std::int64_t id = 0;
    std::string name;  // [A-Za-z0-9][A-Za-z0-9._-]{0,62}
    tenant_settings settings;
};

struct user_info {
    std::int64_t tenant_id = 0;
    std::int64_t id = 0;
    std::string name;
    bool disabled = false;
};

struct device_info {
    std::int64_t id = 0;
    std::string device_uri;                // the SyncML device id (LocURI of the client)
    std::optional<std::string> last_seen;  // ISO 8601 UTC timestamp, empty if it never synced
    int stores = 0;                        // datastores this device syncs
};

bool valid_tenant_name(std::string_view name);

tenant_info add_tenant(database& db, std::string_view name, const tenant_settings& settings = {});
std::vector<tenant_info> list_tenants(database& db);
std::optional<tenant_info> find_tenant(database& db, std::string_view name);
// Replaces the tenant's settings; not_found for an unknown tenant. Turning auth_md5 off drops the users' md5
// secrets; turning it on stores none: see credential_store.hpp.
tenant_info update_tenant(database& db, std::string_view name, const tenant_settings& settings);
// Deletes the tenant and everything it owns; one that still has users only with `with_users` (else
// std::invalid_argument naming how many).
void delete_tenant(database& db, std::string_view name, bool with_users = false);

// Creates the user with its four standard datastores (contacts, calendar, tasks, memos). The md5 secret is stored
// only when the tenant has md5 auth on, sealed with md5_key (null: the database's own key; credential_store.hpp).
user_info add_user(database& db, std::string_view tenant, std::string_view user, std::string_view password,
                   const secret_key* md5_key = nullptr);
// add_user with a password hash in the stored form (is_password_hash, e.g. from a bulk import): no md5 secret, so
// md5 logins work after the user's first basic-auth login. std::invalid_argument for a malformed hash.
user_info add_user_with_hash(database& db, std::string_view tenant, std::string_view user,
                             std::string_view password_hash);
std::vector<user_info> list_users(database& db, std::string_view tenant);
std::optional<user_info> find_user(database& db, std::string_view tenant, std::string_view user);
// Deletes the user with its datastores, items and devices.
void delete_user(database& db, std::string_view tenant, std::string_view user);
// A disabled user cannot log in (it looks like an unknown user) and its sessions end; enabling lets it log in
// again with its password. not_found for an unknown tenant or user.
void set_user_disabled(database& db, std::string_view tenant, std::string_view user, bool disabled);
// New hash and md5 secret (as add_user stores it); sets credentials_changed_at, which ends the user's sessions.
void set_password(database& db, std::string_view tenant, std::string_view user, std::string_view password,
                  const secret_key* md5_key = nullptr);

// False for an unknown tenant or user, or a wrong password (never throws not_found).
bool verify_basic_password(database& db, std::string_view tenant, std::string_view user, std::string_view password);
// b64(md5(user ":" password)) as SyncML md5 auth needs it, opened with md5_key (null: the database's own key);
// nullopt for an unknown tenant or user, a tenant with md5 off, a user without a secret, or one that does not open.
std::optional<std::string> md5_secret(database& db, std::string_view tenant, std::string_view user,
                                      const secret_key* md5_key = nullptr);

std::vector<device_info> list_devices(database& db, std::string_view tenant, std::string_view user);
// Forces a slow sync at the next session of every device with this SyncML device id in the tenant:
// clears anchors and the last modseq seen, marks each device store for slow sync and ends the
// device's open sessions. Mappings stay: the slow sync re-pairs them. Returns the number of devices
// reset; throws not_found when there is none.
int reset_device(database& db, std::string_view tenant, std::string_view device_uri);
// Deletes the user's device with its datastore views, mappings and sessions; the user's items stay. The device
// is new to the server at its next sync (a slow sync). not_found when the user has no such device.
void delete_device(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri);

}  // namespace syncml::persistence
