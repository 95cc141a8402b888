#include "persistence/sync/device_collections.hpp"

#include <stdexcept>

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

// The device's tenant, user and id, found by the user's key (on a distributed database, on the user's shard).
struct device_key {
    int64_t tenant = 0;
    int64_t user = 0;
    int64_t device = 0;
};

device_key find_device(pqxx::work& tx, std::string_view tenant, std::string_view user, std::string_view device_uri) {
    const auto tenants = tx.exec_params("SELECT tenant_id FROM tenants WHERE name = $1", std::string(tenant));
    const auto rows = tenants.empty()
                          ? pqxx::result()
                          : tx.exec_params(
                                "SELECT d.tenant_id, d.user_id, d.device_id FROM devices d JOIN users u "
                                "ON u.tenant_id = d.tenant_id AND u.user_id = d.user_id WHERE d.tenant_id = $1 "
                                "AND d.user_id = syncml_user_key($1, $2) AND u.user_id = syncml_user_key($1, $2) "
                                "AND u.name = $2 AND d.device_uri = $3",
                                tenants[0][0].as<int64_t>(), std::string(user), std::string(device_uri));
    if (rows.empty()) {
        throw not_found("no device '" + std::string(device_uri) + "' of user '" + std::string(user) + "' in tenant '" +
                        std::string(tenant) + "'");
    }
    return {rows[0][0].as<int64_t>(), rows[0][1].as<int64_t>(), rows[0][2].as<int64_t>()};
}

constexpr const char* k_chosen =
    "SELECT c.kind, split_part(d.name, '/', 1) AS collection, d.deleted_at IS NOT NULL AS deleted "
    "FROM device_collections c JOIN datastores d ON d.tenant_id = c.tenant_id AND d.user_id = c.user_id "
    "AND d.datastore_id = c.datastore_id WHERE c.tenant_id = $1 AND c.user_id = $2 AND c.device_id = $3";

// A live collection: its datastore, its kind and the components it takes ('' for its kind's).
constexpr const char* k_collection =
    "SELECT datastore_id, kind, coalesce(array_to_string(components, ','), '') AS components FROM datastores "
    "WHERE tenant_id = $1 AND user_id = $2 AND name = $3 AND deleted_at IS NULL";

// The created_at of a choice made again is the statement's (EXCLUDED), never now() in the update (a distributed
// database refuses it there).
constexpr const char* k_choose =
    "INSERT INTO device_collections (tenant_id, user_id, device_id, kind, datastore_id) VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT (tenant_id, user_id, device_id, kind) DO UPDATE SET datastore_id = EXCLUDED.datastore_id, "
    "created_at = EXCLUDED.created_at";

constexpr const char* k_unchoose =
    "DELETE FROM device_collections WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3 AND kind = $4";

std::string_view component_of(common::item_kind kind) {
    switch (kind) {
        case common::item_kind::event:
            return "VEVENT";
        case common::item_kind::task:
            return "VTODO";
        case common::item_kind::memo:
            return "VJOURNAL";
        case common::item_kind::contact:
            break;
    }
    return {};
}

// As the opening of a device store judges it: the collection's kind, or a component it takes.
bool takes(const pqxx::row& row, common::item_kind kind) {
    if (row["kind"].as<std::string>() == common::datastore_name(kind)) return true;
    const auto component = component_of(kind);
    const auto components = "," + row["components"].as<std::string>() + ",";
    return !component.empty() && components.find("," + std::string(component) + ",") != std::string::npos;
}

}  // namespace

std::vector<device_collection> device_collections(database& db, std::string_view tenant, std::string_view user,
                                                  std::string_view device_uri) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto key = find_device(tx, tenant, user, device_uri);
        std::vector<device_collection> out;
        for (auto kind :
             {common::item_kind::contact, common::item_kind::event, common::item_kind::task, common::item_kind::memo}) {
            out.push_back({.kind = kind, .collection = std::string(common::datastore_name(kind))});
        }
        for (const auto& row : tx.exec_params(k_chosen, key.tenant, key.user, key.device)) {
            for (auto& c : out) {
                if (common::datastore_name(c.kind) != row["kind"].as<std::string>()) continue;
                c.collection = row["collection"].as<std::string>();
                c.chosen = true;
                c.deleted = row["deleted"].as<bool>();
            }
        }
        return out;
    });
}

void set_device_collection(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri,
                           common::item_kind kind, const std::optional<std::string>& collection) {
    const std::string kind_name(common::datastore_name(kind));
    in_transaction(db, [&](pqxx::work& tx) {
        const auto key = find_device(tx, tenant, user, device_uri);
        if (!collection || *collection == kind_name) {
            tx.exec_params0(k_unchoose, key.tenant, key.user, key.device, kind_name);
            return;
        }
        const auto rows = tx.exec_params(k_collection, key.tenant, key.user, *collection);
        if (rows.empty()) {
            throw not_found("no collection '" + *collection + "' of user '" + std::string(user) + "' in tenant '" +
                            std::string(tenant) + "'");
        }
        if (!takes(rows[0], kind)) {
            throw std::invalid_argument("the collection '" + *collection + "' takes no items of the device's " +
                                        kind_name + " datastore");
        }
        tx.exec_params0(k_choose, key.tenant, key.user, key.device, kind_name, rows[0]["datastore_id"].as<int64_t>());
    });
}

}  // namespace syncml::persistence
