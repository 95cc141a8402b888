#include "persistence/session_guard.hpp"

#include "persistence/detail/autocommit.hpp"

namespace syncml::persistence {
namespace {

// One advisory lock key per (tenant, device); a hash collision only serializes two devices a little.
constexpr const char* k_lock_device = "SELECT pg_advisory_lock(hashtextextended($1::bigint::text || '/' || $2, 0))";
constexpr const char* k_unlock_device = "SELECT pg_advisory_unlock(hashtextextended($1::bigint::text || '/' || $2, 0))";

// Only rows that answered a message count: the engine keeps other per-device rows (resume state) there too.
constexpr const char* k_superseded =
    "SELECT EXISTS (SELECT 1 FROM sessions s WHERE s.tenant_id = $1 AND s.device_uri = $2 "
    "AND s.syncml_session_id <> $3 AND s.user_id IS NOT NULL AND s.expires_at > now() "
    "AND coalesce(s.last_msg_id, '') <> '' "
    "AND s.created_at > (SELECT created_at FROM sessions WHERE tenant_id = $1 AND device_uri = $2 "
    "AND syncml_session_id = $3))";

constexpr const char* k_mark_finished =
    "UPDATE sessions SET finished_at = clock_timestamp() WHERE tenant_id = $1 AND session_id = $2";

}  // namespace

void pg_session_guard::lock_device(std::int64_t tenant, const std::string& device_uri) {
    detail::autocommit(db_, [&](pqxx::nontransaction& tx) { tx.exec_params(k_lock_device, tenant, device_uri); });
}

void pg_session_guard::unlock_device(std::int64_t tenant, const std::string& device_uri) {
    detail::autocommit(db_, [&](pqxx::nontransaction& tx) { tx.exec_params(k_unlock_device, tenant, device_uri); });
}

bool pg_session_guard::superseded(std::int64_t tenant, const std::string& device_uri, const std::string& session_id) {
    return detail::autocommit(db_, [&](pqxx::nontransaction& tx) {
        return tx.exec_params1(k_superseded, tenant, device_uri, session_id)[0].as<bool>();
    });
}

void pg_session_guard::mark_finished(std::int64_t tenant, std::int64_t session_key) {
    detail::autocommit(db_, [&](pqxx::nontransaction& tx) { tx.exec_params0(k_mark_finished, tenant, session_key); });
}

}  // namespace syncml::persistence
