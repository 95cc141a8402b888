#include "persistence/push/push_settings.hpp"

#include <stdexcept>

#include "common/vocabulary/datastore_kind.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/detail/iso_utc.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/pg_arrays.hpp"

namespace syncml::persistence {
namespace {

struct device_key {
    std::int64_t tenant = 0;
    std::int64_t user = 0;
    std::int64_t device = 0;
};

// The user's device; not_found names what is missing. Found by the user's key, on the user's shard of a distributed
// database (as sync_window.cpp).
device_key find_device(pqxx::work& tx, std::string_view tenant, std::string_view user, std::string_view device_uri) {
    const auto tenants = tx.exec_params("SELECT tenant_id FROM tenants WHERE name = $1", std::string(tenant));
    const auto rows = tenants.empty()
                          ? pqxx::result()
                          : tx.exec_params(
                                "SELECT d.tenant_id, d.user_id, d.device_id FROM devices d JOIN users u "
                                "ON u.tenant_id = d.tenant_id AND u.user_id = d.user_id "
                                "WHERE d.tenant_id = $1 AND d.user_id = syncml_user_key($1, $2) "
                                "AND u.user_id = syncml_user_key($1, $2) AND u.name = $2 AND d.device_uri = $3",
                                tenants[0][0].as<std::int64_t>(), std::string(user), std::string(device_uri));
    if (rows.empty()) {
        throw not_found("no device '" + std::string(device_uri) + "' of user '" + std::string(user) + "' in tenant '" +
                        std::string(tenant) + "'");
    }
    return {rows[0][0].as<std::int64_t>(), rows[0][1].as<std::int64_t>(), rows[0][2].as<std::int64_t>()};
}

bool valid_clock_time(const std::string& text) {
    if (text.size() != 5 || text[2] != ':') return false;
    for (int i : {0, 1, 3, 4}) {
        if (text[i] < '0' || text[i] > '9') return false;
    }
    return std::stoi(text.substr(0, 2)) < 24 && std::stoi(text.substr(3, 2)) < 60;
}

void validate(pqxx::work& tx, const push_settings& s) {
    if (s.phone_number && !valid_phone_number(*s.phone_number)) {
        throw std::invalid_argument("phone number '" + *s.phone_number +
                                    "' is not E.164: '+', the country code and the number, 8 to 16 characters");
    }
    for (const auto& kind : s.datastores) {
        if (!common::parse_datastore_name(kind)) {
            throw std::invalid_argument("unknown datastore '" + kind + "': contacts, calendar, tasks or memos");
        }
    }
    if (s.quiet_start.has_value() != s.quiet_end.has_value()) {
        throw std::invalid_argument("quiet hours need a start and an end");
    }
    for (const auto* t : {&s.quiet_start, &s.quiet_end}) {
        if (*t && !valid_clock_time(**t)) throw std::invalid_argument("quiet hours are HH:MM, not '" + **t + "'");
    }
    if (tx.exec_params("SELECT 1 FROM pg_timezone_names WHERE name = $1", s.time_zone).empty()) {
        throw std::invalid_argument("unknown time zone '" + s.time_zone + "'");
    }
}

std::optional<std::string> optional_text(const pqxx::field& field) {
    if (field.is_null()) return std::nullopt;
    return field.as<std::string>();
}

}  // namespace

bool valid_phone_number(std::string_view text) {
    if (text.size() < 8 || text.size() > 16 || text[0] != '+' || text[1] == '0') return false;
    for (std::size_t i = 1; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
    }
    return true;
}

void set_device_push(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri,
                     const push_settings& s) {
    in_transaction(db, [&](pqxx::work& tx) {
        validate(tx, s);
        const auto key = find_device(tx, tenant, user, device_uri);
        tx.exec_params0(
            "INSERT INTO push_devices (tenant_id, user_id, device_id, phone_number, server_password, server_nonce, "
            "datastores, quiet_start, quiet_end, time_zone) VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8::time, "
            "$9::time, $10) ON CONFLICT (tenant_id, user_id, device_id) DO UPDATE SET "
            "phone_number = EXCLUDED.phone_number, server_password = EXCLUDED.server_password, "
            "server_nonce = EXCLUDED.server_nonce, datastores = EXCLUDED.datastores, "
            "quiet_start = EXCLUDED.quiet_start, quiet_end = EXCLUDED.quiet_end, time_zone = EXCLUDED.time_zone",
            key.tenant, key.user, key.device, s.phone_number, s.server_password, s.server_nonce,
            text_array(s.datastores), s.quiet_start, s.quiet_end, s.time_zone);
    });
}

bool clear_device_push(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto key = find_device(tx, tenant, user, device_uri);
        return !tx.exec_params(
                      "DELETE FROM push_devices WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3 "
                      "RETURNING 1",
                      key.tenant, key.user, key.device)
                    .empty();
    });
}

std::optional<push_status> device_push(database& db, std::string_view tenant, std::string_view user,
                                       std::string_view device_uri) {
    return in_transaction(db, [&](pqxx::work& tx) -> std::optional<push_status> {
        const auto key = find_device(tx, tenant, user, device_uri);
        const auto rows = tx.exec_params(
            "SELECT p.phone_number, p.server_password, p.server_nonce, array_to_string(p.datastores, ',') AS stores, "
            "to_char(p.quiet_start, 'HH24:MI') AS quiet_start, to_char(p.quiet_end, 'HH24:MI') AS quiet_end, "
            "p.time_zone, o.pending_since IS NOT NULL AS pending, coalesce(o.changes, 0) AS changes, "
            "CASE WHEN o.pending_since IS NOT NULL THEN " SYNCML_ISO_UTC("o.due_at") " END AS due_at, "
            SYNCML_ISO_UTC("o.notified_at") " AS notified_at, o.last_result, coalesce(o.attempts, 0) AS attempts "
            "FROM push_devices p LEFT JOIN push_outbox o ON o.tenant_id = p.tenant_id AND o.user_id = p.user_id "
            "AND o.device_id = p.device_id WHERE p.tenant_id = $1 AND p.user_id = $2 AND p.device_id = $3",
            key.tenant, key.user, key.device);
        if (rows.empty()) return std::nullopt;
        const auto& row = rows[0];
        push_status status;
        status.settings.phone_number = optional_text(row["phone_number"]);
        status.settings.server_password = row["server_password"].as<std::string>();
        status.settings.server_nonce = row["server_nonce"].as<std::string>();
        const auto stores = row["stores"].as<std::string>();
        for (std::size_t at = 0; !stores.empty() && at <= stores.size();) {
            const auto comma = std::min(stores.find(',', at), stores.size());
            status.settings.datastores.push_back(stores.substr(at, comma - at));
            at = comma + 1;
        }
        status.settings.quiet_start = optional_text(row["quiet_start"]);
        status.settings.quiet_end = optional_text(row["quiet_end"]);
        status.settings.time_zone = row["time_zone"].as<std::string>();
        status.pending = row["pending"].as<bool>();
        status.changes = row["changes"].as<std::int64_t>();
        status.due_at = optional_text(row["due_at"]);
        status.notified_at = optional_text(row["notified_at"]);
        status.last_result = optional_text(row["last_result"]);
        status.attempts = row["attempts"].as<int>();
        return status;
    });
}

}  // namespace syncml::persistence
