#include "persistence/user_items.hpp"

#include "persistence/detail/connection_access.hpp"
#include "persistence/errors.hpp"

namespace syncml::persistence {

user_ids require_user(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto rows = tx.exec_params(
            "SELECT t.tenant_id, u.user_id FROM tenants t LEFT JOIN users u ON u.tenant_id = t.tenant_id "
            "AND u.name = $2 WHERE t.name = $1",
            std::string(tenant), std::string(user));
        if (rows.empty()) throw not_found("no tenant named '" + std::string(tenant) + "'");
        if (rows[0]["user_id"].is_null()) {
            throw not_found("no user '" + std::string(user) + "' in tenant '" + std::string(tenant) + "'");
        }
        return user_ids{.tenant = rows[0]["tenant_id"].as<std::int64_t>(),
                        .user = rows[0]["user_id"].as<std::int64_t>()};
    });
}

std::vector<user_item> live_user_items(database& db, const user_ids& ids, std::string_view kind) {
    return in_transaction(db, [&](pqxx::work& tx) {
        std::vector<user_item> items;
        const auto rows = tx.exec_params(
            "SELECT ds.kind, i.content FROM datastores ds JOIN items i ON i.tenant_id = ds.tenant_id "
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
