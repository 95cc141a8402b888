#include "persistence/accounts/detail/account_lookup.hpp"

#include <string>

#include "persistence/pg/errors.hpp"

namespace syncml::persistence::detail {

namespace {

// A user's row by its key (migration 0023), so that on a distributed database the statement runs on the user's shard.
constexpr const char* k_user_by_name =
    "SELECT user_id FROM users WHERE tenant_id = $1 AND user_id = syncml_user_key($1, $2) AND name = $2";

[[noreturn]] void throw_no_tenant(std::string_view name) {
    throw not_found("no tenant named '" + std::string(name) + "'");
}

}  // namespace

std::optional<std::int64_t> find_tenant_id(pqxx::transaction_base& tx, std::string_view name) {
    const auto rows = tx.exec_params("SELECT tenant_id FROM tenants WHERE name = $1", std::string(name));
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::int64_t>();
}

std::int64_t require_tenant_id(pqxx::transaction_base& tx, std::string_view name) {
    auto id = find_tenant_id(tx, name);
    if (!id) throw_no_tenant(name);
    return *id;
}

tenant_auth require_tenant_auth(pqxx::transaction_base& tx, std::string_view name) {
    const auto rows = tx.exec_params("SELECT tenant_id, auth_md5 FROM tenants WHERE name = $1", std::string(name));
    if (rows.empty()) throw_no_tenant(name);
    return {rows[0][0].as<std::int64_t>(), rows[0][1].as<bool>()};
}

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

}  // namespace syncml::persistence::detail
