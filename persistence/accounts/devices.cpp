#include "persistence/accounts/devices.hpp"

#include "persistence/accounts/detail/account_lookup.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {

namespace {

using detail::require_tenant_id;
using detail::require_user_id;

// The user's sessions on the device and the device's resume pointers (migration 0023: a table of their own).
void delete_device_sessions(pqxx::transaction_base& tx, std::int64_t tenant_id, std::int64_t user_id,
                            std::string_view device_uri) {
    tx.exec_params0("DELETE FROM sessions WHERE tenant_id = $1 AND user_id = $2 AND device_uri = $3", tenant_id,
                    user_id, std::string(device_uri));
    tx.exec_params0("DELETE FROM resume_pointers WHERE tenant_id = $1 AND user_id = $2 AND device_uri = $3", tenant_id,
                    user_id, std::string(device_uri));
}

}  // namespace

std::vector<device_info> list_devices(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto user_id = require_user_id(tx, tenant_id, tenant, user);
        std::vector<device_info> devices;
        const auto rows = tx.exec_params(
            "SELECT d.device_id, d.device_uri, "
            "to_char(d.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
            "(SELECT count(*) FROM device_stores s WHERE s.tenant_id = $1 AND s.user_id = $2 AND s.device_id = "
            "d.device_id) "
            "FROM devices d WHERE d.tenant_id = $1 AND d.user_id = $2 ORDER BY d.device_uri",
            tenant_id, user_id);
        for (const auto& row : rows) {
            device_info device;
            device.id = row[0].as<std::int64_t>();
            device.device_uri = row[1].as<std::string>();
            if (!row[2].is_null()) device.last_seen = row[2].as<std::string>();
            device.stores = row[3].as<int>();
            devices.push_back(std::move(device));
        }
        return devices;
    });
}

// The device id may belong to several users: each user's device is reset by statements bound to that user (on a
// distributed database, on the user's shard); only finding them reads every user.
int reset_device(database& db, std::string_view tenant, std::string_view device_uri) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto devices =
            tx.exec_params("SELECT user_id, device_id FROM devices WHERE tenant_id = $1 AND device_uri = $2", tenant_id,
                           std::string(device_uri));
        int reset = 0;
        for (const auto& device : devices) {
            const auto user_id = device["user_id"].as<std::int64_t>();
            const auto device_id = device["device_id"].as<std::int64_t>();
            if (tx.exec_params("SELECT 1 FROM devices WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3 "
                               "FOR UPDATE",
                               tenant_id, user_id, device_id)
                    .empty()) {
                continue;  // deleted meanwhile
            }
            tx.exec_params0(
                "UPDATE device_stores SET client_last_anchor = NULL, server_last_anchor = NULL, last_modseq_seen = 0, "
                "previous_client_anchor = NULL, previous_modseq_seen = 0, needs_slow_sync = true "
                "WHERE tenant_id = $1 AND user_id = $2 AND device_id = $3",
                tenant_id, user_id, device_id);
            delete_device_sessions(tx, tenant_id, user_id, device_uri);
            ++reset;
        }
        if (reset == 0) {
            throw not_found("no device '" + std::string(device_uri) + "' in tenant '" + std::string(tenant) + "'");
        }
        return reset;
    });
}

void delete_device(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri) {
    in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = require_tenant_id(tx, tenant);
        const auto user_id = require_user_id(tx, tenant_id, tenant, user);
        const auto deleted = tx.exec_params(
            "DELETE FROM devices WHERE tenant_id = $1 AND user_id = $2 AND device_uri = $3 RETURNING device_id",
            tenant_id, user_id, std::string(device_uri));
        if (deleted.empty()) {
            throw not_found("user '" + std::string(user) + "' has no device '" + std::string(device_uri) + "'");
        }
        delete_device_sessions(tx, tenant_id, user_id, device_uri);
    });
}

}  // namespace syncml::persistence
