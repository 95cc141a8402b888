#include "persistence/accounts/users.hpp"

#include <array>
#include <stdexcept>

#include "persistence/accounts/detail/account_lookup.hpp"
#include "persistence/accounts/detail/md5_secrets.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {

namespace {

using detail::find_tenant_id;
using detail::find_user_id;
using detail::require_tenant_auth;
using detail::require_tenant_id;
using detail::require_user_id;
using detail::tenant_auth;

constexpr std::array k_standard_datastores{"contacts", "calendar", "tasks", "memos"};

// The md5 secret as stored: sealed, and only where the tenant allows md5 (else empty, which the statements store
// as NULL).
std::string sealed_md5_secret(pqxx::transaction_base& tx, const tenant_auth& tenant, std::string_view user,
                              std::string_view password, const secret_key* md5_key) {
    if (!tenant.md5) return {};
    return seal(detail::key_or_database(md5_key, tx), md5_secret_of(user, password),
                detail::md5_context(tenant.id, std::string(user)));
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

}  // namespace syncml::persistence
