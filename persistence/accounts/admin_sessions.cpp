#include "persistence/accounts/admin_sessions.hpp"

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/detail/iso_utc.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {
namespace {

// A session row counts once it answered a message; MsgIDs that are no number count as 0 messages. Every user's
// sessions (`rows`: the WHERE clause with $1 the tenant), or one user's ($2), which on a distributed database are on
// the user's shard.
#define SYNCML_LIST_SESSIONS(rows) \
    "SELECT s.session_id, s.syncml_session_id, u.name AS user_name, s.device_uri, " SYNCML_ISO_UTC(                    \
        "s.created_at") " AS started, " SYNCML_ISO_UTC("s.updated_at") " AS last_message, "                            \
    "CASE WHEN s.last_msg_id ~ '^[0-9]{1,18}$' THEN s.last_msg_id::bigint ELSE 0 END AS messages, "                    \
    "s.finished_at IS NOT NULL AS finished "                                                                          \
    "FROM sessions s JOIN users u ON u.tenant_id = s.tenant_id AND u.user_id = s.user_id "                             \
    "WHERE " rows " AND s.expires_at > now() AND coalesce(s.last_msg_id, '') <> '' ORDER BY s.created_at, s.session_id"
constexpr const char* k_list_sessions = SYNCML_LIST_SESSIONS("s.tenant_id = $1");
constexpr const char* k_list_user_sessions =
    SYNCML_LIST_SESSIONS("s.tenant_id = $1 AND s.user_id = $2 AND u.user_id = $2");
#undef SYNCML_LIST_SESSIONS

// The same advisory lock as the sync store's lock_device (sync_store_session_sql.hpp), which every message takes
// before it reads its session.
constexpr const char* k_lock_device =
    "SELECT pg_advisory_xact_lock(hashtextextended($1::bigint::text || '/' || $2, 0))";

std::int64_t tenant_id_of(pqxx::transaction_base& tx, std::string_view tenant) {
    const auto rows = tx.exec_params("SELECT tenant_id FROM tenants WHERE name = $1", std::string(tenant));
    if (rows.empty()) throw not_found("no tenant named '" + std::string(tenant) + "'");
    return rows[0][0].as<std::int64_t>();
}

}  // namespace

std::vector<session_info> list_sessions(database& db, std::string_view tenant, std::string_view user) {
    return in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = tenant_id_of(tx, tenant);
        std::int64_t user_id = 0;
        if (!user.empty()) {
            const auto rows = tx.exec_params(
                "SELECT user_id FROM users WHERE tenant_id = $1 AND user_id = syncml_user_key($1, $2) AND name = $2",
                tenant_id, std::string(user));
            if (rows.empty()) {
                throw not_found("no user '" + std::string(user) + "' in tenant '" + std::string(tenant) + "'");
            }
            user_id = rows[0][0].as<std::int64_t>();
        }
        std::vector<session_info> sessions;
        const auto rows = user_id == 0 ? tx.exec_params(k_list_sessions, tenant_id)
                                       : tx.exec_params(k_list_user_sessions, tenant_id, user_id);
        for (const auto& row : rows) {
            sessions.push_back({.id = row["session_id"].as<std::int64_t>(),
                                .syncml_session_id = row["syncml_session_id"].as<std::string>(),
                                .user = row["user_name"].is_null()
                                            ? std::nullopt
                                            : std::optional<std::string>(row["user_name"].as<std::string>()),
                                .device_uri = row["device_uri"].as<std::string>(),
                                .started = row["started"].as<std::string>(),
                                .last_message = row["last_message"].as<std::string>(),
                                .messages = row["messages"].as<std::int64_t>(),
                                .finished = row["finished"].as<bool>()});
        }
        return sessions;
    });
}

void kill_session(database& db, std::string_view tenant, std::int64_t id) {
    in_transaction(db, [&](pqxx::work& tx) {
        const auto tenant_id = tenant_id_of(tx, tenant);
        // The id alone does not tell the user: this one statement reads every user's sessions.
        const auto found = tx.exec_params(
            "SELECT user_id, device_uri FROM sessions WHERE tenant_id = $1 AND session_id = $2 AND expires_at > now() "
            "AND coalesce(last_msg_id, '') <> ''",
            tenant_id, id);
        if (found.empty()) {
            throw not_found("no live session " + std::to_string(id) + " in tenant '" + std::string(tenant) + "'");
        }
        tx.exec_params(k_lock_device, tenant_id, found[0]["device_uri"].as<std::string>());
        tx.exec_params("DELETE FROM sessions WHERE tenant_id = $1 AND user_id = $2 AND session_id = $3", tenant_id,
                       found[0]["user_id"].as<std::int64_t>(), id);
    });
}

}  // namespace syncml::persistence
