#pragma once
// SQL of the batched item writes (item_batch.cpp), as named constants. Every statement takes one array per
// column, so a message of any size needs the same few statements; rows are found through `= ANY(array)`
// index scans (joined to their values by id), which stay index lookups whatever the planner
// believes about table sizes. The last parameter of each is the owner, the user whose rows it touches.

namespace syncml::persistence::sql {

// The datastore row stays locked until commit: modseqs become visible in the order they were taken.
inline constexpr const char* bump_by =
    "UPDATE datastores SET modseq = modseq + $3 WHERE tenant_id = $1 AND user_id = $4 AND datastore_id = $2 "
    "RETURNING modseq";
// Contents come packed (pg_arrays.hpp): bytes $4, starts $5, lengths $6, decoded by syncml_utf8 (migration 0023).
inline constexpr const char* insert_items =
    "INSERT INTO items (tenant_id, user_id, datastore_id, content_type, content, modseq) "
    "SELECT $1, $8, $2, u.t, syncml_utf8(substring($4::bytea FROM u.s FOR u.l)), u.m "
    "FROM unnest($3::text[], $5::int[], $6::int[], $7::bigint[]) AS u(t, s, l, m) "
    "RETURNING item_id, guid, modseq, octet_length(content) AS bytes";
// The items named by GUID ($3) in datastore $2, for writes that came without their id or map at the current
// modseq. One probe of the unique index per GUID (LATERAL, OFFSET 0 so it stays one): `guid = ANY($3)`
// under a generic plan made while the table was small scans the datastore and searches the array per row.
// The keys are hidden from the planner as (SELECT $n): a datastore its statistics do not know yet (a new
// user's) looks empty, and then the index on (tenant, datastore, modseq) looks as good as the unique one.
inline constexpr const char* items_by_guid =
    "SELECT i.item_id, i.guid, i.modseq, i.deleted FROM unnest($3::text[]) AS u(g) CROSS JOIN LATERAL "
    "(SELECT i.item_id, i.guid, i.modseq, i.deleted FROM items i WHERE i.tenant_id = (SELECT $1::bigint) "
    "AND i.user_id = $4 AND i.datastore_id = (SELECT $2::bigint) AND i.guid = u.g OFFSET 0) AS i";
// Item $2[p] gets content type $3[p], the packed content p ($4, $5, $6) and modseq $7[p]. The rows are found by
// `= ANY($2)` (index lookups) and joined to their values; not by subscripting the arrays with array_position in SET,
// which costs a search of $2 per column and row and kills the backend of a Citus coordinator (13.2). Each row comes
// back with the bytes it grew by, read from the version it replaces (`old`: the statement runs after bump_by took the
// datastore's lock, so no other writer changed the item since).
inline constexpr const char* replace_items =
    "UPDATE items i SET content_type = u.t, content = syncml_utf8(substring($4::bytea FROM u.s FOR u.l)), "
    "modseq = u.m, updated_at = now() "
    "FROM unnest($2::bigint[], $3::text[], $5::int[], $6::int[], $7::bigint[]) AS u(id, t, s, l, m), "
    "(SELECT o.item_id, octet_length(o.content) AS bytes FROM items o WHERE o.tenant_id = $1 AND o.user_id = $8 "
    "AND o.item_id = ANY($2::bigint[])) AS old "
    "WHERE i.tenant_id = $1 AND i.user_id = $8 AND i.item_id = ANY($2::bigint[]) AND i.item_id = u.id "
    "AND old.item_id = i.item_id AND NOT i.deleted "
    "RETURNING i.item_id, i.modseq, octet_length(i.content) - old.bytes AS growth";
// What the batch's adds and replaces ($3 bytes in all) changed in datastore $2's live items (migration 0033).
inline constexpr const char* add_stored_bytes =
    "UPDATE datastores SET stored_bytes = stored_bytes + $3 WHERE tenant_id = $1 AND user_id = $4 "
    "AND datastore_id = $2";
inline constexpr const char* drop_keys_of_items =
    "DELETE FROM item_match_keys WHERE tenant_id = $1 AND user_id = $3 AND item_id = ANY($2::bigint[])";
inline constexpr const char* insert_keys =
    "INSERT INTO item_match_keys (tenant_id, user_id, datastore_id, match_key, item_id) "
    "SELECT $1, $5, $2, u.k, u.i FROM unnest($3::text[], $4::bigint[]) AS u(k, i)";
// The mappings of the batch's LUIDs ($3) and items ($4): each found by its own unique index probe (keys
// hidden as for items_by_guid), then deleted by row address (a TID scan whatever the planner believes). The owner
// is in the outer condition too: a distributed database routes the DELETE by it.
inline constexpr const char* drop_mappings =
    "DELETE FROM mappings WHERE tenant_id = $1 AND user_id = $5 AND ctid = ANY(ARRAY(SELECT m.ctid FROM "
    "unnest($3::text[]) AS u(l) CROSS JOIN LATERAL (SELECT m.ctid FROM mappings m WHERE m.tenant_id = "
    "(SELECT $1::bigint) AND m.user_id = $5 AND m.device_store_id = (SELECT $2::bigint) AND m.luid = u.l OFFSET 0) "
    "AS m UNION SELECT m.ctid FROM unnest($4::bigint[]) AS u(i) CROSS JOIN LATERAL (SELECT m.ctid FROM mappings m "
    "WHERE m.tenant_id = (SELECT $1::bigint) AND m.user_id = $5 AND m.device_store_id = (SELECT $2::bigint) "
    "AND m.item_id = u.i OFFSET 0) AS m))";
// Which of the tables a slow sync fills have no statistics yet (reltuples: -1 never analyzed, 0 analyzed
// empty). Without statistics the planner guesses that every equality matches 0.5% of the rows, so it takes
// any index whose columns a query names for the unique one: lookups by GUID or LUID then scan the datastore
// (fresh databases, until autovacuum's first analyze a minute or more into the first slow syncs).
inline constexpr const char* tables_without_statistics =
    "SELECT c.relname::text FROM pg_class c WHERE c.oid IN ('items'::regclass, 'item_match_keys'::regclass, "
    "'mappings'::regclass) AND c.reltuples <= 0";
// $5: the revision (last sent); $6: what the device itself sent (-1 for an item it received, mapped by a Map).
inline constexpr const char* insert_mappings =
    "INSERT INTO mappings (tenant_id, user_id, device_store_id, luid, item_id, last_modseq_sent, "
    "last_modseq_received) SELECT $1, $7, $2, u.l, u.i, u.r, u.v FROM unnest($3::text[], $4::bigint[], $5::bigint[], "
    "$6::bigint[]) "
    "AS u(l, i, r, v)";

}  // namespace syncml::persistence::sql
