#pragma once
// SQL of package 4's batched reads and writes (outgoing_batch.cpp), as named constants. Arrays of items are
// unnested and each probes the items' primary key on its own; mappings are found by item id. The last parameter
// of each is the owner, the user whose rows it touches.

namespace syncml::persistence::sql {

// Row 1 always: datastore $2's modseq and device store $3's last seen one; then, with $4, the live (and with
// $6 also deleted) items after the last seen modseq (after 0 with $5) the device has not sent or received.
inline constexpr const char* server_changes =
    "WITH d AS (SELECT s.modseq AS upto, d.last_modseq_seen AS seen FROM datastores s JOIN device_stores d "
    "ON d.tenant_id = s.tenant_id AND d.user_id = s.user_id AND d.datastore_id = s.datastore_id "
    "WHERE s.tenant_id = $1 AND s.user_id = $7 AND s.datastore_id = $2 AND d.device_store_id = $3) "
    "SELECT d.upto, d.seen, c.guid, c.modseq, c.deleted, c.luid, c.revision, c.item_id FROM d LEFT JOIN LATERAL ("
    "SELECT i.guid, i.modseq, i.deleted, m.luid, m.revision, i.item_id FROM items i LEFT JOIN LATERAL (SELECT m.luid, "
    "GREATEST(m.last_modseq_sent, m.last_modseq_received) AS revision FROM mappings m WHERE m.tenant_id = $1 "
    "AND m.user_id = $7 AND m.device_store_id = $3 AND m.item_id = i.item_id LIMIT 1) AS m ON true "
    "WHERE $4 AND i.tenant_id = $1 AND i.user_id = $7 AND i.datastore_id = $2 AND i.modseq > (CASE WHEN $5 THEN 0 ELSE "
    "d.seen END) "
    "AND i.modseq <= d.upto AND ($6 OR NOT i.deleted) AND (m.luid IS NULL OR m.revision < i.modseq)) AS c ON true "
    "ORDER BY c.modseq";

// The item `r` (a unnest row with GUID r.g and item id r.id) of datastore $2: by primary key when the id is
// known, by GUID otherwise (state of an older version). OFFSET 0 keeps the datastore check out of the probe,
// and the keys are hidden from the planner as (SELECT $n): it estimates a tenant, datastore or device store
// its statistics do not know yet (a new user's first slow sync) at ~0 rows, and then any index that starts
// with those columns looks as good as the unique one and scans the whole datastore per probe.
// `owner` is the number of the owner parameter.
#define SYNCML_ITEM_OF(r, owner)                                                                                 \
    "CROSS JOIN LATERAL (SELECT i.item_id, i.guid, i.content, i.modseq, i.deleted, i.datastore_id FROM items i " \
    "WHERE i.tenant_id = (SELECT $1::bigint) AND i.user_id = " owner " AND i.item_id = coalesce(nullif(" r       \
    ".id, 0), (SELECT g.item_id "                                                                                \
    "FROM items g WHERE g.tenant_id = (SELECT $1::bigint) AND g.user_id = " owner                                \
    " AND g.datastore_id = "                                                                                     \
    "(SELECT $2::bigint) AND g.guid = " r ".g)) OFFSET 0) AS i "

// Items ($4 GUIDs, $5 ids) of datastore $2 with the LUID of device store $3's confirmed mapping; content only
// while the items before one (at octet_length, which reads no TOASTed value, plus $7 each) stay under $6 bytes.
inline constexpr const char* outgoing_items =
    "SELECT o.guid, CASE WHEN o.before = 0 OR o.before < $6 THEN o.content END, o.modseq, o.deleted, o.item_id, "
    "o.luid FROM (SELECT i.guid, i.content, i.modseq, i.deleted, i.item_id, "
    "sum(CASE WHEN i.deleted THEN 0 ELSE octet_length(i.content) + $7 END) OVER (ORDER BY q.pos) "
    "- CASE WHEN i.deleted THEN 0 ELSE octet_length(i.content) + $7 END AS before, "
    "(SELECT m.luid FROM mappings m WHERE m.tenant_id = (SELECT $1::bigint) AND m.user_id = $8 "
    "AND m.device_store_id = (SELECT $3::bigint) "
    "AND m.item_id = i.item_id "
    "AND GREATEST(m.last_modseq_sent, m.last_modseq_received) >= 0) AS luid "
    "FROM unnest($4::text[], $5::bigint[]) WITH ORDINALITY AS q(g, id, pos) " SYNCML_ITEM_OF(
        "q", "$8") "WHERE i.datastore_id = $2) AS o";

// The device holds revision $6[p] of item ($4[p], $5[p]) (touch_mapping) and no longer the items ($7, $8): the
// mapping of a live one goes (remove_mapping), that of a deleted one is touched at the deletion's modseq.
inline constexpr const char* record_delivery =
    "WITH held AS (SELECT i.item_id, u.r FROM unnest($4::text[], $5::bigint[], $6::bigint[]) AS u(g, id, r) "
    SYNCML_ITEM_OF("u", "$9") "WHERE i.datastore_id = $2 "
    "UNION ALL SELECT i.item_id, i.modseq FROM unnest($7::text[], $8::bigint[]) AS u(g, id) " SYNCML_ITEM_OF("u", "$9")
    "WHERE i.datastore_id = $2 AND i.deleted), "
    "touched AS (UPDATE mappings m SET last_modseq_sent = held.r FROM held WHERE m.tenant_id = (SELECT $1::bigint) "
    "AND m.user_id = $9 AND m.device_store_id = (SELECT $3::bigint) AND m.item_id = held.item_id RETURNING m.item_id), "
    "gone AS (SELECT i.item_id FROM unnest($7::text[], $8::bigint[]) AS u(g, id) " SYNCML_ITEM_OF("u", "$9")
    "WHERE i.datastore_id = $2 AND NOT i.deleted) "
    "DELETE FROM mappings m USING gone WHERE m.tenant_id = (SELECT $1::bigint) AND m.user_id = $9 "
    "AND m.device_store_id = (SELECT $3::bigint) AND m.item_id = gone.item_id";

#undef SYNCML_ITEM_OF

// Refresh from client: the live items of datastore $2 device store $3 up to modseq $5 neither sent nor received (as
// in server_changes) are deleted in modseq order, each taking the next modseq as delete_item would, and lose
// their keys and the device's mappings; their bytes leave the datastore's stored_bytes (read as they are: the
// statement runs after sql::lock_datastore). The datastore row stays locked until commit (see sql::bump).
inline constexpr const char* delete_unheld_items =
    "WITH doomed AS (SELECT i.item_id, octet_length(i.content) AS bytes, row_number() OVER (ORDER BY i.modseq) AS n "
    "FROM items i "
    "LEFT JOIN LATERAL (SELECT GREATEST(m.last_modseq_sent, m.last_modseq_received) AS revision FROM mappings m "
    "WHERE m.tenant_id = $1 AND m.user_id = $4 AND m.device_store_id = $3 AND m.item_id = i.item_id LIMIT 1) AS m "
    "ON true WHERE i.tenant_id = $1 AND i.user_id = $4 AND i.datastore_id = $2 AND NOT i.deleted AND i.modseq <= $5 "
    "AND (m.revision IS NULL OR m.revision < i.modseq)), "
    "ds AS (UPDATE datastores SET modseq = modseq + (SELECT count(*) FROM doomed), "
    "stored_bytes = stored_bytes - (SELECT coalesce(sum(bytes), 0) FROM doomed) WHERE tenant_id = $1 "
    "AND user_id = $4 AND datastore_id = $2 RETURNING modseq - (SELECT count(*) FROM doomed) AS base), "
    "gone AS (UPDATE items i SET deleted = true, modseq = ds.base + doomed.n, updated_at = now() FROM doomed, ds "
    "WHERE i.tenant_id = $1 AND i.user_id = $4 AND i.item_id = doomed.item_id AND NOT i.deleted RETURNING i.item_id), "
    "keys AS (DELETE FROM item_match_keys k WHERE k.tenant_id = $1 AND k.user_id = $4 "
    "AND k.item_id IN (SELECT item_id FROM gone)), "
    "maps AS (DELETE FROM mappings m WHERE m.tenant_id = $1 AND m.user_id = $4 AND m.device_store_id = $3 "
    "AND m.item_id IN (SELECT item_id FROM doomed)) "
    "SELECT count(*) FROM gone";

}  // namespace syncml::persistence::sql
