#pragma once
// SQL of the per-session part of the sync store (sync_store_session.cpp): devices, sessions, the device lock,
// the token secret.

namespace syncml::persistence::sql {

inline constexpr const char* upsert_device =
    "INSERT INTO devices (tenant_id, user_id, device_uri, last_seen) VALUES ($1, $2, $3, now()) "
    "ON CONFLICT (tenant_id, user_id, device_uri) DO UPDATE SET last_seen = EXCLUDED.last_seen "
    "RETURNING device_id, nonce, devinf";
// $4 is the device's user throughout: every statement names the user whose rows it touches
// (persistence/DISTRIBUTED.md).
inline constexpr const char* set_nonce =
    "UPDATE devices SET nonce = $3 WHERE tenant_id = $1 AND user_id = $4 AND device_id = $2";
inline constexpr const char* set_devinf =
    "UPDATE devices SET devinf = $3, devinf_content_type = 'application/vnd.syncml-devinf+xml', "
    "devinf_updated_at = now() WHERE tenant_id = $1 AND user_id = $4 AND device_id = $2";

// One advisory lock key per (tenant, device); a hash collision only serializes two devices a little. Held until
// the transaction ends, so a killed server instance or a failed transaction never leaves a device locked.
inline constexpr const char* lock_device =
    "SELECT pg_advisory_xact_lock(hashtextextended($1::bigint::text || '/' || $2, 0))";

// A session row `s` with its device `d` and whether an authenticated session of the device started after it.
// Only rows that answered a message count. `owner` is the number of the owner parameter, named on every table rather
// than through s.user_id: a distributed database locks rows (FOR UPDATE) only in a statement it can route.
#define SYNCML_SESSION_COLUMNS(owner)                                                                          \
    "SELECT s.session_id, s.syncml_session_id, s.device_uri, s.user_id, s.state, "                             \
    "coalesce(s.last_msg_id, ''), coalesce(s.last_response, '\\x'::bytea), "                                   \
    "coalesce(s.last_response_content_type, ''), coalesce(d.device_id, 0), coalesce(d.user_id, 0), d.nonce, "  \
    "d.devinf, EXISTS (SELECT 1 FROM sessions o WHERE o.tenant_id = s.tenant_id AND o.user_id = " owner        \
    " "                                                                                                        \
    "AND o.device_uri = s.device_uri AND o.syncml_session_id <> s.syncml_session_id AND o.expires_at > now() " \
    "AND coalesce(o.last_msg_id, '') <> '' AND o.created_at > s.created_at), "                                 \
    "coalesce(s.last_request_digest, '\\x'::bytea) AS r_last_request_digest "
#define SYNCML_SESSION_DEVICE_JOIN(owner) \
    "LEFT JOIN devices d ON d.tenant_id = s.tenant_id AND d.user_id = " owner " AND d.device_id = s.device_id "

inline constexpr const char* lock_session = SYNCML_SESSION_COLUMNS("$4")
    "FROM sessions s " SYNCML_SESSION_DEVICE_JOIN("$4")
    "WHERE s.tenant_id = $1 AND s.user_id = $4 AND s.device_uri = $2 AND s.syncml_session_id = $3 "
    "AND s.expires_at > now() "
    "FOR UPDATE OF s";
inline constexpr const char* lock_session_key =
    SYNCML_SESSION_COLUMNS("$3") "FROM sessions s " SYNCML_SESSION_DEVICE_JOIN("$3")
                           "WHERE s.tenant_id = $1 AND s.user_id = $3 AND s.session_id = $2 AND s.expires_at > now() "
                           "FOR UPDATE OF s";
inline constexpr const char* create_session =
    "INSERT INTO sessions (tenant_id, user_id, device_uri, syncml_session_id, expires_at) "
    "VALUES ($1, $4, $2, $3, now() + interval '30 minutes') "
    "ON CONFLICT (tenant_id, user_id, device_uri, syncml_session_id) DO UPDATE SET state = '\\x', "
    "device_id = NULL, last_msg_id = NULL, last_response = NULL, last_response_content_type = NULL, "
    "last_request_digest = NULL, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, "
    "expires_at = EXCLUDED.expires_at RETURNING session_id";

// A session expires 25 to 30 minutes after its last message (migrations/0023_user_keys.sql): the expiry (an indexed
// column) moves only when it is 5 minutes old, so the other messages of a session update its row in place (HOT: no
// new index entries). Otherwise every message would add entries to every index of the table, and lookups and
// uniqueness checks of a busy device would wade through its dead row versions until vacuum.
inline constexpr const char* save_session =
    "SELECT syncml_save_session($1, $2, $3, $4, $5, $6, $7, $8::bigint, $9, $10, $11, $12)";

// Device lock, session row and (when due) device row in one round trip: migrations/0010_session_binding.sql,
// 0013_tenant_session_limit.sql and 0023_user_keys.sql ($12: the owner, the user of the credentials or the token).
inline constexpr const char* open_message_session =
    "SELECT * FROM syncml_open_session($12::bigint, $1, $2, $3, NULLIF($4::bigint, 0), $5, $6::bigint, $7, $8::float8, "
    "$9::float8, $10::integer, $11::integer)";

// The user's datastore of a kind, the device's view of it and, with a session ($8 not empty), the resume pointer of
// the row named $7 || device store id, in one round trip (migrations/0025_open_device_store_function.sql, 0026; $2: the
// owner). No row: the datastore's name is taken by another kind (the caller's long way reports it).
inline constexpr const char* open_device_store =
    "SELECT * FROM syncml_open_device_store($2::bigint, $1, $3::bigint, $4, $5, $6, $7, $8)";
// The same on the collection the device's datastore syncs ($9: the name its URI gives, '' for none;
// migrations/functions/syncml_open_collection_store.sql, issue 38): one row with device store id 0 when that
// collection does not exist or takes no items of the kind.
inline constexpr const char* open_collection_store =
    "SELECT * FROM syncml_open_collection_store($2::bigint, $1, $3::bigint, $4, $9, $5, $6, $7, $8)";

// The resume pointer of a device store (see sync_store::set_resume_pointer), created or moved to another session. It
// lasts as long as any session may (30 minutes past the last message, up to session_max_age of at most 24 hours,
// migrations/0026_resume_pointer_lifetime.sql); the session's row says whether it can still be continued.
#define SYNCML_SET_RESUME_POINTER(values)                                                                          \
    "INSERT INTO resume_pointers (tenant_id, user_id, device_uri, pointer, syncml_session_id, expires_at) " values \
    " ON CONFLICT (tenant_id, user_id, device_uri, pointer) DO UPDATE SET syncml_session_id = "                    \
    "EXCLUDED.syncml_session_id, expires_at = EXCLUDED.expires_at"
inline constexpr const char* set_resume_pointer =
    SYNCML_SET_RESUME_POINTER("VALUES ($1, $5, $2, $3, $4, now() + interval '24 hours 30 minutes')");

// The live session a live resume pointer `p` names, both locked.
inline constexpr const char* lock_pointed_session = SYNCML_SESSION_COLUMNS("$4")
    "FROM resume_pointers p JOIN sessions s ON s.tenant_id = p.tenant_id AND s.user_id = p.user_id "
    "AND s.device_uri = p.device_uri AND s.syncml_session_id = p.syncml_session_id " SYNCML_SESSION_DEVICE_JOIN("$4")
    "WHERE p.tenant_id = $1 AND p.user_id = $4 AND s.user_id = $4 AND p.device_uri = $2 AND p.pointer = $3 "
    "AND p.expires_at > now() AND s.expires_at > now() FOR UPDATE OF s, p";

inline constexpr const char* token_secret = "SELECT value FROM server_secrets WHERE name = 'resp_uri_token'";

#undef SYNCML_SET_RESUME_POINTER
#undef SYNCML_SESSION_DEVICE_JOIN
#undef SYNCML_SESSION_COLUMNS

}  // namespace syncml::persistence::sql
