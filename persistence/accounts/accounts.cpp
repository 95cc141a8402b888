#include "persistence/accounts/accounts.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "persistence/accounts/detail/md5_secrets.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/detail/autocommit.hpp"
#include "persistence/pg/detail/connection_access.hpp"

namespace syncml::persistence {

namespace {

constexpr std::array k_standard_datastores{"contacts", "calendar", "tasks", "memos"};

constexpr const char* k_tenant_columns =
    "tenant_id, name, conflict_policy, auth_basic, auth_md5, max_sessions, max_devices_per_user, "
    "max_items_per_datastore, max_message_bytes, max_object_bytes, session_binding, tombstone_retention_days, "
    "window_past_days, window_future_days, window_max_items, window_max_photo_bytes, dav_enabled";

tenant_info tenant_from_row(const pqxx::row& row) {
    tenant_info tenant;
    tenant.id = row[0].as<std::int64_t>();
    tenant.name = row[1].as<std::string>();
    tenant.settings.on_conflict = parse_conflict_policy(row[2].as<std::string>()).value_or(conflict_policy::merge);
    tenant.settings.auth_basic = row[3].as<bool>();
    tenant.settings.auth_md5 = row[4].as<bool>();
    tenant.settings.dav = row["dav_enabled"].as<bool>();
    tenant.settings.binding =
        parse_session_binding(row["session_binding"].as<std::string>()).value_or(session_binding::token_or_address);
    tenant.settings.max_sessions = row[5].as<int>();
    tenant.settings.max_devices_per_user = row[6].as<int>();
    tenant.settings.max_items_per_datastore = row[7].as<int>();
    tenant.settings.max_message_bytes = row[8].as<int>();
    tenant.settings.max_object_bytes = row[9].as<int>();
    tenant.settings.tombstone_retention_days = row["tombstone_retention_days"].as<int>();
    tenant.settings.window = sync_window{row["window_past_days"].as<int>(), row["window_future_days"].as<int>(),
                                         row["window_max_items"].as<int>(), row["window_max_photo_bytes"].as<int>()};
    return tenant;
}

std::optional<std::int64_t> find_tenant_id(pqxx::transaction_base& tx, std::string_view name) {
    const auto rows = tx.exec_params("SELECT tenant_id FROM tenants WHERE name = $1", std::string(name));
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::int64_t>();
}

std::int64_t require_tenant_id(pqxx::transaction_base& tx, std::string_view name) {
    auto id = find_tenant_id(tx, name);
    if (!id) throw not_found("no tenant named '" + std::string(name) + "'");
    return *id;
}

struct tenant_auth {
    std::int64_t id = 0;
    bool md5 = false;
};

tenant_auth require_tenant_auth(pqxx::transaction_base& tx, std::string_view name) {
    const auto rows = tx.exec_params("SELECT tenant_id, auth_md5 FROM tenants WHERE name = $1", std::string(name));
    if (rows.empty()) throw not_found("no tenant named '" + std::string(name) + "'");
    return {rows[0][0].as<std::int64_t>(), rows[0][1].as<bool>()};
}

// The md5 secret as stored: sealed, and only where the tenant allows md5 (else empty, which the statements store
// as NULL).
std::string sealed_md5_secret(pqxx::transaction_base& tx, const tenant_auth& tenant, std::string_view user,
                              std::string_view password, const secret_key* md5_key) {
    if (!tenant.md5) return {};
    return seal(detail::key_or_database(md5_key, tx), md5_secret_of(user, password),
                detail::md5_context(tenant.id, std::string(user)));
}

// A user's row by its key (migration 0023), so that on a distributed database the statement runs on the user's shard.
constexpr const char* k_user_by_name =
    "SELECT user_id FROM users WHERE tenant_id = $1 AND user_id = syncml_user_key($1, $2) AND name = $2";

std::optional<std::int64_t> find_user_id(pqxx::transaction_base& tx, std::int64_t tenant_id, std::string_view user) {
    const auto rows = tx.exec_params(k_user_by_name, tenant_id, std::string(user));
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::int64_t>();
}

std::int64_t require_user_id(pqxx::transaction_base& tx, std::int64_t tenant_id, std::string_view tenant,
                             std::string_view user) {
    const auto id = find_user_id(tx, tenant_id, user);
    if (!id) throw not_found("no user '" + std::string(user) + "' in tenant '" + std::string(tenant) + "'");
    return *id;
}

// The user's sessions on the device and the device's resume pointers (migration 0023: a table of their own).
void delete_device_sessions(pqxx::transaction_base& tx, std::int64_t tenant_id, std::int64_t user_id,
                            std::string_view device_uri) {
    tx.exec_params0("DELETE FROM sessions WHERE tenant_id = $1 AND user_id = $2 AND device_uri = $3", tenant_id,
                    user_id, std::string(device_uri));
    tx.exec_params0("DELETE FROM resume_pointers WHERE tenant_id = $1 AND user_id = $2 AND device_uri = $3", tenant_id,
                    user_id, std::string(device_uri));
}

// ':' would make md5 auth's "user:password" ambiguous; control characters have no place in logs.
void validate_user(std::string_view user, std::string_view password) {
    if (user.empty() || user.size() > 255) throw std::invalid_argument("user name must have 1 to 255 characters");
    for (const char c : user) {
        if (c == ':' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            throw std::invalid_argument("user name must not contain ':' or control characters");
        }
    }
    if (password.empty()) throw std::invalid_argument("password must not be empty");
}

void validate_settings(const tenant_settings& settings) {
    if (settings.max_sessions < 1 || settings.max_devices_per_user < 1 || settings.max_items_per_datastore < 1 ||
        settings.tombstone_retention_days < 1) {
        throw std::invalid_argument("tenant limits must be positive");
    }
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
        const auto rows = tx.exec_params(
            std::string(
                "INSERT INTO tenants (name, conflict_policy, auth_basic, auth_md5, max_sessions, "
                "max_devices_per_user, max_items_per_datastore, max_message_bytes, max_object_bytes, session_binding, "
                "tombstone_retention_days, window_past_days, window_future_days, window_max_items, "
                "window_max_photo_bytes, dav_enabled) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (name) DO "
                "NOTHING RETURNING ") +
                k_tenant_columns,
            std::string(name), std::string(to_string(settings.on_conflict)), settings.auth_basic, settings.auth_md5,
            settings.max_sessions, settings.max_devices_per_user, settings.max_items_per_datastore,
            settings.max_message_bytes, settings.max_object_bytes, std::string(to_string(settings.binding)),
            settings.tombstone_retention_days, settings.window.past_days, settings.window.future_days,
            settings.window.max_items, settings.window.max_photo_bytes, settings.dav);
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

tenant_info update_tenant(database& db, std::string_view name, const tenant_settings& settings) {
    validate_settings(settings);
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto rows = tx.exec_params(
            std::string(
                "UPDATE tenants SET conflict_policy = $2, auth_basic = $3, auth_md5 = $4, max_sessions = $5, "
                "max_devices_per_user = $6, max_items_per_datastore = $7, max_message_bytes = $8, "
                "max_object_bytes = $9, session_binding = $10, tombstone_retention_days = $11, window_past_days = $12, "
                "window_future_days = $13, window_max_items = $14, window_max_photo_bytes = $15, dav_enabled = $16 "
                "WHERE name = $1 "
                "RETURNING ") +
                k_tenant_columns,
            std::string(name), std::string(to_string(settings.on_conflict)), settings.auth_basic, settings.auth_md5,
            settings.max_sessions, settings.max_devices_per_user, settings.max_items_per_datastore,
            settings.max_message_bytes, settings.max_object_bytes, std::string(to_string(settings.binding)),
            settings.tombstone_retention_days, settings.window.past_days, settings.window.future_days,
            settings.window.max_items, settings.window.max_photo_bytes, settings.dav);
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
        if (distributed_schema_in_use()) tx.exec("SET LOCAL citus.multi_shard_modify_mode = 'sequential'");
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

namespace {

// The user row with its standard datastores; already_exists for a taken name.
user_info insert_user(pqxx::work& tx, std::int64_t tenant_id, std::string_view tenant, std::string_view user,
                      const std::string& hash, const std::string& sealed_md5) {
    // The id is the user's key (migration 0023): a taken name and, once in 2^62 names, another name's key conflict.
    const auto rows = tx.exec_params(
        "INSERT INTO users (tenant_id, user_id, name, password_hash, md5_secret_sealed) "
        "VALUES ($1, syncml_user_key($1, $2), $2, $3, NULLIF($4::bytea, ''::bytea)) "
        "ON CONFLICT DO NOTHING RETURNING user_id",
        tenant_id, std::string(user), hash, pqxx::binarystring(sealed_md5));
    if (rows.empty()) {
        if (!find_user_id(tx, tenant_id, user))
            throw already_exists("user name '" + std::string(user) + "' collides with another user's key in tenant '" +
                                 std::string(tenant) + "': choose another name");
        throw already_exists("user '" + std::string(user) + "' exists already in tenant '" + std::string(tenant) + "'");
    }
    const auto user_id = rows[0][0].as<std::int64_t>();
    for (const char* kind : k_standard_datastores) {
        tx.exec_params("INSERT INTO datastores (tenant_id, user_id, name, kind) VALUES ($1, $2, $3, $3)", tenant_id,
                       user_id, std::string(kind));
    }
    return user_info{tenant_id, user_id, std::string(user)};
}

}  // namespace

user_info add_user(database& db, std::string_view tenant, std::string_view user, std::string_view password,
                   const secret_key* md5_key) {
    validate_user(user, password);
    // Hashing is deliberately slow: do it before the transaction, not while holding locks.
    const auto hash = hash_password(password);
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto auth = require_tenant_auth(tx, tenant);
        return insert_user(tx, auth.id, tenant, user, hash, sealed_md5_secret(tx, auth, user, password, md5_key));
    });
}

user_info add_user_with_hash(database& db, std::string_view tenant, std::string_view user,
                             std::string_view password_hash) {
    validate_user(user, password_hash);
    if (!is_password_hash(password_hash)) throw std::invalid_argument("not a password hash of the stored form");
    return in_transaction(db, [&](pqxx::work& tx) {
        return insert_user(tx, require_tenant_id(tx, tenant), tenant, user, std::string(password_hash), {});
    });
}

std::vector<user_info> list_users(database& db, std::string_view tenant) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        std::vector<user_info> users;
        for (const auto& row : tx.exec_params(
                 "SELECT user_id, name, disabled_at IS NOT NULL FROM users WHERE tenant_id = $1 ORDER BY name",
                 tenant_id)) {
            users.push_back({tenant_id, row[0].as<std::int64_t>(), row[1].as<std::string>(), row[2].as<bool>()});
        }
        return users;
    });
}

std::optional<user_info> find_user(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) -> std::optional<user_info> {
        const auto tenant_id = find_tenant_id(tx, tenant);
        if (!tenant_id) return std::nullopt;
        const auto user_id = find_user_id(tx, *tenant_id, user);
        if (!user_id) return std::nullopt;
        return user_info{*tenant_id, *user_id, std::string(user)};
    });
}

void set_password(database& db, std::string_view tenant, std::string_view user, std::string_view password,
                  const secret_key* md5_key) {
    validate_user(user, password);
    const auto hash = hash_password(password);
    in_transaction(db, [&](pqxx::work& tx) {
        const auto auth = require_tenant_auth(tx, tenant);
        const auto user_id = require_user_id(tx, auth.id, tenant, user);
        tx.exec_params(
            "UPDATE users SET password_hash = $3, md5_secret_sealed = NULLIF($4::bytea, ''::bytea), "
            "legacy_md5_secret = NULL, credentials_changed_at = now() WHERE tenant_id = $1 AND user_id = $2",
            auth.id, user_id, hash, pqxx::binarystring(sealed_md5_secret(tx, auth, user, password, md5_key)));
    });
}

void set_user_disabled(database& db, std::string_view tenant, std::string_view user, bool disabled) {
    in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto user_id = require_user_id(tx, tenant_id, tenant, user);
        if (disabled) {
            // Two statements, no coalesce(disabled_at, now()): a distributed database refuses clock functions in
            // COALESCE. The first disabling keeps its time.
            tx.exec_params0("UPDATE users SET credentials_changed_at = now() WHERE tenant_id = $1 AND user_id = $2",
                            tenant_id, user_id);
            tx.exec_params0(
                "UPDATE users SET disabled_at = now() WHERE tenant_id = $1 AND user_id = $2 AND disabled_at IS NULL",
                tenant_id, user_id);
        } else {
            tx.exec_params0("UPDATE users SET disabled_at = NULL WHERE tenant_id = $1 AND user_id = $2", tenant_id,
                            user_id);
        }
    });
}

void delete_user(database& db, std::string_view tenant, std::string_view user) {
    in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto user_id = require_user_id(tx, tenant_id, tenant, user);
        // Match keys have no foreign key to cascade along (migration 0023); everything else goes with the user.
        tx.exec_params0("DELETE FROM item_match_keys WHERE tenant_id = $1 AND user_id = $2", tenant_id, user_id);
        tx.exec_params0("DELETE FROM users WHERE tenant_id = $1 AND user_id = $2", tenant_id, user_id);
    });
}

namespace {

std::optional<pqxx::row> user_secrets(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) -> std::optional<pqxx::row> {
        const auto tenant_id = find_tenant_id(tx, tenant);
        if (!tenant_id) return std::nullopt;
        const auto rows = tx.exec_params(
            std::string("SELECT u.password_hash, u.md5_secret_sealed, u.legacy_md5_secret, u.tenant_id, t.auth_md5, ") +
                detail::k_database_key_column +
                " FROM users u JOIN tenants t USING (tenant_id) "
                "WHERE u.tenant_id = $1 AND u.user_id = syncml_user_key($1, $2) AND u.name = $2 "
                "AND u.disabled_at IS NULL",
            *tenant_id, std::string(user));
        if (rows.empty()) return std::nullopt;
        return rows[0];
    });
}

}  // namespace

bool verify_basic_password(database& db, std::string_view tenant, std::string_view user, std::string_view password) {
    const auto secrets = user_secrets(db, tenant, user);
    if (!secrets) {
        // Same cost as a real check, so response times do not tell which user names exist.
        static const std::string dummy = hash_password("dummy");
        verify_password(password, dummy);
        return false;
    }
    return verify_password(password, (*secrets)[0].as<std::string>());
}

std::optional<std::string> md5_secret(database& db, std::string_view tenant, std::string_view user,
                                      const secret_key* md5_key) {
    const auto secrets = user_secrets(db, tenant, user);
    if (!secrets || !(*secrets)[4].as<bool>()) return std::nullopt;
    const auto& row = *secrets;
    auto secret =
        detail::usable_md5_secret(detail::optional_bytes(row[1]), detail::optional_text(row[2]), md5_key,
                                  detail::optional_text(row[5]), row[3].as<std::int64_t>(), std::string(user));
    if (secret.empty()) return std::nullopt;
    return secret;
}

std::vector<device_info> list_devices(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto user_id = require_user_id(tx, tenant_id, tenant, user);
        std::vector<device_info> devices;
        const auto rows = tx.exec_params(
            "SELECT d.device_id, d.device_uri, "
            "to_char(d.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
            "(SELECT count(*) FROM device_stores s WHERE s.tenant_id = $1 AND s.user_id = $2 AND s.device_id = "
            "d.device_id) "
            "FROM devices d WHERE d.tenant_id = $1 AND d.user_id = $2 ORDER BY d.device_uri",
            tenant_id, user_id);
        for (const auto& row : rows) {
            device_info device;
            device.id = row[0].as<std::int64_t>();
            device.device_uri = row[1].as<std::string>();
            if (!row[2].is_null()) device.last_seen = row[2].as<std::string>();
            device.stores = row[3].as<int>();
            devices.push_back(std::move(device));
        }
        return devices;
    });
}

// The device id may belong to several users: each user's device is reset by statements bound to that user (on a
// distributed database, on the user's shard); only finding them reads every user.
int reset_device(database& db, std::string_view tenant, std::string_view device_uri) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto devices =
            tx.exec_params("SELECT user_id, device_id FROM devices WHERE tenant_id = $1 AND device_uri = $2", tenant_id,
                           std::string(device_uri));
        int reset = 0;
        for (const auto& device : devices) {
            const auto user_id = device["user_id"].as<std::int64_t>();
            const auto device_id = device["device_id"].as<std::int64_t>();
            if (tx.exec_params("SELECT 1 FROM devices WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3 "
                               "FOR UPDATE",
                               tenant_id, user_id, device_id)
                    .empty()) {
                continue;  // deleted meanwhile
            }
            tx.exec_params0(
                "UPDATE device_stores SET client_last_anchor = NULL, server_last_anchor = NULL, last_modseq_seen = 0, "
                "previous_client_anchor = NULL, previous_modseq_seen = 0, needs_slow_sync = true "
                "WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3",
                tenant_id, user_id, device_id);
            delete_device_sessions(tx, tenant_id, user_id, device_uri);
            ++reset;
        }
        if (reset == 0) {
            throw not_found("no device '" + std::string(device_uri) + "' in tenant '" + std::string(tenant) + "'");
        }
        return reset;
    });
}

void delete_device(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri) {
    in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto user_id = require_user_id(tx, tenant_id, tenant, user);
        const auto deleted = tx.exec_params(
            "DELETE FROM devices WHERE tenant_id = $1 AND user_id = $2 AND device_uri = $3 RETURNING device_id",
            tenant_id, user_id, std::string(device_uri));
        if (deleted.empty()) {
            throw not_found("user '" + std::string(user) + "' has no device '" + std::string(device_uri) + "'");
        }
        delete_device_sessions(tx, tenant_id, user_id, device_uri);
    });
}

}  // namespace syncml::persistence
