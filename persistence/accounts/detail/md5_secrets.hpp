#pragma once
// For persistence/ .cpp files only: how accounts, the auth throttle and credential_store seal and open md5 secrets.
// A null key pointer stands for the database's own key (server_secrets 'md5_secret_key', created on first use),
// which serves deployments that configured none (see credential_store.hpp).

#include <cstdint>
#include <optional>
#include <string>

#include "persistence/accounts/secret_key.hpp"
#include "persistence/pg/detail/connection_access.hpp"

namespace syncml::persistence::detail {

// The associated data that binds a sealed md5 secret to its row.
std::string md5_context(std::int64_t tenant_id, const std::string& user);

// The database's own key, created on first use.
secret_key database_secret_key(pqxx::transaction_base& tx);

// `key`, else the database's own key.
secret_key key_or_database(const secret_key* key, pqxx::transaction_base& tx);

// The SQL expression of the database's own key (base64 text, NULL while there is none), for a SELECT list.
inline constexpr const char* k_database_key_column = "(SELECT value FROM server_secrets WHERE name = 'md5_secret_key')";

// The md5 secret to hand to the protocol engine: the sealed one opened with `key` (null: with database_key, the
// base64 text of k_database_key_column), else a plaintext one left by migration 0011 until prepare_secret_key
// sealed it; empty when there is none or it does not open.
std::string usable_md5_secret(const std::optional<std::string>& sealed, const std::optional<std::string>& legacy,
                              const secret_key* key, const std::optional<std::string>& database_key,
                              std::int64_t tenant_id, const std::string& user);

std::optional<std::string> optional_bytes(const pqxx::field& field);
std::optional<std::string> optional_text(const pqxx::field& field);

}  // namespace syncml::persistence::detail
