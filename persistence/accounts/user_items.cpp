#include "persistence/accounts/user_items.hpp"

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {

user_ids require_user(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenants = tx.exec_params("SELECT tenant_id FROM tenants WHERE name = $1", std::string(tenant));
        if (tenants.empty()) throw not_found("no tenant named '" + std::string(tenant) + "'");
        const auto tenant_id = tenants[0][0].as<std::int64_t>();
        // By the user's key (migration 0023): on a distributed database, on the user's shard.
        const auto users = tx.exec_params(
            "SELECT user_id FROM users WHERE tenant_id = $1 AND user_id = syncml_user_key($1, $2) AND name = $2",
            tenant_id, std::string(user));
        if (users.empty()) {
            throw not_found("no user '" + std::string(user) + "' in tenant '" + std::string(tenant) + "'");
        }
        return user_ids{.tenant = tenant_id, .user = users[0][0].as<std::int64_t>()};
    });
}

std::vector<user_item> live_user_items(database& db, const user_ids& ids, std::string_view kind) {
    return in_transaction(db, [&](pqxx::work& tx) {
        std::vector<user_item> items;
        const auto rows = tx.exec_params(
            "SELECT ds.kind, i.content FROM datastores ds JOIN items i ON i.tenant_id = $1 AND i.user_id = $2 "
            "AND i.datastore_id = ds.datastore_id WHERE ds.tenant_id = $1 AND ds.user_id = $2 AND NOT i.deleted "
            "AND ($3 = '' OR ds.kind = $3) ORDER BY ds.kind, i.item_id",
            ids.tenant, ids.user, std::string(kind));
        for (const auto& row : rows) {
            items.push_back({.kind = row["kind"].as<std::string>(), .content = row["content"].as<std::string>()});
        }
        return items;
    });
}

}  // namespace syncml::persistence
