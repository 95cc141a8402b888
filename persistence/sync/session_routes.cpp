#include "persistence/sync/session_routes.hpp"

#include "persistence/pg/detail/autocommit.hpp"

namespace syncml::persistence {

namespace {

// Only one user's starts of the device at the client's address ($5) within the window, one of them of this
// SessionID, name that user: while another user's may be live there, a message without token or credentials could be
// that user's phone, whatever its SessionID says (a row names a user's latest SessionID only). Elsewhere only another
// user's start of this SessionID that began before hers counts (his phone could have moved here): a later one cannot
// be the sender, so no co-user stops her phone's continuation from elsewhere. Rows of session_routes, which servers
// of the version before 0027 write instead, count as starts at their address (a rollout). Both tables live on the
// shard of the device key.
constexpr const char* k_route_user =
    "WITH recent AS (SELECT user_id, syncml_session_id = $3 AS same, client_address = $5 AS here, "
    "coalesce(since, started_at) AS since FROM session_starts "
    "WHERE tenant_id = $1 AND device_key = syncml_device_key($1, $2) AND device_uri = $2 "
    "AND started_at > now() - make_interval(secs => $4) "
    "UNION ALL SELECT user_id, false, true, updated_at FROM session_routes "
    "WHERE tenant_id = $1 AND device_key = syncml_device_key($1, $2) AND device_uri = $2 AND client_address = $5 "
    "AND updated_at > now() - make_interval(secs => $4)), "
    "mine AS (SELECT user_id, since FROM recent WHERE here AND same) "
    "SELECT CASE WHEN (SELECT count(DISTINCT user_id) FROM recent WHERE here) = 1 AND (SELECT count(*) FROM mine) = 1 "
    "AND NOT EXISTS (SELECT 1 FROM recent r, mine m WHERE r.user_id <> m.user_id AND r.same AND r.since < m.since) "
    "THEN (SELECT user_id FROM mine) ELSE 0 END";

// Rewritten for another SessionID or address, or once the recorded start is an hour old ($6 seconds), so that most
// messages with credentials write nothing; `since` moves only with the SessionID. (Citus takes only IMMUTABLE
// expressions in an upsert's update: timestamptz minus timestamptz is one, timestamptz minus interval is not.)
constexpr const char* k_record_start =
    "INSERT INTO session_starts AS s (device_key, tenant_id, device_uri, user_id, syncml_session_id, client_address, "
    "started_at, since) VALUES (syncml_device_key($1, $2), $1, $2, $3, $4, $5, now(), now()) "
    "ON CONFLICT (tenant_id, device_key, device_uri, user_id) DO UPDATE SET "
    "since = CASE WHEN s.syncml_session_id = EXCLUDED.syncml_session_id THEN coalesce(s.since, s.started_at) "
    "ELSE EXCLUDED.since END, "
    "syncml_session_id = EXCLUDED.syncml_session_id, client_address = EXCLUDED.client_address, "
    "started_at = EXCLUDED.started_at "
    "WHERE s.syncml_session_id <> EXCLUDED.syncml_session_id OR s.client_address <> EXCLUDED.client_address "
    "OR EXCLUDED.started_at - s.started_at > make_interval(secs => $6)";

}  // namespace

std::int64_t session_route_user(database& db, std::int64_t tenant, const std::string& device_uri,
                                const std::string& session_id, const std::string& address,
                                std::chrono::seconds window) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        const auto rows = detail::exec_sql(tx, k_route_user, tenant, device_uri, session_id,
                                           static_cast<double>(window.count()), address);
        return rows.empty() ? std::int64_t{0} : rows[0][0].as<std::int64_t>();
    });
}

void record_session_start(database& db, std::int64_t tenant, const std::string& device_uri, std::int64_t user,
                          const std::string& session_id, const std::string& address) {
    detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        detail::exec_sql0(tx, k_record_start, tenant, device_uri, user, session_id, address,
                          static_cast<double>(k_session_start_refresh.count()));
    });
}

}  // namespace syncml::persistence
