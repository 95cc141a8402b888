#pragma once
// SQL of the DAV store (dav_store.cpp). $1 tenant, $2 datastore throughout; a resource's name is its dav_names row's,
// else the GUID with the collection's suffix ($3).

namespace syncml::persistence::sql {

inline constexpr const char* dav_collection_state =
    "SELECT modseq, purged_modseq FROM datastores WHERE tenant_id = $1 AND datastore_id = $2";
inline constexpr const char* dav_resources =
    "SELECT coalesce(n.name, i.guid || $3), i.guid, i.item_id, i.modseq, i.deleted, "
    "CASE WHEN $4 THEN i.content ELSE '' END FROM items i LEFT JOIN dav_names n ON n.tenant_id = i.tenant_id "
    "AND n.item_id = i.item_id WHERE i.tenant_id = $1 AND i.datastore_id = $2 AND NOT i.deleted ORDER BY i.item_id";
// A tombstone whose name a live item holds now is left out: a report never names one resource gone and present.
inline constexpr const char* dav_changed_since =
    "SELECT coalesce(n.name, i.guid || $3), i.guid, i.item_id, i.modseq, i.deleted, '' FROM items i "
    "LEFT JOIN dav_names n ON n.tenant_id = i.tenant_id AND n.item_id = i.item_id WHERE i.tenant_id = $1 "
    "AND i.datastore_id = $2 AND i.modseq > $4 AND NOT (i.deleted AND EXISTS (SELECT 1 FROM dav_names o "
    "JOIN items l ON l.tenant_id = o.tenant_id AND l.item_id = o.item_id WHERE o.tenant_id = $1 "
    "AND o.datastore_id = $2 AND o.name = coalesce(n.name, i.guid || $3) AND NOT l.deleted)) ORDER BY i.modseq "
    "LIMIT CASE WHEN $5::bigint > 0 THEN $5::bigint END";
// A page of the live items by item id, after item $4 ($5 rows at most; 0: all).
inline constexpr const char* dav_live_after =
    "SELECT coalesce(n.name, i.guid || $3), i.guid, i.item_id, i.modseq, i.deleted, ''::text FROM items i "
    "LEFT JOIN dav_names n ON n.tenant_id = i.tenant_id AND n.item_id = i.item_id WHERE i.tenant_id = $1 "
    "AND i.datastore_id = $2 AND i.item_id > $4 AND NOT i.deleted ORDER BY i.item_id "
    "LIMIT CASE WHEN $5::bigint > 0 THEN $5::bigint END";
// $4 names, $5 the GUIDs those names would be without a dav_names row ('' where the name has no such form).
inline constexpr const char* dav_named =
    "SELECT n.name, i.guid, i.item_id, i.modseq, i.deleted, i.content FROM unnest($4::text[]) AS q(name) "
    "JOIN dav_names n ON n.tenant_id = $1 AND n.datastore_id = $2 AND n.name = q.name "
    "JOIN items i ON i.tenant_id = $1 AND i.item_id = n.item_id AND i.datastore_id = $2 WHERE NOT i.deleted "
    "UNION ALL SELECT i.guid || $3, i.guid, i.item_id, i.modseq, i.deleted, i.content "
    "FROM unnest($5::text[]) AS q(guid) JOIN items i ON i.tenant_id = $1 AND i.datastore_id = $2 AND i.guid = q.guid "
    "WHERE NOT i.deleted AND NOT EXISTS (SELECT 1 FROM dav_names n WHERE n.tenant_id = $1 AND n.item_id = i.item_id)";
inline constexpr const char* dav_lock_items =
    "SELECT 1 FROM items WHERE tenant_id = $1 AND item_id = ANY($2::bigint[]) FOR UPDATE";
// Locks the datastore's row first, as every item write does when it takes a modseq: two creates that both count
// the last free place cannot both pass, since the second counts after the first committed.
inline constexpr const char* dav_lock_collection =
    "SELECT 1 FROM datastores WHERE tenant_id = $1 AND datastore_id = $2 FOR NO KEY UPDATE";
inline constexpr const char* dav_holding_key =
    "SELECT coalesce(n.name, i.guid || $3), i.guid, i.item_id, i.modseq, i.deleted, ''::text "
    "FROM item_match_keys k JOIN items i ON i.tenant_id = k.tenant_id AND i.item_id = k.item_id "
    "LEFT JOIN dav_names n ON n.tenant_id = i.tenant_id AND n.item_id = i.item_id "
    "WHERE k.tenant_id = $1 AND k.datastore_id = $2 AND k.match_key = $4 AND NOT i.deleted "
    "ORDER BY i.item_id LIMIT 5";
inline constexpr const char* dav_live_count =
    "SELECT count(*) FROM items WHERE tenant_id = $1 AND datastore_id = $2 AND NOT deleted";
// A tombstone keeps its name for sync reports until a new item takes the name ($3): from then on the tombstone is
// reported by GUID, so that a report never names one resource both gone and present.
inline constexpr const char* dav_release_name =
    "DELETE FROM dav_names n USING items i WHERE n.tenant_id = $1 AND n.datastore_id = $2 AND n.name = $3 "
    "AND i.tenant_id = n.tenant_id AND i.item_id = n.item_id AND i.deleted";
// No row back: a concurrent create took the name first (after waiting for it to commit).
inline constexpr const char* dav_name_item =
    "INSERT INTO dav_names (tenant_id, item_id, datastore_id, name) VALUES ($1, $3, $2, $4) "
    "ON CONFLICT (tenant_id, datastore_id, name) DO NOTHING RETURNING item_id";

}  // namespace syncml::persistence::sql
