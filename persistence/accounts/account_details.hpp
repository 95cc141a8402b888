#pragma once
// What `admin tenant show`, `user show` and `device show` print: one tenant, user or device with its usage. Every
// function reads in one transaction; not_found for an unknown tenant, user or device (accounts.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "persistence/accounts/accounts.hpp"

namespace syncml::persistence {

class database;

struct tenant_details {
    tenant_info tenant;
    std::string created_at;  // ISO 8601 UTC, like every timestamp below
    std::int64_t users = 0;
    std::int64_t disabled_users = 0;
    std::int64_t devices = 0;
    std::int64_t live_sessions = 0;  // not expired, not finished
};

struct datastore_usage {
    std::string name;
    std::string kind;
    std::int64_t items = 0;       // live items
    std::int64_t tombstones = 0;  // deleted items kept for devices that have not synced since
    std::int64_t modseq = 0;
    std::int64_t stored_bytes = 0;  // of its live items (datastores.stored_bytes)
};

struct user_details {
    std::string name;
    std::string created_at;
    std::optional<std::string> disabled_at;
    std::vector<datastore_usage> datastores;
    std::int64_t devices = 0;
    std::optional<std::string> last_sync;  // the latest completed sync of any of its devices' stores
    std::int64_t stored_bytes = 0;         // of all its live items: what the tenant's quota counts
    std::int64_t max_user_bytes = 0;       // the tenant's quota (0: none)
};

struct device_store_details {
    std::string datastore;
    std::string remote_uri;
    std::optional<std::string> format;  // content type and version the device asked for, e.g. "text/x-vcard 2.1"
    std::optional<std::string> last_sync;
    bool needs_slow_sync = true;
    std::int64_t mapped_items = 0;
};

struct device_details {
    std::string device_uri;
    std::string user;
    std::string first_seen;
    std::optional<std::string> last_seen;
    // The last time (at most once a minute) a message of the device went on by its client address alone: it ignores
    // RespURI and needs the tenant's opt-in (README, "Sessions").
    std::optional<std::string> address_continued;
    bool has_devinf = false;
    std::vector<device_store_details> stores;
};

tenant_details show_tenant(database& db, std::string_view tenant);
user_details show_user(database& db, std::string_view tenant, std::string_view user);
device_details show_device(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri);

}  // namespace syncml::persistence
