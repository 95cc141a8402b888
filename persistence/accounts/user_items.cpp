#include "persistence/accounts/user_items.hpp"

#include "persistence/accounts/detail/account_lookup.hpp"

namespace syncml::persistence {

user_ids require_user(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = detail::require_tenant_id(tx, tenant);
        return user_ids{.tenant = tenant_id, .user = detail::require_user_id(tx, tenant_id, tenant, user)};
    });
}

std::vector<user_item> live_user_items(database& db, const user_ids& ids, std::optional<common::item_kind> kind) {
    return in_transaction(db, [&](pqxx::work& tx) {
        std::vector<user_item> items;
        const auto rows = tx.exec_params(
            "SELECT ds.kind, i.content FROM datastores ds JOIN items i ON i.tenant_id = $1 AND i.user_id = $2 "
            "AND i.datastore_id = ds.datastore_id WHERE ds.tenant_id = $1 AND ds.user_id = $2 AND NOT i.deleted "
            "AND ($3 = '' OR ds.kind = $3) ORDER BY ds.kind, i.item_id",
            ids.tenant, ids.user, kind ? std::string(common::datastore_name(*kind)) : std::string());
        for (const auto& row : rows) {
            items.push_back({.kind = row["kind"].as<std::string>(), .content = row["content"].as<std::string>()});
        }
        return items;
    });
}

}  // namespace syncml::persistence
