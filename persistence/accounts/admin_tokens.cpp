#include "persistence/accounts/admin_tokens.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

#include "common/crypto/digest.hpp"
#include "common/crypto/hex.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/detail/iso_utc.hpp"

namespace syncml::persistence {
namespace {

// A prefix lets secret scanners and people recognize a leaked token.
constexpr std::string_view k_token_prefix = "syncml_";
constexpr std::size_t k_token_bytes = 32;

constexpr const char* k_insert_token =
    "INSERT INTO admin_tokens (name, token_sha256, scope_tenant_id) VALUES ($1, $2, NULLIF($3::bigint, 0)) ON CONFLICT "
    "(name) DO NOTHING "
    "RETURNING name";

constexpr const char* k_list_tokens =
    "SELECT k.name, t.name AS tenant, " SYNCML_ISO_UTC("k.created_at") " AS created_at, " SYNCML_ISO_UTC(
        "k.last_used_at") " AS last_used_at "
                          "FROM admin_tokens k LEFT JOIN tenants t ON t.tenant_id = k.scope_tenant_id ORDER BY k.name";

// Notes the use at most once a minute: a script polling the API must not write a row version per request.
constexpr const char* k_verify_token =
    "WITH found AS (SELECT k.name, t.name AS tenant, " SYNCML_ISO_UTC("k.created_at") " AS created_at, " SYNCML_ISO_UTC(
        "coalesce(k.last_used_at, now())") " AS last_used_at FROM admin_tokens k LEFT JOIN tenants t ON "
                                          "t.tenant_id = k.scope_tenant_id WHERE k.token_sha256 = $1), "
    "touched AS (UPDATE admin_tokens SET last_used_at = now() WHERE token_sha256 = $1 AND "
    "(last_used_at IS NULL OR last_used_at < now() - interval '1 minute')) "
    "SELECT * FROM found";

pqxx::binarystring sha256_of(std::string_view token) {
    const auto digest = common::sha256(token);
    return pqxx::binarystring(digest.data(), digest.size());
}

std::optional<std::string> optional_text(const pqxx::field& field) {
    return field.is_null() ? std::nullopt : std::optional<std::string>(field.as<std::string>());
}

admin_token_info token_from_row(const pqxx::row& row) {
    return {.name = row["name"].as<std::string>(),
            .tenant = optional_text(row["tenant"]),
            .created_at = row["created_at"].as<std::string>(),
            .last_used_at = optional_text(row["last_used_at"])};
}

}  // namespace

std::string create_admin_token(database& db, std::string_view name, std::optional<std::string_view> tenant) {
    if (!valid_tenant_name(name)) {
        throw std::invalid_argument("token name '" + std::string(name) +
                                    "' (expected letters, digits, '.', '_' or '-', up to 63, starting with a letter "
                                    "or digit)");
    }
    std::array<unsigned char, k_token_bytes> random{};
    if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
        throw std::runtime_error("no random bytes for a token");
    }
    const std::string token =
        std::string(k_token_prefix) +
        common::hex_of(std::string_view(reinterpret_cast<const char*>(random.data()), random.size()));
    in_transaction(db, [&](pqxx::work& tx) {
        std::int64_t tenant_id = 0;  // all tenants
        if (tenant) {
            const auto rows = tx.exec_params("SELECT tenant_id FROM tenants WHERE name = $1", std::string(*tenant));
            if (rows.empty()) throw not_found("no tenant named '" + std::string(*tenant) + "'");
            tenant_id = rows[0][0].as<std::int64_t>();
        }
        if (tx.exec_params(k_insert_token, std::string(name), sha256_of(token), tenant_id).empty()) {
            throw already_exists("a token named '" + std::string(name) + "' exists already");
        }
    });
    return token;
}

std::vector<admin_token_info> list_admin_tokens(database& db) {
    return in_transaction(db, [](pqxx::work& tx) {
        std::vector<admin_token_info> tokens;
        for (const auto& row : tx.exec(k_list_tokens)) tokens.push_back(token_from_row(row));
        return tokens;
    });
}

void delete_admin_token(database& db, std::string_view name) {
    in_transaction(db, [&](pqxx::work& tx) {
        if (tx.exec_params("DELETE FROM admin_tokens WHERE name = $1", std::string(name)).affected_rows() == 0) {
            throw not_found("no token named '" + std::string(name) + "'");
        }
    });
}

std::optional<admin_token_info> verify_admin_token(database& db, std::string_view token) {
    if (!token.starts_with(k_token_prefix) || token.size() != k_token_prefix.size() + 2 * k_token_bytes) {
        return std::nullopt;
    }
    return in_transaction(db, [&](pqxx::work& tx) -> std::optional<admin_token_info> {
        const auto rows = tx.exec_params(k_verify_token, sha256_of(token));
        if (rows.empty()) return std::nullopt;
        return token_from_row(rows[0]);
    });
}

}  // namespace syncml::persistence
