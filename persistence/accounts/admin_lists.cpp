#include "persistence/accounts/admin_lists.hpp"

#include "persistence/accounts/detail/account_lookup.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/detail/iso_utc.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {
namespace {

constexpr const char* k_users_page =
    "SELECT user_id, name, disabled_at IS NOT NULL AS disabled FROM users "
    "WHERE tenant_id = $1 AND name > $2 ORDER BY name LIMIT $3";

// The stores are joined by the whole key of their device (tenant, user, device), so that a distributed schema finds
// them on the device's shard.
constexpr const char* k_devices_page =
    "SELECT d.device_id, u.name AS user_name, d.device_uri, " SYNCML_ISO_UTC("d.first_seen") " AS first_seen, "
    SYNCML_ISO_UTC("d.last_seen") " AS last_seen, " SYNCML_ISO_UTC("max(s.last_sync_at)") " AS last_sync, "
    "count(s.device_store_id) AS stores, coalesce(bool_or(s.needs_slow_sync), false) AS needs_slow_sync "
    "FROM devices d JOIN users u ON u.tenant_id = d.tenant_id AND u.user_id = d.user_id "
    "LEFT JOIN device_stores s ON s.tenant_id = d.tenant_id AND s.user_id = d.user_id AND s.device_id = d.device_id "
    "WHERE d.tenant_id = $1 AND d.device_id > $2 "
    "GROUP BY d.device_id, u.name, d.device_uri, d.first_seen, d.last_seen ORDER BY d.device_id LIMIT $3";

std::optional<std::string> optional_text(const pqxx::field& field) {
    if (field.is_null()) return std::nullopt;
    return field.as<std::string>();
}

}  // namespace

std::vector<user_info> list_users_page(database& db, std::string_view tenant, std::string_view after, int limit) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = detail::require_tenant_id(tx, tenant);
        std::vector<user_info> users;
        for (const auto& row : tx.exec_params(k_users_page, tenant_id, std::string(after), limit)) {
            users.push_back({.tenant_id = tenant_id,
                             .id = row["user_id"].as<std::int64_t>(),
                             .name = row["name"].as<std::string>(),
                             .disabled = row["disabled"].as<bool>()});
        }
        return users;
    });
}

std::vector<tenant_device> list_tenant_devices(database& db, std::string_view tenant, std::int64_t after_id,
                                               int limit) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = detail::require_tenant_id(tx, tenant);
        std::vector<tenant_device> devices;
        for (const auto& row : tx.exec_params(k_devices_page, tenant_id, after_id, limit)) {
            devices.push_back({.id = row["device_id"].as<std::int64_t>(),
                               .user = row["user_name"].as<std::string>(),
                               .device_uri = row["device_uri"].as<std::string>(),
                               .first_seen = row["first_seen"].as<std::string>(),
                               .last_seen = optional_text(row["last_seen"]),
                               .last_sync = optional_text(row["last_sync"]),
                               .stores = row["stores"].as<int>(),
                               .needs_slow_sync = row["needs_slow_sync"].as<bool>()});
        }
        return devices;
    });
}

}  // namespace syncml::persistence
