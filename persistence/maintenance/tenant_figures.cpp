#include "persistence/maintenance/tenant_figures.hpp"

#include <map>

#include "persistence/pg/detail/connection_access.hpp"

namespace syncml::persistence {

namespace {

// Grouped by tenant_id, each a plain aggregate a distributed database runs on every shard and merges.
constexpr const char* k_tenants = "SELECT tenant_id, name, max_sessions FROM tenants";
constexpr const char* k_users = "SELECT tenant_id, count(*) FROM users GROUP BY tenant_id";
constexpr const char* k_devices =
    "SELECT tenant_id, count(*), count(*) FILTER (WHERE last_seen > now() - interval '1 hour') FROM devices "
    "GROUP BY tenant_id";
constexpr const char* k_stored_bytes = "SELECT tenant_id, sum(stored_bytes) FROM datastores GROUP BY tenant_id";
// The conditions of count_live_sessions (persistence/sync/tenant_sessions.cpp), for all tenants at once.
constexpr const char* k_live_sessions =
    "SELECT tenant_id, count(*) FROM sessions WHERE finished_at IS NULL AND user_id IS NOT NULL "
    "AND created_at > now() - make_interval(secs => $1) AND updated_at > now() - interval '10 minutes' "
    "AND expires_at > now() GROUP BY tenant_id";
// One row per user at 90% of the quota or more; tenants is a reference table, joined on every shard.
constexpr const char* k_users_near_quota =
    "SELECT d.tenant_id, d.user_id FROM datastores d JOIN tenants t ON t.tenant_id = d.tenant_id "
    "WHERE t.max_user_bytes > 0 GROUP BY d.tenant_id, d.user_id, t.max_user_bytes "
    "HAVING sum(d.stored_bytes) >= 0.9 * t.max_user_bytes";

using by_tenant = std::map<std::int64_t, tenant_figures>;

// Adds column `column` of each row of `rows` (tenant_id first) to the figure `field` of its tenant.
void add_column(by_tenant& figures, const pqxx::result& rows, int column, std::int64_t tenant_figures::*field) {
    for (const auto& row : rows) {
        const auto found = figures.find(row[0].as<std::int64_t>());
        if (found != figures.end()) found->second.*field += row[column].as<std::int64_t>(0);
    }
}

}  // namespace

std::vector<tenant_figures> read_tenant_figures(database& db, std::chrono::seconds session_max_age) {
    const auto figures = in_transaction(db, [&](pqxx::work& tx) {
        by_tenant out;
        for (const auto& row : tx.exec(k_tenants)) {
            out[row["tenant_id"].as<std::int64_t>()] = tenant_figures{
                .tenant = row["name"].as<std::string>(), .max_sessions = row["max_sessions"].as<std::int64_t>()};
        }
        add_column(out, tx.exec(k_users), 1, &tenant_figures::users);
        const auto devices = tx.exec(k_devices);
        add_column(out, devices, 1, &tenant_figures::devices);
        add_column(out, devices, 2, &tenant_figures::active_devices);
        add_column(out, tx.exec(k_stored_bytes), 1, &tenant_figures::stored_bytes);
        add_column(out, tx.exec_params(k_live_sessions, static_cast<double>(session_max_age.count())), 1,
                   &tenant_figures::live_sessions);
        for (const auto& row : tx.exec(k_users_near_quota)) {
            const auto found = out.find(row[0].as<std::int64_t>());
            if (found != out.end()) ++found->second.users_near_quota;
        }
        return out;
    });
    std::vector<tenant_figures> list;
    list.reserve(figures.size());
    for (const auto& [id, figure] : figures) list.push_back(figure);
    return list;
}

}  // namespace syncml::persistence
