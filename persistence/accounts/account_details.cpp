#include "persistence/accounts/account_details.hpp"

#include "persistence/accounts/detail/account_lookup.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/detail/iso_utc.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {
namespace {

using detail::require_tenant_id;

// The counts are not correlated with the tenants row: a distributed database counts its users' rows across shards
// only from a plain tenant id ($2), not from a reference table's column.
constexpr const char* k_tenant_figures =
    "SELECT " SYNCML_ISO_UTC("t.created_at") " AS created_at, "
    "(SELECT count(*) FROM users u WHERE u.tenant_id = $2) AS users, "
    "(SELECT count(*) FROM users u WHERE u.tenant_id = $2 AND u.disabled_at IS NOT NULL) AS disabled, "
    "(SELECT count(*) FROM devices d WHERE d.tenant_id = $2) AS devices, "
    "(SELECT count(*) FROM sessions s WHERE s.tenant_id = $2 AND s.expires_at > now() "
    "AND s.finished_at IS NULL) AS sessions "
    "FROM tenants t WHERE t.name = $1 AND t.tenant_id = $2";

// Statements on a user's rows name the user's key ($1 tenant id, $2 user name, migration 0023), so that on a
// distributed database each runs on the user's shard.
#define SYNCML_USER_KEY "syncml_user_key($1, $2)"

constexpr const char* k_user_row =
    "SELECT u.user_id, " SYNCML_ISO_UTC("u.created_at") " AS created_at, "
    SYNCML_ISO_UTC("u.disabled_at") " AS disabled_at, "
    "(SELECT count(*) FROM devices d WHERE d.tenant_id = $1 AND d.user_id = " SYNCML_USER_KEY ") AS devices, "
    "(SELECT " SYNCML_ISO_UTC("max(s.last_sync_at)") " FROM device_stores s WHERE s.tenant_id = $1 "
    "AND s.user_id = " SYNCML_USER_KEY ") AS last_sync, "
    "(SELECT t.max_user_bytes FROM tenants t WHERE t.tenant_id = $1) AS max_user_bytes "
    "FROM users u WHERE u.tenant_id = $1 AND u.user_id = " SYNCML_USER_KEY " AND u.name = $2";

// $2 the user's id.
constexpr const char* k_datastore_usage =
    "SELECT ds.name, ds.kind, ds.modseq, ds.stored_bytes, "
    "count(i.item_id) FILTER (WHERE NOT i.deleted) AS items, count(i.item_id) FILTER (WHERE i.deleted) AS tombstones "
    "FROM datastores ds LEFT JOIN items i ON i.tenant_id = $1 AND i.user_id = $2 AND i.datastore_id = ds.datastore_id "
    "WHERE ds.tenant_id = $1 AND ds.user_id = $2 GROUP BY ds.datastore_id, ds.name, ds.kind, ds.modseq, "
    "ds.stored_bytes "
    "ORDER BY ds.name";

// $3 the device id; no row for an unknown user or device.
constexpr const char* k_device_row =
    "SELECT u.user_id, d.device_id, " SYNCML_ISO_UTC("d.first_seen") " AS first_seen, "
    SYNCML_ISO_UTC("d.last_seen") " AS last_seen, " SYNCML_ISO_UTC("d.address_continued_at") " AS address_continued, "
    "d.devinf IS NOT NULL AS has_devinf "
    "FROM users u LEFT JOIN devices d ON d.tenant_id = $1 AND d.user_id = " SYNCML_USER_KEY " AND d.device_uri = $3 "
    "WHERE u.tenant_id = $1 AND u.user_id = " SYNCML_USER_KEY " AND u.name = $2";

#undef SYNCML_USER_KEY

// $2 the user's id, $3 the device's.
constexpr const char* k_device_stores =
    "SELECT ds.name AS datastore, s.remote_uri, "
    "nullif(concat_ws(' ', s.content_type, s.content_version), '') AS format, "
    SYNCML_ISO_UTC("s.last_sync_at") " AS last_sync, s.needs_slow_sync, "
    "(SELECT count(*) FROM mappings m JOIN items i ON i.tenant_id = $1 AND i.user_id = $2 AND i.item_id = m.item_id "
    "WHERE m.tenant_id = $1 AND m.user_id = $2 AND m.device_store_id = s.device_store_id AND NOT i.deleted) "
    "AS mapped FROM device_stores s JOIN datastores ds ON ds.tenant_id = $1 AND ds.user_id = $2 "
    "AND ds.datastore_id = s.datastore_id WHERE s.tenant_id = $1 AND s.user_id = $2 AND s.device_id = $3 "
    "ORDER BY ds.name, s.remote_uri";

std::optional<std::string> optional_text(const pqxx::field& field) {
    if (field.is_null()) return std::nullopt;
    return field.as<std::string>();
}

[[noreturn]] void throw_no_user(std::string_view tenant, std::string_view user) {
    throw not_found("no user '" + std::string(user) + "' in tenant '" + std::string(tenant) + "'");
}

}  // namespace

tenant_details show_tenant(database& db, std::string_view tenant) {
    auto info = find_tenant(db, tenant);
    if (!info) throw not_found("no tenant named '" + std::string(tenant) + "'");
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto rows = tx.exec_params(k_tenant_figures, std::string(tenant), info->id);
        if (rows.empty()) throw not_found("no tenant named '" + std::string(tenant) + "'");
        const auto& row = rows[0];
        return tenant_details{.tenant = *info,
                              .created_at = row["created_at"].as<std::string>(),
                              .users = row["users"].as<std::int64_t>(),
                              .disabled_users = row["disabled"].as<std::int64_t>(),
                              .devices = row["devices"].as<std::int64_t>(),
                              .live_sessions = row["sessions"].as<std::int64_t>()};
    });
}

user_details show_user(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto rows = tx.exec_params(k_user_row, tenant_id, std::string(user));
        if (rows.empty()) throw_no_user(tenant, user);
        const auto& row = rows[0];
        user_details details{.name = std::string(user),
                             .created_at = row["created_at"].as<std::string>(),
                             .disabled_at = optional_text(row["disabled_at"]),
                             .datastores = {},
                             .devices = row["devices"].as<std::int64_t>(),
                             .last_sync = optional_text(row["last_sync"]),
                             .stored_bytes = 0,
                             .max_user_bytes = row["max_user_bytes"].as<std::int64_t>()};
        for (const auto& store : tx.exec_params(k_datastore_usage, tenant_id, row["user_id"].as<std::int64_t>())) {
            details.datastores.push_back({.name = store["name"].as<std::string>(),
                                          .kind = store["kind"].as<std::string>(),
                                          .items = store["items"].as<std::int64_t>(),
                                          .tombstones = store["tombstones"].as<std::int64_t>(),
                                          .modseq = store["modseq"].as<std::int64_t>(),
                                          .stored_bytes = store["stored_bytes"].as<std::int64_t>()});
            details.stored_bytes += details.datastores.back().stored_bytes;
        }
        return details;
    });
}

device_details show_device(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto rows = tx.exec_params(k_device_row, tenant_id, std::string(user), std::string(device_uri));
        if (rows.empty()) throw_no_user(tenant, user);
        const auto& row = rows[0];
        if (row["device_id"].is_null()) {
            throw not_found("user '" + std::string(user) + "' has no device '" + std::string(device_uri) + "'");
        }
        device_details details{.device_uri = std::string(device_uri),
                               .user = std::string(user),
                               .first_seen = row["first_seen"].as<std::string>(),
                               .last_seen = optional_text(row["last_seen"]),
                               .address_continued = optional_text(row["address_continued"]),
                               .has_devinf = row["has_devinf"].as<bool>(),
                               .stores = {}};
        for (const auto& store : tx.exec_params(k_device_stores, tenant_id, row["user_id"].as<std::int64_t>(),
                                                row["device_id"].as<std::int64_t>())) {
            details.stores.push_back({.datastore = store["datastore"].as<std::string>(),
                                      .remote_uri = store["remote_uri"].as<std::string>(),
                                      .format = optional_text(store["format"]),
                                      .last_sync = optional_text(store["last_sync"]),
                                      .needs_slow_sync = store["needs_slow_sync"].as<bool>(),
                                      .mapped_items = store["mapped"].as<std::int64_t>()});
        }
        return details;
    });
}

}  // namespace syncml::persistence
