#include "persistence/session_routes.hpp"

#include "persistence/detail/autocommit.hpp"

namespace syncml::persistence {

namespace {

constexpr const char* k_route_user =
    "SELECT user_id FROM session_routes WHERE tenant_id = $1 AND device_key = syncml_device_key($1, $2) "
    "AND device_uri = $2 AND client_address = $3";

// A route is written when a session starts or moves, but rewritten only for another user or once an hour (stale_at):
// most sessions start on a device and address whose route is there. (Citus takes no function that is not
// IMMUTABLE in the WHERE of an upsert, hence the stored time instead of interval arithmetic.)
constexpr const char* k_record_route =
    "INSERT INTO session_routes AS r (device_key, tenant_id, device_uri, client_address, user_id, updated_at, "
    "stale_at) VALUES (syncml_device_key($1, $2), $1, $2, $3, $4, now(), now() + interval '1 hour') "
    "ON CONFLICT (tenant_id, device_key, device_uri, client_address) DO UPDATE SET user_id = EXCLUDED.user_id, "
    "updated_at = EXCLUDED.updated_at, stale_at = EXCLUDED.stale_at "
    "WHERE r.user_id <> EXCLUDED.user_id OR r.stale_at < EXCLUDED.updated_at";

}  // namespace

std::int64_t session_route_user(database& db, std::int64_t tenant, const std::string& device_uri,
                                const std::string& address) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        const auto rows = detail::exec_sql(tx, k_route_user, tenant, device_uri, address);
        return rows.empty() ? std::int64_t{0} : rows[0][0].as<std::int64_t>();
    });
}

void record_session_route(database& db, std::int64_t tenant, const std::string& device_uri, const std::string& address,
                          std::int64_t user) {
    detail::autocommit(db, [&](pqxx::nontransaction& tx) {
        detail::exec_sql0(tx, k_record_route, tenant, device_uri, address, user);
    });
}

}  // namespace syncml::persistence
