#pragma once
// The janitor's statements (persistence/janitor.cpp). Each deletes at most $2 rows of tenant $1.

namespace syncml::persistence::sql {

inline constexpr const char* take_janitor_lease =
    "UPDATE janitor_lease SET holder = $1, expires_at = now() + make_interval(secs => $2) "
    "WHERE expires_at < now() OR holder = $1 RETURNING holder";

// The audit log is the operator's, not a tenant's (migrations/0017_admin_api.sql): at most $1 entries older than $2
// seconds.
inline constexpr const char* delete_old_audit_entries =
    "DELETE FROM admin_audit WHERE audit_id IN (SELECT audit_id FROM admin_audit "
    "WHERE at < now() - make_interval(secs => $2) ORDER BY audit_id LIMIT $1)";

inline constexpr const char* release_janitor_lease = "UPDATE janitor_lease SET expires_at = now() WHERE holder = $1";

inline constexpr const char* delete_expired_sessions =
    "DELETE FROM sessions WHERE tenant_id = $1 AND session_id IN "
    "(SELECT session_id FROM sessions WHERE tenant_id = $1 AND expires_at < now() LIMIT $2 "
    "FOR UPDATE SKIP LOCKED)";

inline constexpr const char* delete_old_auth_failures =
    "DELETE FROM auth_failures WHERE tenant_id = $1 AND (scope, subject) IN "
    "(SELECT scope, subject FROM auth_failures WHERE tenant_id = $1 "
    "AND window_start < now() - make_interval(secs => $3) LIMIT $2 FOR UPDATE SKIP LOCKED)";

// DAV client addresses whose last login is older than the 30 days the throttle trusts them for.
inline constexpr const char* delete_old_known_clients =
    "DELETE FROM known_clients WHERE tenant_id = $1 AND (user_id, address) IN "
    "(SELECT user_id, address FROM known_clients WHERE tenant_id = $1 "
    "AND last_login < now() - interval '30 days' LIMIT $2 FOR UPDATE SKIP LOCKED)";

// All chunks of a device store whose newest chunk is older than $3 seconds.
inline constexpr const char* delete_abandoned_chunks =
    "DELETE FROM incoming_chunks WHERE tenant_id = $1 AND (device_store_id, byte_offset) IN "
    "(SELECT c.device_store_id, c.byte_offset FROM incoming_chunks c WHERE c.tenant_id = $1 AND NOT EXISTS "
    "(SELECT 1 FROM incoming_chunks n WHERE n.tenant_id = $1 AND n.device_store_id = c.device_store_id "
    "AND n.created_at >= now() - make_interval(secs => $3)) LIMIT $2 FOR UPDATE SKIP LOCKED)";

// Tombstones past the tenant's retention go, with their mappings (ON DELETE CASCADE). A device store that had not
// seen one of them yet (last_modseq_seen below it) would never learn of that delete: its anchors are cleared so
// that its next sync is slow, as `admin device reset` does; the datastore's purged_modseq tells DAV sync tokens from
// before the purge (they no longer list every deletion). Returns (tombstones, device stores reset).
inline constexpr const char* purge_tombstones =
    "WITH doomed AS (SELECT i.item_id FROM items i JOIN tenants t ON t.tenant_id = i.tenant_id "
    "WHERE i.tenant_id = $1 AND i.deleted "
    "AND i.updated_at < now() - make_interval(days => t.tombstone_retention_days) LIMIT $2 FOR UPDATE OF i SKIP "
    "LOCKED), "
    "purged AS (DELETE FROM items i USING doomed d WHERE i.tenant_id = $1 AND i.item_id = d.item_id "
    "RETURNING i.datastore_id, i.modseq), "
    "horizon AS (SELECT datastore_id, max(modseq) AS modseq FROM purged GROUP BY datastore_id), "
    "marked AS (UPDATE datastores d SET purged_modseq = GREATEST(d.purged_modseq, h.modseq) FROM horizon h "
    "WHERE d.tenant_id = $1 AND d.datastore_id = h.datastore_id), "
    "reset AS (UPDATE device_stores ds SET client_last_anchor = NULL, server_last_anchor = NULL, "
    "last_modseq_seen = 0, previous_client_anchor = NULL, previous_modseq_seen = 0, needs_slow_sync = true FROM "
    "horizon h WHERE ds.tenant_id = $1 "
    "AND ds.datastore_id = h.datastore_id AND ds.last_modseq_seen < h.modseq AND NOT ds.needs_slow_sync "
    "RETURNING ds.device_store_id) "
    "SELECT (SELECT count(*) FROM purged), (SELECT count(*) FROM reset)";

}  // namespace syncml::persistence::sql
