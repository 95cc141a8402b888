#include "persistence/accounts/credential_store.hpp"

#include "persistence/accounts/detail/md5_secrets.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/detail/autocommit.hpp"

namespace syncml::persistence {
namespace {

// $4 the new hash ('' keeps the stored one), $5 the sealed md5 secret, $6 whether to store it (the login found none
// that opens). The stored hash must still be the one the login verified: an admin's new password meanwhile wins.
constexpr const char* k_upgrade =
    "UPDATE users u SET "
    "password_hash = CASE WHEN $4 <> '' THEN $4 ELSE u.password_hash END, "
    "md5_secret_sealed = CASE WHEN t.auth_md5 AND $6 THEN $5::bytea ELSE u.md5_secret_sealed END, "
    "legacy_md5_secret = CASE WHEN t.auth_md5 AND $6 THEN NULL ELSE u.legacy_md5_secret END "
    "FROM tenants t WHERE t.tenant_id = u.tenant_id AND u.tenant_id = $1 AND u.user_id = syncml_user_key($1, $2) "
    "AND u.name = $2 AND u.password_hash = $3 "
    "AND ($4 <> '' OR (t.auth_md5 AND $6)) "
    "RETURNING u.user_id";

constexpr const char* k_create_database_key =
    "INSERT INTO server_secrets (name, value) VALUES ('md5_secret_key', $1) ON CONFLICT (name) DO NOTHING";
constexpr const char* k_delete_database_key = "DELETE FROM server_secrets WHERE name = 'md5_secret_key'";
constexpr const char* k_record_fingerprint =
    "INSERT INTO server_secrets (name, value) VALUES ('md5_key_fingerprint', $1) ON CONFLICT (name) DO NOTHING";
constexpr const char* k_recorded_fingerprint = "SELECT value FROM server_secrets WHERE name = 'md5_key_fingerprint'";
constexpr const char* k_replace_fingerprint = "UPDATE server_secrets SET value = $1 WHERE name = 'md5_key_fingerprint'";
// Each secret is rewritten only if it is still the one read (compare and set), so a password changed meanwhile is
// never overwritten: the rows are read without a lock, which a distributed database refuses across shards.
constexpr const char* k_sealed =
    "SELECT tenant_id, name, md5_secret_sealed FROM users WHERE md5_secret_sealed IS NOT NULL";
constexpr const char* k_sealed_count = "SELECT count(*) FROM users WHERE md5_secret_sealed IS NOT NULL";
constexpr const char* k_reseal =
    "UPDATE users SET md5_secret_sealed = $3 WHERE tenant_id = $1 AND user_id = syncml_user_key($1, $2) AND name = $2 "
    "AND md5_secret_sealed = $4";
constexpr const char* k_drop_legacy_without_md5 =
    "UPDATE users u SET legacy_md5_secret = NULL FROM tenants t "
    "WHERE t.tenant_id = u.tenant_id AND NOT t.auth_md5 AND u.legacy_md5_secret IS NOT NULL";
constexpr const char* k_legacy =
    "SELECT tenant_id, name, legacy_md5_secret, md5_secret_sealed IS NOT NULL FROM users "
    "WHERE legacy_md5_secret IS NOT NULL";
constexpr const char* k_seal_legacy =
    "UPDATE users SET md5_secret_sealed = coalesce(md5_secret_sealed, $3), legacy_md5_secret = NULL "
    "WHERE tenant_id = $1 AND user_id = syncml_user_key($1, $2) AND name = $2 AND legacy_md5_secret = $4";

std::optional<secret_key> existing_database_key(pqxx::work& tx) {
    const auto rows = tx.exec(std::string("SELECT ") + detail::k_database_key_column);
    if (rows.empty() || rows[0][0].is_null()) return std::nullopt;
    return secret_key::parse(rows[0][0].as<std::string>());
}

// Moves every sealed secret from `from` to `to`; throws when one does not open.
int reseal(pqxx::work& tx, const secret_key& from, const secret_key& to) {
    int count = 0;
    for (const auto& row : tx.exec(k_sealed)) {
        const auto tenant_id = row[0].as<std::int64_t>();
        const auto user = row[1].as<std::string>();
        const auto context = detail::md5_context(tenant_id, user);
        const auto plain = unseal(from, pqxx::binarystring(row[2]).str(), context);
        if (!plain) throw std::runtime_error("the md5 secret of user '" + user + "' does not open with its key");
        const auto resealed = tx.exec_params0(k_reseal, tenant_id, user, pqxx::binarystring(seal(to, *plain, context)),
                                              pqxx::binarystring(row[2]));
        // Changed since it was read (a password set meanwhile, perhaps sealed with the old key): start again.
        if (resealed.affected_rows() != 1)
            throw std::runtime_error("the md5 secret of user '" + user + "' changed while resealing: run it again");
        ++count;
    }
    return count;
}

// A key that sealed nothing yet may replace the recorded one; one the database holds is moved away from.
int check_fingerprint(pqxx::work& tx, const secret_key& key) {
    const auto fingerprint = key.fingerprint();
    tx.exec_params0(k_record_fingerprint, fingerprint);
    const auto recorded = tx.exec1(k_recorded_fingerprint)[0].as<std::string>();
    if (recorded == fingerprint) return 0;
    int moved = 0;
    if (!tx.exec(k_sealed).empty()) {
        const auto old = existing_database_key(tx);
        if (!old || old->fingerprint() != recorded) {
            throw std::runtime_error(
                "the md5 secrets in this database were sealed with another secret key "
                "(fingerprint " +
                recorded + ", this key " + fingerprint +
                "): configure the same secret_key or secret_key_file on every instance");
        }
        moved = reseal(tx, *old, key);
    }
    tx.exec_params0(k_replace_fingerprint, fingerprint);
    return moved;
}

int seal_legacy(pqxx::work& tx, const secret_key& key) {
    int sealed = 0;
    for (const auto& row : tx.exec(k_legacy)) {
        const auto tenant_id = row[0].as<std::int64_t>();
        const auto user = row[1].as<std::string>();
        const auto secret = seal(key, row[2].as<std::string>(), detail::md5_context(tenant_id, user));
        tx.exec_params0(k_seal_legacy, tenant_id, user, pqxx::binarystring(secret), row[2].as<std::string>());
        if (!row[3].as<bool>()) ++sealed;
    }
    return sealed;
}

}  // namespace

namespace detail {

std::string md5_context(std::int64_t tenant_id, const std::string& user) {
    return "syncml md5 secret tenant=" + std::to_string(tenant_id) + " user=" + user;
}

secret_key database_secret_key(pqxx::transaction_base& tx) {
    exec_sql0(tx, k_create_database_key, secret_key::generate().to_base64());
    auto key = secret_key::parse(exec_sql1(tx, k_database_key_column)[0].as<std::string>());
    if (!key) throw std::runtime_error("server_secrets md5_secret_key is not base64 of 32 bytes");
    return *key;
}

secret_key key_or_database(const secret_key* key, pqxx::transaction_base& tx) {
    return key ? *key : database_secret_key(tx);
}

std::string usable_md5_secret(const std::optional<std::string>& sealed, const std::optional<std::string>& legacy,
                              const secret_key* key, const std::optional<std::string>& database_key,
                              std::int64_t tenant_id, const std::string& user) {
    if (!sealed) return legacy.value_or(std::string());
    std::optional<secret_key> own;
    if (key == nullptr && database_key) own = secret_key::parse(*database_key);
    const secret_key* opener = key ? key : (own ? &*own : nullptr);
    if (opener == nullptr) return {};
    return unseal(*opener, *sealed, md5_context(tenant_id, user)).value_or(std::string());
}

std::optional<std::string> optional_bytes(const pqxx::field& field) {
    if (field.is_null()) return std::nullopt;
    return pqxx::binarystring(field).str();
}

std::optional<std::string> optional_text(const pqxx::field& field) {
    if (field.is_null()) return std::nullopt;
    return field.as<std::string>();
}

}  // namespace detail

bool upgrade_credentials(database& db, std::int64_t tenant_id, const std::string& user, const std::string& password,
                         const stored_credentials& verified, const secret_key* md5_key) {
    const auto hash = needs_rehash(verified.password_hash) ? hash_password(password) : std::string();
    const auto secret = md5_secret_of(user, password);
    const bool store_md5 = verified.md5_secret.empty();
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto sealed = seal(detail::key_or_database(md5_key, tx), secret, detail::md5_context(tenant_id, user));
        // Unnamed, not prepared: it finds the user's shard by syncml_user_key (see k_forget_old in auth_throttle.cpp).
        return !tx.exec_params(k_upgrade, tenant_id, user, verified.password_hash, hash, pqxx::binarystring(sealed),
                               store_md5)
                    .empty();
    });
}

bool secret_key_record::accepts(const secret_key* key) const {
    if (sealed == 0 || !fingerprint) return true;
    if (key != nullptr && key->fingerprint() == *fingerprint) return true;
    return database_fingerprint == fingerprint;
}

secret_key_record read_secret_key_record(database& db) {
    // Three statements: a distributed database runs no subquery of the users table in a SELECT list.
    return in_transaction(db, [](pqxx::work& tx) {
        secret_key_record record;
        if (const auto rows = tx.exec(k_recorded_fingerprint); !rows.empty()) {
            record.fingerprint = detail::optional_text(rows[0][0]);
        }
        if (const auto own =
                detail::optional_text(tx.exec1(std::string("SELECT ") + detail::k_database_key_column)[0])) {
            if (const auto key = secret_key::parse(*own)) record.database_fingerprint = key->fingerprint();
        }
        record.sealed = tx.exec1(k_sealed_count)[0].as<std::int64_t>();
        return record;
    });
}

key_preparation prepare_secret_key(database& db, const secret_key* key) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto effective = detail::key_or_database(key, tx);
        key_preparation out;
        out.resealed = check_fingerprint(tx, effective);
        if (key != nullptr) tx.exec0(k_delete_database_key);
        out.dropped = static_cast<int>(tx.exec0(k_drop_legacy_without_md5).affected_rows());
        out.sealed = seal_legacy(tx, effective);
        return out;
    });
}

}  // namespace syncml::persistence
