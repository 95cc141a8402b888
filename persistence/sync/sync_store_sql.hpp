#pragma once
// SQL of the protocol engine's repository (sync_store.cpp), as named constants; the per-session statements
// are in sync_store_session_sql.hpp. Every statement names the user who owns its rows, the transaction's owner
// (persistence/DISTRIBUTED.md), as its last parameter where it takes no `user` otherwise.

namespace syncml::persistence::sql {

// The default collection of a kind: the user's lowest live datastore of it (migrations/0037_collections.sql).
inline constexpr const char* find_datastore =
    "SELECT datastore_id FROM datastores WHERE tenant_id = $1 AND user_id = $2 AND kind = $3 AND deleted_at IS NULL "
    "ORDER BY datastore_id LIMIT 1";
inline constexpr const char* create_datastore =
    "INSERT INTO datastores (tenant_id, user_id, name, kind) VALUES ($1, $2, $3, $3) "
    "ON CONFLICT DO NOTHING";
inline constexpr const char* upsert_device_store =
    "INSERT INTO device_stores (tenant_id, user_id, device_id, datastore_id, remote_uri) VALUES ($1, $5, $2, $3, $4) "
    "ON CONFLICT (tenant_id, user_id, device_id, datastore_id, remote_uri) DO UPDATE SET remote_uri = "
    "EXCLUDED.remote_uri "
    "RETURNING device_store_id, coalesce(client_last_anchor, ''), coalesce(server_last_anchor, ''), "
    "last_modseq_seen, needs_slow_sync, sync_filter, coalesce(previous_client_anchor, ''), previous_modseq_seen";
// The sync window in effect for device $2: its own (all four columns set, or none), else its tenant's.
inline constexpr const char* window_of_device =
    "SELECT coalesce(d.window_past_days, t.window_past_days), coalesce(d.window_future_days, t.window_future_days), "
    "coalesce(d.window_max_items, t.window_max_items), "
    "coalesce(d.window_max_photo_bytes, t.window_max_photo_bytes) "
    "FROM devices d JOIN tenants t ON t.tenant_id = d.tenant_id WHERE d.tenant_id = $1 AND d.user_id = $3 "
    "AND d.device_id = $2";
inline constexpr const char* require_slow_sync =
    "UPDATE device_stores SET needs_slow_sync = true WHERE tenant_id = $1 AND user_id = $3 AND device_store_id = $2";
inline constexpr const char* save_device_store =
    "UPDATE device_stores SET previous_client_anchor = client_last_anchor, previous_modseq_seen = last_modseq_seen, "
    "client_last_anchor = $3, server_last_anchor = $4, last_modseq_seen = $5, "
    "needs_slow_sync = $6, sync_filter = $7, content_type = coalesce(nullif($8, ''), content_type), "
    "content_version = CASE WHEN $8 = '' THEN content_version ELSE $9 END, last_sync_at = now() "
    "WHERE tenant_id = $1 AND user_id = $10 AND device_store_id = $2";
// Device $2's views of its owner's datastores, with their kind and remembered format.
inline constexpr const char* device_store_views =
    "SELECT d.device_store_id, d.datastore_id, s.kind, d.remote_uri, coalesce(d.content_type, ''), "
    "coalesce(d.content_version, '') FROM device_stores d JOIN datastores s ON s.tenant_id = d.tenant_id "
    "AND s.user_id = d.user_id AND s.datastore_id = d.datastore_id WHERE d.tenant_id = $1 AND d.user_id = $3 "
    "AND d.device_id = $2 ORDER BY d.device_store_id";

// Locks datastore $2's row until commit, as every item write does when it takes a modseq (below). A statement that
// reads the size of an item it then replaces or deletes runs after this one: every other writer of the datastore has
// committed by then or waits, so the size it reads is the size it replaces. (Under READ COMMITTED a statement that
// waits for the lock itself still reads the items as they were when it began: a concurrent replace of the same item
// would have been counted twice.)
inline constexpr const char* lock_datastore =
    "SELECT 1 FROM datastores WHERE tenant_id = $1 AND user_id = $3 AND datastore_id = $2 FOR NO KEY UPDATE";
// The bytes of the owner's live items: a few datastore rows (migration 0033).
inline constexpr const char* user_stored_bytes =
    "SELECT coalesce(sum(stored_bytes), 0)::bigint FROM datastores WHERE tenant_id = $1 AND user_id = $2";

// The datastore row stays locked until commit: modseqs become visible in the order they were taken. Its stored_bytes
// change by `bytes`, what the write adds to its live items. `owner` is the number of the statement's owner parameter.
#define SYNCML_BUMP(owner, bytes)                                                                 \
    "WITH ds AS (UPDATE datastores SET modseq = modseq + 1, stored_bytes = stored_bytes + " bytes \
    " WHERE tenant_id = $1 AND user_id = " owner " AND datastore_id = $2 RETURNING modseq) "
// The live item $3's content, for the bytes a replace or delete takes away (after sql::lock_datastore).
#define SYNCML_LIVE_CONTENT(owner)                                                 \
    "(SELECT o.content FROM items o WHERE o.tenant_id = $1 AND o.user_id = " owner \
    " AND o.datastore_id = $2 AND o.guid = $3 AND NOT o.deleted)"
inline constexpr const char* add_item = SYNCML_BUMP("$5", "octet_length($4::text)")
    "INSERT INTO items (tenant_id, user_id, datastore_id, content_type, content, modseq) "
    "SELECT $1, $5, $2, $3, $4, ds.modseq FROM ds RETURNING item_id, guid, modseq";
inline constexpr const char* replace_item = SYNCML_BUMP(
    "$6", "coalesce(octet_length($5::text) - octet_length(" SYNCML_LIVE_CONTENT("$6") "), 0)")
    "UPDATE items SET content_type = $4, content = $5, modseq = ds.modseq, updated_at = now() FROM ds "
    "WHERE tenant_id = $1 AND user_id = $6 AND datastore_id = $2 AND guid = $3 AND NOT deleted "
    "RETURNING items.item_id, items.modseq";
inline constexpr const char* delete_item =
    SYNCML_BUMP("$4", "coalesce(-octet_length(" SYNCML_LIVE_CONTENT("$4") "), 0)")
    "UPDATE items SET deleted = true, modseq = ds.modseq, updated_at = now() FROM ds "
    "WHERE tenant_id = $1 AND user_id = $4 AND datastore_id = $2 AND guid = $3 AND NOT deleted "
    "RETURNING items.item_id, items.content, items.modseq";
#undef SYNCML_LIVE_CONTENT
#undef SYNCML_BUMP
inline constexpr const char* drop_keys =
    "DELETE FROM item_match_keys WHERE tenant_id = $1 AND user_id = $3 AND item_id = $2";
inline constexpr const char* add_keys =
    "INSERT INTO item_match_keys (tenant_id, user_id, datastore_id, match_key, item_id) "
    "SELECT $1, $5, $2, k, $4 FROM unnest($3::text[]) AS k ON CONFLICT DO NOTHING";
inline constexpr const char* find_item =
    "SELECT guid, content, modseq, deleted, item_id FROM items WHERE tenant_id = $1 AND user_id = $4 "
    "AND datastore_id = $2 AND guid = $3";
// Per key (LATERAL ... LIMIT: an index probe per key whatever the planner's statistics say, which are
// stale in the middle of a large slow sync), at most $5 candidates the device does not hold confirmed; the
// keys of one item come back joined by \x1f. The cost is bounded by keys x cap, never by the datastore's size.
inline constexpr const char* twin_candidates =
    "SELECT h.guid, h.content, h.modseq, string_agg(h.match_key, chr(31) ORDER BY h.match_key), "
    "h.item_id, h.mapped, h.sent_by_device "
    "FROM (SELECT DISTINCT unnest($4::text[])) AS q(key) CROSS JOIN LATERAL (SELECT k.match_key, i.item_id, i.guid, "
    "i.content, i.modseq, m.revision IS NOT NULL AS mapped, "
    "CASE WHEN m.received <= -2 THEN -2 - m.received ELSE -1 END AS sent_by_device "
    "FROM item_match_keys k JOIN items i ON i.tenant_id = k.tenant_id AND i.user_id = k.user_id "
    "AND i.item_id = k.item_id "
    "LEFT JOIN LATERAL (SELECT GREATEST(m.last_modseq_sent, m.last_modseq_received) AS revision, "
    "m.last_modseq_received AS received FROM mappings m "
    "WHERE m.tenant_id = $1 AND m.user_id = $6 AND m.device_store_id = $3 AND m.item_id = k.item_id) AS m ON true "
    "WHERE k.tenant_id = $1 AND k.user_id = $6 AND k.datastore_id = $2 AND k.match_key = q.key AND NOT i.deleted "
    "AND coalesce(m.revision, -1) < 0 "
    "ORDER BY k.item_id LIMIT $5) AS h GROUP BY h.item_id, h.guid, h.content, h.modseq, h.mapped, h.sent_by_device "
    "ORDER BY h.item_id";
inline constexpr const char* conflict_policy = "SELECT conflict_policy FROM tenants WHERE tenant_id = $1";
inline constexpr const char* current_modseq =
    "SELECT modseq FROM datastores WHERE tenant_id = $1 AND user_id = $3 AND datastore_id = $2";
// The mapping of each item is one index probe (LATERAL ... LIMIT 1) rather than a join the planner may turn
// into a scan of all the device's mappings per item when its statistics predate the slow sync.
inline constexpr const char* changes =
    "SELECT i.guid, i.modseq, i.deleted, m.luid, m.revision FROM items i LEFT JOIN LATERAL (SELECT m.luid, "
    "GREATEST(m.last_modseq_sent, m.last_modseq_received) AS revision FROM mappings m WHERE m.tenant_id = $1 "
    "AND m.user_id = $6 AND m.device_store_id = $2 AND m.item_id = i.item_id LIMIT 1) AS m ON true "
    "WHERE i.tenant_id = $1 AND i.user_id = $6 AND i.datastore_id = (SELECT d.datastore_id FROM device_stores d "
    "WHERE d.tenant_id = $1 AND d.user_id = $6 AND d.device_store_id = $2) AND i.modseq > $3 AND i.modseq <= $4 AND "
    "($5 OR NOT i.deleted) "
    "AND (m.luid IS NULL OR m.revision < i.modseq) ORDER BY i.modseq";
// changes() of datastore $2 (device store $3) in ($4, $5] as a page of at most $7, with item ids, read along the
// (tenant, datastore, modseq) index no further than the page; deleted items only where the device holds a
// confirmed mapping.
inline constexpr const char* change_page =
    "SELECT i.guid, i.modseq, i.deleted, m.luid, m.revision, i.item_id FROM items i LEFT JOIN LATERAL (SELECT "
    "m.luid, GREATEST(m.last_modseq_sent, m.last_modseq_received) AS revision FROM mappings m WHERE m.tenant_id = $1 "
    "AND m.user_id = $8 AND m.device_store_id = $3 AND m.item_id = i.item_id LIMIT 1) AS m ON true "
    "WHERE i.tenant_id = $1 AND i.user_id = $8 AND i.datastore_id = $2 AND i.modseq > $4 AND i.modseq <= $5 AND ($6 OR "
    "NOT i.deleted) "
    "AND (m.luid IS NULL OR m.revision < i.modseq) AND (NOT i.deleted OR m.revision >= 0) ORDER BY i.modseq LIMIT $7";

inline constexpr const char* held_items =
    "SELECT i.guid, i.modseq, m.luid, i.item_id FROM mappings m JOIN items i ON i.tenant_id = m.tenant_id AND "
    "i.user_id = m.user_id AND i.item_id = m.item_id WHERE m.tenant_id = $1 AND m.user_id = $3 "
    "AND m.device_store_id = $2 AND NOT i.deleted AND "
    "GREATEST(m.last_modseq_sent, m.last_modseq_received) >= 0 ORDER BY i.modseq";

// The item of a device store with guid $3 (device store $2) of the owner `owner`.
#define SYNCML_ITEM_OF_STORE(owner)                                                                     \
    "(SELECT i.item_id FROM items i JOIN device_stores d ON d.tenant_id = i.tenant_id AND d.user_id = " \
    "i.user_id AND d.datastore_id = i.datastore_id WHERE d.tenant_id = $1 AND d.user_id = " owner       \
    " AND "                                                                                             \
    "d.device_store_id = $2 AND i.guid = $3)"

inline constexpr const char* mapping_of_luid =
    "SELECT i.guid, GREATEST(m.last_modseq_sent, m.last_modseq_received) FROM mappings m JOIN items i "
    "ON i.tenant_id = m.tenant_id AND i.user_id = m.user_id AND i.item_id = m.item_id WHERE m.tenant_id = $1 "
    "AND m.user_id = $4 AND m.device_store_id = $2 AND m.luid = $3";
// One primary-key probe per LUID and then one per item (LATERAL, OFFSET 0 so each stays one): `luid = ANY($3)` under
// a generic plan made while the table was small scans the device's mappings and searches the array per row. Keys
// hidden as (SELECT $n), or a device store the statistics do not know yet makes any index on it look unique. The
// item probe is a LATERAL too: a distributed database plans the shard's query with the keys' values, and statistics
// from before a new user's slow sync (no items) made items the outer side of a join that scanned the device's
// mappings per item (measured: 3.3 s per call of 100 LUIDs).
inline constexpr const char* mappings_of_luids =
    "SELECT m.luid, i.guid, m.revision, i.item_id, i.modseq, i.deleted FROM unnest($3::text[]) AS u(l) CROSS JOIN "
    "LATERAL (SELECT m.luid, m.item_id, GREATEST(m.last_modseq_sent, m.last_modseq_received) AS revision "
    "FROM mappings m WHERE m.tenant_id = (SELECT $1::bigint) AND m.user_id = $4 "
    "AND m.device_store_id = (SELECT $2::bigint) AND m.luid = u.l OFFSET 0) AS m "
    "CROSS JOIN LATERAL (SELECT i.guid, i.item_id, i.modseq, i.deleted FROM items i WHERE i.tenant_id = $1 "
    "AND i.user_id = $4 AND i.item_id = m.item_id OFFSET 0) AS i";
inline constexpr const char* confirmed_luid =
    "SELECT luid FROM mappings WHERE tenant_id = $1 AND user_id = $4 AND device_store_id = $2 AND item_id "
    "= " SYNCML_ITEM_OF_STORE("$4") " AND GREATEST(last_modseq_sent, last_modseq_received) >= 0";
inline constexpr const char* drop_mapping_of_luid =
    "DELETE FROM mappings WHERE tenant_id = $1 AND user_id = $4 AND device_store_id = $2 AND luid = $3";
inline constexpr const char* drop_mapping =
    "DELETE FROM mappings WHERE tenant_id = $1 AND user_id = $4 AND device_store_id = $2 AND item_id "
    "= " SYNCML_ITEM_OF_STORE("$4");
inline constexpr const char* insert_mapping =
    "INSERT INTO mappings (tenant_id, user_id, device_store_id, luid, item_id, last_modseq_sent, "
    "last_modseq_received) SELECT $1, $6, $2, $4, " SYNCML_ITEM_OF_STORE("$6") ", $5, $5";
inline constexpr const char* touch_mapping =
    "UPDATE mappings SET last_modseq_sent = $4 WHERE tenant_id = $1 AND user_id = $5 AND device_store_id = $2 "
    "AND item_id = " SYNCML_ITEM_OF_STORE("$5");
// Unconfirmed: both below 0. last_modseq_received keeps what it was as -2 - it (twin_candidates reads it back).
inline constexpr const char* unconfirm_mappings =
    "UPDATE mappings SET last_modseq_sent = -1, last_modseq_received = CASE WHEN last_modseq_received >= 0 THEN "
    "-2 - last_modseq_received ELSE last_modseq_received END WHERE tenant_id = $1 AND user_id = $3 "
    "AND device_store_id = $2";

#undef SYNCML_ITEM_OF_STORE

}  // namespace syncml::persistence::sql
