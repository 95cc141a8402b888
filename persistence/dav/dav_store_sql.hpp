#pragma once
// SQL of the DAV store (dav_store.cpp). $1 tenant, $2 user, $3 datastore throughout; a resource's name is its
// dav_names row's, else the GUID with the collection's suffix ($4). Resources come as the columns name, guid, item_id,
// modseq, deleted, content and content_bytes: octet_length reads a TOASTed value's size from its header, so a page
// without content learns the sizes of the contents a listing will read without reading them.
// Every table a statement reads, joins or writes is bound to the user ($2, a plain parameter) and joined on user_id:
// on a distributed database (persistence/DISTRIBUTED.md) each statement runs on the one shard of the user.

namespace syncml::persistence::sql {

// A collection's columns (dav_store.cpp, collection_of): its state, name, kind, whether it is its kind's default (the
// lowest live datastore of the kind, migrations/0037_collections.sql), components and properties.
#define SYNCML_DAV_COLLECTION_COLUMNS                                                                           \
    "d.datastore_id, d.modseq, d.purged_modseq, d.name, d.kind, "                                               \
    "d.datastore_id = (SELECT min(f.datastore_id) FROM datastores f WHERE f.tenant_id = $1 AND f.user_id = $2 " \
    "AND f.kind = d.kind AND f.deleted_at IS NULL) AS is_default, "                                             \
    "coalesce(array_to_string(d.components, ','), '') AS components, d.display_name, d.description, d.color, "  \
    "d.sort_order, d.time_zone "
inline constexpr const char* dav_collection_state = "SELECT " SYNCML_DAV_COLLECTION_COLUMNS
                                                    "FROM datastores d WHERE d.tenant_id = $1 AND d.user_id = $2 "
                                                    "AND d.datastore_id = $3";
// The user's live collections.
inline constexpr const char* dav_collections = "SELECT " SYNCML_DAV_COLLECTION_COLUMNS
                                               "FROM datastores d WHERE d.tenant_id = $1 AND d.user_id = $2 "
                                               "AND d.deleted_at IS NULL ORDER BY d.datastore_id";
#undef SYNCML_DAV_COLLECTION_COLUMNS
// A creation of a collection waits for any other of the same user, so that both count what the other created.
inline constexpr const char* dav_lock_user =
    "SELECT 1 FROM users WHERE tenant_id = $1 AND user_id = $2 FOR NO KEY UPDATE";
inline constexpr const char* dav_count_collections =
    "SELECT count(*) FROM datastores WHERE tenant_id = $1 AND user_id = $2 AND deleted_at IS NULL";
// No row: the name is taken. $3 name, $4 kind, $5 components ('{}': the kind's), $6.. the properties.
inline constexpr const char* dav_create_collection =
    "INSERT INTO datastores (tenant_id, user_id, name, kind, components, display_name, description, color, "
    "sort_order, time_zone) VALUES ($1, $2, $3, $4, nullif($5::text[], '{}'), $6, $7, $8, $9, $10) "
    "ON CONFLICT DO NOTHING RETURNING datastore_id";
inline constexpr const char* dav_set_properties =
    "UPDATE datastores SET display_name = $4, description = $5, color = $6, sort_order = $7, time_zone = $8 "
    "WHERE tenant_id = $1 AND user_id = $2 AND datastore_id = $3 AND deleted_at IS NULL";
// The deletion of a collection: every live item a tombstone, each taking the next modseq in modseq order as
// delete_item would (devices that sync the collection receive the deletions), its keys dropped and its bytes freed;
// the collection marked deleted and its name freed ("name/<datastore_id>": no collection name has a '/'). Runs after
// dav_lock_collection.
inline constexpr const char* dav_delete_collection =
    "WITH doomed AS (SELECT i.item_id, octet_length(i.content) AS bytes, row_number() OVER (ORDER BY i.modseq) AS n "
    "FROM items i WHERE i.tenant_id = $1 AND i.user_id = $2 AND i.datastore_id = $3 AND NOT i.deleted), "
    "ds AS (UPDATE datastores SET modseq = modseq + (SELECT count(*) FROM doomed), "
    "stored_bytes = stored_bytes - (SELECT coalesce(sum(bytes), 0) FROM doomed), deleted_at = now(), "
    "name = name || '/' || datastore_id WHERE tenant_id = $1 AND user_id = $2 AND datastore_id = $3 "
    "AND deleted_at IS NULL RETURNING modseq - (SELECT count(*) FROM doomed) AS base), "
    "gone AS (UPDATE items i SET deleted = true, modseq = ds.base + doomed.n, updated_at = now() FROM doomed, ds "
    "WHERE i.tenant_id = $1 AND i.user_id = $2 AND i.item_id = doomed.item_id AND NOT i.deleted RETURNING i.item_id), "
    "keys AS (DELETE FROM item_match_keys k WHERE k.tenant_id = $1 AND k.user_id = $2 "
    "AND k.item_id IN (SELECT item_id FROM gone)) "
    "SELECT count(*) FROM gone";
// One row when the datastore is the user's.
inline constexpr const char* dav_own_datastore =
    "SELECT 1 FROM datastores WHERE tenant_id = $1 AND user_id = $2 AND datastore_id = $3";
// A tombstone whose name a live item holds now is left out: a report never names one resource gone and present.
inline constexpr const char* dav_changed_since =
    "SELECT coalesce(n.name, i.guid || $4) AS name, i.guid, i.item_id, i.modseq, i.deleted, ''::text AS content, "
    "octet_length(i.content) AS content_bytes FROM items i LEFT JOIN dav_names n ON n.tenant_id = i.tenant_id "
    "AND n.user_id = i.user_id AND n.item_id = i.item_id AND n.user_id = $2 "
    "WHERE i.tenant_id = $1 AND i.user_id = $2 AND i.datastore_id = $3 AND i.modseq > $5 "
    "AND NOT (i.deleted AND EXISTS (SELECT 1 FROM dav_names o JOIN items l ON l.tenant_id = o.tenant_id "
    "AND l.user_id = o.user_id AND l.item_id = o.item_id AND l.user_id = $2 WHERE o.tenant_id = $1 "
    "AND o.user_id = $2 AND o.datastore_id = $3 AND o.name = coalesce(n.name, i.guid || $4) AND NOT l.deleted)) "
    "ORDER BY i.modseq LIMIT CASE WHEN $6::bigint > 0 THEN $6::bigint END";
// A page of the live items by item id, after item $5 ($6 rows at most; 0: all).
inline constexpr const char* dav_live_after =
    "SELECT coalesce(n.name, i.guid || $4) AS name, i.guid, i.item_id, i.modseq, i.deleted, ''::text AS content, "
    "octet_length(i.content) AS content_bytes FROM items i LEFT JOIN dav_names n ON n.tenant_id = i.tenant_id "
    "AND n.user_id = i.user_id AND n.item_id = i.item_id AND n.user_id = $2 "
    "WHERE i.tenant_id = $1 AND i.user_id = $2 AND i.datastore_id = $3 AND i.item_id > $5 "
    "AND NOT i.deleted ORDER BY i.item_id LIMIT CASE WHEN $6::bigint > 0 THEN $6::bigint END";
// $5 names, $6 the GUIDs those names would be without a dav_names row ('' where the name has no such form), $7
// whether to read the contents (else only their sizes).
inline constexpr const char* dav_named =
    "SELECT n.name, i.guid, i.item_id, i.modseq, i.deleted, "
    "CASE WHEN $7::boolean THEN i.content ELSE '' END AS content, "
    "octet_length(i.content) AS content_bytes "
    "FROM unnest($5::text[]) AS q(name) "
    "JOIN dav_names n ON n.tenant_id = $1 AND n.user_id = $2 AND n.datastore_id = $3 AND n.name = q.name "
    "JOIN items i ON i.tenant_id = $1 AND i.user_id = $2 AND i.item_id = n.item_id AND i.user_id = n.user_id "
    "AND i.datastore_id = $3 WHERE NOT i.deleted "
    "UNION ALL SELECT i.guid || $4, i.guid, i.item_id, i.modseq, i.deleted, "
    "CASE WHEN $7::boolean THEN i.content ELSE '' END, octet_length(i.content) "
    "FROM unnest($6::text[]) AS q(guid) JOIN items i ON i.tenant_id = $1 AND i.user_id = $2 AND i.datastore_id = $3 "
    "AND i.guid = q.guid WHERE NOT i.deleted AND NOT EXISTS (SELECT 1 FROM dav_names n WHERE n.tenant_id = $1 "
    "AND n.user_id = $2 AND n.item_id = i.item_id)";
inline constexpr const char* dav_lock_items =
    "SELECT 1 FROM items WHERE tenant_id = $1 AND user_id = $2 AND item_id = ANY($3::bigint[]) FOR UPDATE";
// Locks the datastore's row first, as every item write does when it takes a modseq: two creates that both count
// the last free place cannot both pass, since the second counts after the first committed.
inline constexpr const char* dav_lock_collection =
    "SELECT 1 FROM datastores WHERE tenant_id = $1 AND user_id = $2 AND datastore_id = $3 FOR NO KEY UPDATE";
inline constexpr const char* dav_holding_key =
    "SELECT coalesce(n.name, i.guid || $4) AS name, i.guid, i.item_id, i.modseq, i.deleted, ''::text AS content, "
    "octet_length(i.content) AS content_bytes FROM item_match_keys k JOIN items i ON i.tenant_id = k.tenant_id AND "
    "i.user_id = k.user_id "
    "AND i.item_id = k.item_id AND i.user_id = $2 "
    "LEFT JOIN dav_names n ON n.tenant_id = i.tenant_id AND n.user_id = i.user_id AND n.item_id = i.item_id "
    "AND n.user_id = $2 WHERE k.tenant_id = $1 AND k.user_id = $2 AND k.datastore_id = $3 AND k.match_key = $5 "
    "AND NOT i.deleted ORDER BY i.item_id LIMIT 5";
inline constexpr const char* dav_live_count =
    "SELECT count(*) FROM items WHERE tenant_id = $1 AND user_id = $2 AND datastore_id = $3 AND NOT deleted";
// A tombstone keeps its name for sync reports until a new item takes the name ($4): from then on the tombstone is
// reported by GUID, so that a report never names one resource both gone and present.
inline constexpr const char* dav_release_name =
    "DELETE FROM dav_names n USING items i WHERE n.tenant_id = $1 AND n.user_id = $2 AND n.datastore_id = $3 "
    "AND n.name = $4 AND i.tenant_id = $1 AND i.user_id = $2 AND i.item_id = n.item_id AND i.deleted";
// No row back: a concurrent create took the name first (after waiting for it to commit). $4 the item, $5 the name.
inline constexpr const char* dav_name_item =
    "INSERT INTO dav_names (tenant_id, user_id, datastore_id, item_id, name) VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT (tenant_id, user_id, datastore_id, name) DO NOTHING RETURNING item_id";

}  // namespace syncml::persistence::sql
