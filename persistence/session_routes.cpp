#include "persistence/session_routes.hpp"

#include "persistence/detail/autocommit.hpp"

namespace syncml::persistence {

namespace {

constexpr const char* k_route_user =
    "SELECT user_id FROM session_routes WHERE tenant_id = $1 AND device_key = syncml_device_key($1, $2) "
    "AND device_uri = $2 AND syncml_session_id = $3";

// Written when a session starts, so once per session: a SessionID used again later refreshes its route's age,
// which the janitor goes by. (Citus takes no interval arithmetic in the WHERE of an upsert: not IMMUTABLE.)
constexpr const char* k_record_route =
    "INSERT INTO session_routes AS r (device_key, tenant_id, device_uri, syncml_session_id, user_id, updated_at) "
    "VALUES (syncml_device_key($1, $2), $1, $2, $3, $4, now()) "
    "ON CONFLICT (tenant_id, device_key, device_uri, syncml_session_id) DO UPDATE SET user_id = EXCLUDED.user_id, "
    "updated_at = EXCLUDED.updated_at "
    "WHERE r.user_id <> EXCLUDED.user_id OR r.updated_at < EXCLUDED.updated_at";

}  // namespace

std::int64_t session_route_user(database& db, std::int64_t tenant, const std::string& device_uri,
                                const std::string& session_id) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        const auto rows = detail::exec_sql(tx, k_route_user, tenant, device_uri, session_id);
        return rows.empty() ? std::int64_t{0} : rows[0][0].as<std::int64_t>();
    });
}

void record_session_route(database& db, std::int64_t tenant, const std::string& device_uri,
                          const std::string& session_id, std::int64_t user) {
    detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        detail::exec_sql0(tx, k_record_route, tenant, device_uri, session_id, user);
    });
}

}  // namespace syncml::persistence
