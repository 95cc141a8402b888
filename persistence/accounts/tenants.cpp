#include "persistence/accounts/tenants.hpp"

#include <algorithm>
#include <stdexcept>

#include "persistence/pg/database.hpp"
#include "persistence/pg/detail/autocommit.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {

namespace {

constexpr const char* k_tenant_columns =
    "tenant_id, name, conflict_policy, auth_basic, auth_md5, max_sessions, max_devices_per_user, "
    "max_items_per_datastore, max_message_bytes, max_object_bytes, session_binding, tombstone_retention_days, "
    "window_past_days, window_future_days, window_max_items, window_max_photo_bytes, dav_enabled, max_user_bytes, "
    "push_enabled, "
    "push_daily_budget";

tenant_info tenant_from_row(const pqxx::row& row) {
    tenant_info tenant;
    tenant.id = row[0].as<std::int64_t>();
    tenant.name = row[1].as<std::string>();
    tenant.settings.on_conflict = parse_conflict_policy(row[2].as<std::string>()).value_or(conflict_policy::merge);
    tenant.settings.auth_basic = row[3].as<bool>();
    tenant.settings.auth_md5 = row[4].as<bool>();
    tenant.settings.dav = row["dav_enabled"].as<bool>();
    tenant.settings.binding =
        parse_session_binding(row["session_binding"].as<std::string>()).value_or(session_binding::token);
    tenant.settings.max_sessions = row[5].as<int>();
    tenant.settings.max_devices_per_user = row[6].as<int>();
    tenant.settings.max_items_per_datastore = row[7].as<int>();
    tenant.settings.max_message_bytes = row[8].as<int>();
    tenant.settings.max_object_bytes = row[9].as<int>();
    tenant.settings.max_user_bytes = row["max_user_bytes"].as<std::int64_t>();
    tenant.settings.push = row["push_enabled"].as<bool>();
    tenant.settings.push_daily_budget = row["push_daily_budget"].as<int>();
    tenant.settings.tombstone_retention_days = row["tombstone_retention_days"].as<int>();
    tenant.settings.window = sync_window{row["window_past_days"].as<int>(), row["window_future_days"].as<int>(),
                                         row["window_max_items"].as<int>(), row["window_max_photo_bytes"].as<int>()};
    return tenant;
}

// Runs `sql` with $1 the tenant's name and $2 to $19 its settings, in the order of k_tenant_columns.
pqxx::result exec_with_settings(pqxx::work& tx, const std::string& sql, std::string_view name,
                                const tenant_settings& settings) {
    return tx.exec_params(sql, std::string(name), std::string(to_string(settings.on_conflict)), settings.auth_basic,
                          settings.auth_md5, settings.max_sessions, settings.max_devices_per_user,
                          settings.max_items_per_datastore, settings.max_message_bytes, settings.max_object_bytes,
                          std::string(to_string(settings.binding)), settings.tombstone_retention_days,
                          settings.window.past_days, settings.window.future_days, settings.window.max_items,
                          settings.window.max_photo_bytes, settings.dav, settings.max_user_bytes, settings.push,
                          settings.push_daily_budget);
}

void validate_settings(const tenant_settings& settings) {
    if (settings.max_sessions < 1 || settings.max_devices_per_user < 1 || settings.max_items_per_datastore < 1 ||
        settings.tombstone_retention_days < 1) {
        throw std::invalid_argument("tenant limits must be positive");
    }
    if (settings.max_user_bytes < 0)
        throw std::invalid_argument("the tenant's max_user_bytes must be 0 (no quota) or more");
    if (settings.push_daily_budget < 0)
        throw std::invalid_argument("the tenant's push_daily_budget must be 0 (no budget) or more");
    if (settings.max_message_bytes < 1024 || settings.max_object_bytes < 1024) {
        throw std::invalid_argument("tenant message and object limits must be at least 1024 bytes");
    }
    validate_window(settings.window);
}

}  // namespace

std::string_view to_string(session_binding binding) {
    return binding == session_binding::token ? "token" : "token-or-address";
}

std::optional<session_binding> parse_session_binding(std::string_view text) {
    if (text == "token") return session_binding::token;
    if (text == "token-or-address") return session_binding::token_or_address;
    return std::nullopt;
}

bool valid_tenant_name(std::string_view name) {
    if (name.empty() || name.size() > 63) return false;
    const auto allowed = [](char c, bool first) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        return alnum || (!first && (c == '.' || c == '_' || c == '-'));
    };
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (!allowed(name[i], i == 0)) return false;
    }
    return true;
}

tenant_info add_tenant(database& db, std::string_view name, const tenant_settings& settings) {
    if (!valid_tenant_name(name)) {
        throw std::invalid_argument("invalid tenant name '" + std::string(name) +
                                    "': use 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
    validate_settings(settings);
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto rows = exec_with_settings(
            tx,
            std::string(
                "INSERT INTO tenants (name, conflict_policy, auth_basic, auth_md5, max_sessions, "
                "max_devices_per_user, max_items_per_datastore, max_message_bytes, max_object_bytes, session_binding, "
                "tombstone_retention_days, window_past_days, window_future_days, window_max_items, "
                "window_max_photo_bytes, dav_enabled, max_user_bytes, push_enabled, push_daily_budget) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) "
                "ON CONFLICT "
                "(name) DO "
                "NOTHING RETURNING ") +
                k_tenant_columns,
            name, settings);
        if (rows.empty()) throw already_exists("tenant '" + std::string(name) + "' exists already");
        return tenant_from_row(rows[0]);
    });
}

std::vector<tenant_info> list_tenants(database& db) {
    return in_transaction(db, [](pqxx::work& tx) {
        std::vector<tenant_info> tenants;
        for (const auto& row : tx.exec(std::string("SELECT ") + k_tenant_columns + " FROM tenants ORDER BY name")) {
            tenants.push_back(tenant_from_row(row));
        }
        return tenants;
    });
}

// One prepared autocommit statement: the sync service looks tenants up (when its cache misses).
std::optional<tenant_info> find_tenant(database& db, std::string_view name) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) -> std::optional<tenant_info> {
        const auto rows = exec_sql(tx, std::string("SELECT ") + k_tenant_columns + " FROM tenants WHERE name = $1",
                                   std::string(name));
        if (rows.empty()) return std::nullopt;
        return tenant_from_row(rows[0]);
    });
}

std::string tenant_settings_fingerprint(database& db) {
    return in_transaction(db, [](pqxx::work& tx) {
        const auto row = tx.exec1("SELECT coalesce(sum(settings_version), 0)::text || '/' || count(*) FROM tenants");
        return row[0].as<std::string>();
    });
}

tenant_info update_tenant(database& db, std::string_view name, const tenant_settings& settings) {
    validate_settings(settings);
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto rows = exec_with_settings(
            tx,
            std::string(
                "UPDATE tenants SET conflict_policy = $2, auth_basic = $3, auth_md5 = $4, max_sessions = $5, "
                "max_devices_per_user = $6, max_items_per_datastore = $7, max_message_bytes = $8, "
                "max_object_bytes = $9, session_binding = $10, tombstone_retention_days = $11, window_past_days = $12, "
                "window_future_days = $13, window_max_items = $14, window_max_photo_bytes = $15, dav_enabled = $16, "
                "max_user_bytes = $17, push_enabled = $18, push_daily_budget = $19, "
                "settings_version = settings_version + 1 WHERE name = $1 "
                "RETURNING ") +
                k_tenant_columns,
            name, settings);
        if (rows.empty()) throw not_found("no tenant named '" + std::string(name) + "'");
        auto tenant = tenant_from_row(rows[0]);
        // A password equivalent the tenant no longer needs is not kept.
        if (!tenant.settings.auth_md5) {
            tx.exec_params(
                "UPDATE users SET md5_secret_sealed = NULL, legacy_md5_secret = NULL, credentials_changed_at = now() "
                "WHERE tenant_id = $1 AND (md5_secret_sealed IS NOT NULL OR legacy_md5_secret IS NOT NULL)",
                tenant.id);
        }
        return tenant;
    });
}

void delete_tenant(database& db, std::string_view name, bool with_users) {
    // `POST /sync` without a tenant relies on it.
    if (name == default_tenant) throw std::invalid_argument("the default tenant cannot be deleted");
    in_transaction(db, [&](pqxx::work& tx) {
        // Distributed, the delete of the reference table row cascades into the shards after statements that ran on
        // all of them: one connection per node, or Citus refuses it (persistence/DISTRIBUTED.md).
        if (db.distributed_schema_in_use()) tx.exec("SET LOCAL citus.multi_shard_modify_mode = 'sequential'");
        const auto users =
            tx.exec_params1(
                  "SELECT count(u.user_id) FROM tenants t LEFT JOIN users u USING (tenant_id) WHERE t.name = $1",
                  std::string(name))[0]
                .as<std::int64_t>();
        if (users > 0 && !with_users) {
            throw std::invalid_argument("tenant '" + std::string(name) + "' still has " + std::to_string(users) +
                                        " user(s); delete them first or force it");
        }
        const auto rows = tx.exec_params("DELETE FROM tenants WHERE name = $1 RETURNING tenant_id", std::string(name));
        if (rows.empty()) throw not_found("no tenant named '" + std::string(name) + "'");
        // Match keys have no foreign key to cascade along (migration 0023).
        tx.exec_params0("DELETE FROM item_match_keys WHERE tenant_id = $1", rows[0][0].as<std::int64_t>());
        tx.exec_params0("DELETE FROM session_routes WHERE tenant_id = $1", rows[0][0].as<std::int64_t>());
        tx.exec_params0("DELETE FROM session_starts WHERE tenant_id = $1", rows[0][0].as<std::int64_t>());
    });
}

}  // namespace syncml::persistence
