#include "persistence/sync/sync_window.hpp"

#include <stdexcept>

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {

namespace {

// The device row of the user, locked for the update; not_found names what is missing. The tenant's id comes first,
// so that the device is found by the user's key, on the user's shard of a distributed database.
pqxx::row device_row(pqxx::work& tx, std::string_view tenant, std::string_view user, std::string_view device_uri,
                     const char* columns) {
    const auto tenants = tx.exec_params("SELECT tenant_id FROM tenants WHERE name = $1", std::string(tenant));
    const auto rows =
        tenants.empty()
            ? pqxx::result()
            : tx.exec_params(std::string("SELECT ") + columns +
                                 " FROM devices d JOIN users u ON u.tenant_id = d.tenant_id AND u.user_id = d.user_id "
                                 "WHERE d.tenant_id = $1 AND d.user_id = syncml_user_key($1, $2) "
                                 "AND u.user_id = syncml_user_key($1, $2) AND u.name = $2 AND d.device_uri = $3 "
                                 "FOR UPDATE OF d",
                             tenants[0][0].as<std::int64_t>(), std::string(user), std::string(device_uri));
    if (rows.empty()) {
        throw not_found("no device '" + std::string(device_uri) + "' of user '" + std::string(user) + "' in tenant '" +
                        std::string(tenant) + "'");
    }
    return rows[0];
}

}  // namespace

void validate_window(const sync_window& window) {
    if (window.past_days < 0 || window.future_days < 0 || window.max_items < 0 || window.max_photo_bytes < 0) {
        throw std::invalid_argument("sync window values must be zero (no limit) or positive");
    }
}

std::string describe_window(const sync_window& w, const std::string& separator) {
    return "past-days=" + std::to_string(w.past_days) + separator + "future-days=" + std::to_string(w.future_days) +
           separator + "max-items=" + std::to_string(w.max_items) + separator +
           "max-photo-bytes=" + std::to_string(w.max_photo_bytes);
}

std::optional<sync_window> device_window(database& db, std::string_view tenant, std::string_view user,
                                         std::string_view device_uri) {
    return in_transaction(db, [&](pqxx::work& tx) -> std::optional<sync_window> {
        const auto row = device_row(tx, tenant, user, device_uri,
                                    "d.window_past_days, d.window_future_days, d.window_max_items, "
                                    "d.window_max_photo_bytes");
        if (row[0].is_null()) return std::nullopt;
        return sync_window{row[0].as<int>(), row[1].as<int>(), row[2].as<int>(), row[3].as<int>()};
    });
}

void set_device_window(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri,
                       const std::optional<sync_window>& window) {
    if (window) validate_window(*window);
    in_transaction(db, [&](pqxx::work& tx) {
        const auto row = device_row(tx, tenant, user, device_uri, "d.tenant_id, d.device_id, d.user_id");
        const auto value = [&](int sync_window::*field) -> std::optional<int> {
            if (!window) return std::nullopt;
            return (*window).*field;
        };
        tx.exec_params0(
            "UPDATE devices SET window_past_days = $3, window_future_days = $4, window_max_items = $5, "
            "window_max_photo_bytes = $6 WHERE tenant_id = $1 AND user_id = $7 AND device_id = $2",
            row[0].as<std::int64_t>(), row[1].as<std::int64_t>(), value(&sync_window::past_days),
            value(&sync_window::future_days), value(&sync_window::max_items), value(&sync_window::max_photo_bytes),
            row[2].as<std::int64_t>());
    });
}

}  // namespace syncml::persistence
