#pragma once
// SQL of the per-session part of the sync store (sync_store_session.cpp): devices, sessions, the token secret.

namespace syncml::persistence::sql {

inline constexpr const char* upsert_device =
    "INSERT INTO devices (tenant_id, user_id, device_uri, last_seen) VALUES ($1, $2, $3, now()) "
    "ON CONFLICT (tenant_id, user_id, device_uri) DO UPDATE SET last_seen = now() "
    "RETURNING device_id, nonce, devinf";
inline constexpr const char* set_nonce = "UPDATE devices SET nonce = $3 WHERE tenant_id = $1 AND device_id = $2";
inline constexpr const char* set_devinf =
    "UPDATE devices SET devinf = $3, devinf_content_type = 'application/vnd.syncml-devinf+xml', "
    "devinf_updated_at = now() WHERE tenant_id = $1 AND device_id = $2";

inline constexpr const char* session_columns =
    "SELECT session_id, syncml_session_id, device_uri, coalesce(user_id, 0), state, coalesce(last_msg_id, ''), "
    "coalesce(last_response, '\\x'::bytea), coalesce(last_response_content_type, '') FROM sessions ";
inline constexpr const char* lock_session_where =
    "WHERE tenant_id = $1 AND device_uri = $2 AND syncml_session_id = $3 AND expires_at > now() FOR UPDATE";
inline constexpr const char* lock_session_key_where =
    "WHERE tenant_id = $1 AND session_id = $2 AND expires_at > now() FOR UPDATE";
inline constexpr const char* create_session =
    "INSERT INTO sessions (tenant_id, device_uri, syncml_session_id, expires_at) "
    "VALUES ($1, $2, $3, now() + interval '30 minutes') "
    "ON CONFLICT (tenant_id, device_uri, syncml_session_id) DO UPDATE SET state = '\\x', user_id = NULL, "
    "device_id = NULL, last_msg_id = NULL, last_response = NULL, last_response_content_type = NULL, "
    "created_at = now(), updated_at = now(), expires_at = now() + interval '30 minutes' RETURNING session_id";
inline constexpr const char* save_session =
    "UPDATE sessions SET user_id = NULLIF($3::bigint, 0), state = $4, last_msg_id = $5, last_response = $6, "
    "last_response_content_type = $7, updated_at = now(), expires_at = now() + interval '30 minutes' "
    "WHERE tenant_id = $1 AND session_id = $2";

inline constexpr const char* token_secret = "SELECT value FROM server_secrets WHERE name = 'resp_uri_token'";

}  // namespace syncml::persistence::sql
