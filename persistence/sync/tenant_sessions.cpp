#include "persistence/sync/tenant_sessions.hpp"

#include "persistence/pg/detail/autocommit.hpp"

namespace syncml::persistence {

namespace {
// `user_id IS NOT NULL` is always true; it lets the planner use the partial index sessions_unfinished.
constexpr const char* k_count_live_sessions =
    "SELECT count(*) FROM (SELECT 1 FROM sessions WHERE tenant_id = $1 AND finished_at IS NULL "
    "AND user_id IS NOT NULL AND created_at > now() - make_interval(secs => $3) AND updated_at > now() - interval '10 "
    "minutes' "
    "AND expires_at > now() LIMIT $2) AS live";
}  // namespace

std::int64_t count_live_sessions(database& db, std::int64_t tenant, std::int64_t limit, std::chrono::seconds max_age) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        return tx.exec_params1(k_count_live_sessions, tenant, limit, static_cast<double>(max_age.count()))[0]
            .as<std::int64_t>();
    });
}

}  // namespace syncml::persistence
