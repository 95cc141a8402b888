#pragma once
// For persistence/ .cpp files only: a tenant's and a user's id by name, inside the caller's transaction. The
// require_ forms throw not_found naming what is missing.

#include <cstdint>
#include <optional>
#include <string_view>

#include "persistence/pg/detail/connection_access.hpp"

namespace syncml::persistence::detail {

std::optional<std::int64_t> find_tenant_id(pqxx::transaction_base& tx, std::string_view name);
std::int64_t require_tenant_id(pqxx::transaction_base& tx, std::string_view name);

// What storing a user's secrets needs to know of its tenant.
struct tenant_auth {
    std::int64_t id = 0;
    bool md5 = false;
};
tenant_auth require_tenant_auth(pqxx::transaction_base& tx, std::string_view name);

std::optional<std::int64_t> find_user_id(pqxx::transaction_base& tx, std::int64_t tenant_id, std::string_view user);
// `tenant` names the tenant in the error.
std::int64_t require_user_id(pqxx::transaction_base& tx, std::int64_t tenant_id, std::string_view tenant,
                             std::string_view user);

}  // namespace syncml::persistence::detail
