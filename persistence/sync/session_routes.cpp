#include "persistence/sync/session_routes.hpp"

#include "persistence/pg/detail/autocommit.hpp"

namespace syncml::persistence {

namespace {

// Only one user's starts of the device within the window, one of them of this SessionID, name that user: while
// another user's may be live, a message without token or credentials could be that user's phone, whatever its
// SessionID says (a row names a user's latest SessionID only). Rows of session_routes, which servers of the version
// before 0027 write instead, count as such starts (a rollout). Both tables live on the shard of the device key.
constexpr const char* k_route_user =
    "WITH recent AS (SELECT user_id, syncml_session_id = $3 AS same FROM session_starts "
    "WHERE tenant_id = $1 AND device_key = syncml_device_key($1, $2) AND device_uri = $2 "
    "AND started_at > now() - make_interval(secs => $4) "
    "UNION ALL SELECT user_id, false FROM session_routes "
    "WHERE tenant_id = $1 AND device_key = syncml_device_key($1, $2) AND device_uri = $2 "
    "AND updated_at > now() - make_interval(secs => $4)) "
    "SELECT CASE WHEN count(DISTINCT user_id) = 1 AND bool_or(same) THEN max(user_id) ELSE 0 END FROM recent";

// Rewritten for another SessionID or once the recorded start is an hour old ($5 seconds), so that most messages
// with credentials write nothing. (Citus takes only IMMUTABLE expressions in an upsert's update: timestamptz minus
// timestamptz is one, timestamptz minus interval is not.)
constexpr const char* k_record_start =
    "INSERT INTO session_starts AS s (device_key, tenant_id, device_uri, user_id, syncml_session_id, started_at) "
    "VALUES (syncml_device_key($1, $2), $1, $2, $3, $4, now()) "
    "ON CONFLICT (tenant_id, device_key, device_uri, user_id) DO UPDATE SET "
    "syncml_session_id = EXCLUDED.syncml_session_id, started_at = EXCLUDED.started_at "
    "WHERE s.syncml_session_id <> EXCLUDED.syncml_session_id "
    "OR EXCLUDED.started_at - s.started_at > make_interval(secs => $5)";

}  // namespace

std::int64_t session_route_user(database& db, std::int64_t tenant, const std::string& device_uri,
                                const std::string& session_id, std::chrono::seconds window) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        const auto rows =
            detail::exec_sql(tx, k_route_user, tenant, device_uri, session_id, static_cast<double>(window.count()));
        return rows.empty() ? std::int64_t{0} : rows[0][0].as<std::int64_t>();
    });
}

void record_session_start(database& db, std::int64_t tenant, const std::string& device_uri, std::int64_t user,
                          const std::string& session_id) {
    detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        detail::exec_sql0(tx, k_record_start, tenant, device_uri, user, session_id,
                          static_cast<double>(k_session_start_refresh.count()));
    });
}

}  // namespace syncml::persistence
