#include "persistence/accounts/admin_audit.hpp"

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/detail/iso_utc.hpp"

namespace syncml::persistence {
namespace {

constexpr const char* k_insert =
    "INSERT INTO admin_audit (actor, action, tenant, target, result) VALUES ($1, $2, NULLIF($3, ''), NULLIF($4, ''), "
    "$5)";

constexpr const char* k_list =
    "SELECT audit_id, " SYNCML_ISO_UTC("at") " AS at, actor, action, coalesce(tenant, '') AS tenant, "
    "coalesce(target, '') AS target, result FROM admin_audit WHERE ($1 = '' OR tenant = $1) "
    "ORDER BY audit_id DESC LIMIT $2";

}  // namespace

void record_audit(database& db, const audit_entry& entry) {
    in_transaction(db, [&](pqxx::work& tx) {
        tx.exec_params(k_insert, entry.actor, entry.action, entry.tenant, entry.target, entry.result);
    });
}

std::vector<audit_record> list_audit(database& db, std::string_view tenant, int limit) {
    return in_transaction(db, [&](pqxx::work& tx) {
        std::vector<audit_record> records;
        for (const auto& row : tx.exec_params(k_list, std::string(tenant), limit)) {
            records.push_back({.id = row["audit_id"].as<std::int64_t>(),
                               .at = row["at"].as<std::string>(),
                               .entry = {.actor = row["actor"].as<std::string>(),
                                         .action = row["action"].as<std::string>(),
                                         .tenant = row["tenant"].as<std::string>(),
                                         .target = row["target"].as<std::string>(),
                                         .result = row["result"].as<std::string>()}});
        }
        return records;
    });
}

}  // namespace syncml::persistence
