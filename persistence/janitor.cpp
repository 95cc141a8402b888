#include "persistence/janitor.hpp"

#include <cstdint>
#include <vector>

#include "persistence/detail/connection_access.hpp"

namespace syncml::persistence {

namespace {

constexpr const char* k_delete_expired_batch =
    "DELETE FROM sessions WHERE tenant_id = $1 AND session_id IN "
    "(SELECT session_id FROM sessions WHERE tenant_id = $1 AND expires_at < now() LIMIT $2 "
    "FOR UPDATE SKIP LOCKED)";

}  // namespace

std::size_t delete_expired_sessions(database& db, std::size_t batch) {
    if (batch == 0) batch = 1;
    const auto tenants = in_transaction(db, [](pqxx::work& tx) {
        std::vector<std::int64_t> ids;
        for (const auto& row : tx.exec("SELECT tenant_id FROM tenants")) ids.push_back(row[0].as<std::int64_t>());
        return ids;
    });
    std::size_t deleted = 0;
    for (const auto tenant : tenants) {
        for (;;) {
            // SKIP LOCKED: a session some worker holds is in use, whatever its expiry says.
            const auto count = in_transaction(db, [&](pqxx::work& tx) {
                return tx.exec_params(k_delete_expired_batch, tenant, static_cast<std::int64_t>(batch)).affected_rows();
            });
            deleted += count;
            if (count < batch) break;
        }
    }
    return deleted;
}

}  // namespace syncml::persistence
