#pragma once
// The janitor's statements (persistence/maintenance/janitor.cpp). Each deletes at most $2 rows of tenant $1.

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

// On a distributed database (persistence/DISTRIBUTED.md) these statements run on every shard, which only the janitor
// may; `FOR UPDATE` across shards is refused there, so rows are chosen without a lock wherever the DELETE itself
// repeats the condition: a row that a worker changed meanwhile is rechecked after the worker's commit and kept.

// SKIP LOCKED: a session some worker holds is in use, whatever its age says. A distributed database refuses it;
// delete_expired_sessions_distributed below is the janitor's statement there.
inline constexpr const char* delete_expired_sessions =
    "DELETE FROM sessions WHERE tenant_id = $1 AND (user_id, session_id) IN "
    "(SELECT user_id, session_id FROM sessions WHERE tenant_id = $1 AND expires_at < now() LIMIT $2 "
    "FOR UPDATE SKIP LOCKED)";
// The same on a distributed schema, which locks no rows across shards: a session a message revives meanwhile waits
// for the message's commit and is then kept by the DELETE's own check of the expiry.
inline constexpr const char* delete_expired_sessions_distributed =
    "DELETE FROM sessions WHERE tenant_id = $1 AND expires_at < now() AND (user_id, session_id) IN "
    "(SELECT user_id, session_id FROM sessions WHERE tenant_id = $1 AND expires_at < now() LIMIT $2)";

// A worker that resumes a session extends its pointer's expiry, which the DELETE checks again.
inline constexpr const char* delete_expired_resume_pointers =
    "DELETE FROM resume_pointers WHERE tenant_id = $1 AND expires_at < now() AND (user_id, device_uri, pointer) IN "
    "(SELECT user_id, device_uri, pointer FROM resume_pointers WHERE tenant_id = $1 AND expires_at < now() LIMIT $2)";

// Also the counters of other users and devices than those the throttle forgets itself (auth_throttle.cpp).
inline constexpr const char* delete_old_auth_failures =
    "DELETE FROM auth_failures WHERE tenant_id = $1 AND window_start < now() - make_interval(secs => $3) "
    "AND last_failure < now() - make_interval(secs => $3) "
    "AND (shard_key, scope, subject) IN (SELECT shard_key, scope, subject FROM auth_failures WHERE tenant_id = $1 "
    "AND window_start < now() - make_interval(secs => $3) AND last_failure < now() - make_interval(secs => $3) "
    "LIMIT $2)";

// DAV client addresses whose last login is older than the 30 days the throttle trusts them for.
inline constexpr const char* delete_old_known_clients =
    "DELETE FROM known_clients WHERE tenant_id = $1 AND last_login < now() - interval '30 days' "
    "AND (user_id, address) IN (SELECT user_id, address FROM known_clients WHERE tenant_id = $1 "
    "AND last_login < now() - interval '30 days' LIMIT $2)";

// Session routes (distributed schema; written by servers of the version before 0027) and recorded session starts
// not refreshed for two days: no session lives longer than one (their refresh is skipped within the hour).
inline constexpr const char* delete_old_session_routes =
    "DELETE FROM session_routes WHERE tenant_id = $1 AND updated_at < now() - interval '2 days' "
    "AND (device_key, device_uri, client_address) IN (SELECT device_key, device_uri, client_address "
    "FROM session_routes WHERE tenant_id = $1 AND updated_at < now() - interval '2 days' LIMIT $2)";
inline constexpr const char* delete_old_session_starts =
    "DELETE FROM session_starts WHERE tenant_id = $1 AND started_at < now() - interval '2 days' "
    "AND (device_key, device_uri, user_id) IN (SELECT device_key, device_uri, user_id "
    "FROM session_starts WHERE tenant_id = $1 AND started_at < now() - interval '2 days' LIMIT $2)";

// All chunks of a device store whose newest chunk is older than $3 seconds.
#define SYNCML_ABANDONED(c)                                                                 \
    "NOT EXISTS (SELECT 1 FROM incoming_chunks n WHERE n.tenant_id = $1 AND n.user_id = " c \
    ".user_id "                                                                             \
    "AND n.device_store_id = " c ".device_store_id AND n.created_at >= now() - make_interval(secs => $3))"
inline constexpr const char* delete_abandoned_chunks =
    "DELETE FROM incoming_chunks o WHERE o.tenant_id = $1 AND " SYNCML_ABANDONED("o")
    " AND (o.user_id, o.device_store_id, o.byte_offset) IN (SELECT c.user_id, c.device_store_id, c.byte_offset "
    "FROM incoming_chunks c WHERE c.tenant_id = $1 AND " SYNCML_ABANDONED("c") " LIMIT $2)";
#undef SYNCML_ABANDONED

// Tombstones past the tenant's retention go, with their mappings (ON DELETE CASCADE). A device store that had not
// seen one of them yet (last_modseq_seen below it) would never learn of that delete: its anchors are cleared so
// that its next sync is slow, as `admin device reset` does; the datastore's purged_modseq tells DAV sync tokens from
// before the purge (they no longer list every deletion). An item a worker changed meanwhile (undeleted, or deleted
// again) stays. Returns (tombstones, device stores reset).
inline constexpr const char* purge_tombstones =
    "WITH doomed AS (SELECT i.user_id, i.item_id, i.updated_at FROM items i JOIN tenants t ON t.tenant_id = "
    "i.tenant_id "
    "WHERE i.tenant_id = $1 AND i.deleted "
    "AND i.updated_at < now() - make_interval(days => t.tombstone_retention_days) LIMIT $2), "
    "purged AS (DELETE FROM items i USING doomed d WHERE i.tenant_id = $1 AND i.user_id = d.user_id "
    "AND i.item_id = d.item_id AND i.deleted AND i.updated_at = d.updated_at "
    "RETURNING i.user_id, i.datastore_id, i.modseq), "
    "horizon AS (SELECT user_id, datastore_id, max(modseq) AS modseq FROM purged GROUP BY user_id, datastore_id), "
    "marked AS (UPDATE datastores d SET purged_modseq = GREATEST(d.purged_modseq, h.modseq) FROM horizon h "
    "WHERE d.tenant_id = $1 AND d.user_id = h.user_id AND d.datastore_id = h.datastore_id), "
    "reset AS (UPDATE device_stores ds SET client_last_anchor = NULL, server_last_anchor = NULL, "
    "last_modseq_seen = 0, previous_client_anchor = NULL, previous_modseq_seen = 0, needs_slow_sync = true FROM "
    "horizon h WHERE ds.tenant_id = $1 AND ds.user_id = h.user_id "
    "AND ds.datastore_id = h.datastore_id AND ds.last_modseq_seen < h.modseq AND NOT ds.needs_slow_sync "
    "RETURNING ds.device_store_id) "
    "SELECT (SELECT count(*) FROM purged), (SELECT count(*) FROM reset)";

// Collections a DAV client deleted (migrations/0037_collections.sql) whose tombstone retention has passed: their
// tombstones are purged by then (above), and the rows go with what hangs on them (items a device added since, device
// stores, the devices' choices of the collection: their next sync opens the default). Keys have no foreign key.
inline constexpr const char* purge_deleted_collections =
    "WITH doomed AS (SELECT d.user_id, d.datastore_id FROM datastores d JOIN tenants t ON t.tenant_id = d.tenant_id "
    "WHERE d.tenant_id = $1 AND d.deleted_at < now() - make_interval(days => t.tombstone_retention_days) LIMIT $2), "
    "keys AS (DELETE FROM item_match_keys k USING doomed x WHERE k.tenant_id = $1 AND k.user_id = x.user_id "
    "AND k.datastore_id = x.datastore_id) "
    "DELETE FROM datastores d USING doomed x WHERE d.tenant_id = $1 AND d.user_id = x.user_id "
    "AND d.datastore_id = x.datastore_id AND d.deleted_at IS NOT NULL";

}  // namespace syncml::persistence::sql
