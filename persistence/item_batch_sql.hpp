#pragma once
// SQL of the batched item writes (item_batch.cpp), as named constants. Every statement takes one array per
// column, so a message of any size needs the same few statements; rows are found through `= ANY(array)`
// index scans (array_position picks a row's values), which stay index lookups whatever the planner
// believes about table sizes.

namespace syncml::persistence::sql {

// The datastore row stays locked until commit: modseqs become visible in the order they were taken.
inline constexpr const char* bump_by =
    "UPDATE datastores SET modseq = modseq + $3 WHERE tenant_id = $1 AND datastore_id = $2 RETURNING modseq";
// Contents come packed (pg_arrays.hpp): bytes $4, starts $5, lengths $6.
inline constexpr const char* insert_items =
    "INSERT INTO items (tenant_id, datastore_id, content_type, content, modseq) "
    "SELECT $1, $2, u.t, convert_from(substring($4::bytea FROM u.s FOR u.l), 'UTF8'), u.m "
    "FROM unnest($3::text[], $5::int[], $6::int[], $7::bigint[]) AS u(t, s, l, m) RETURNING item_id, guid, modseq";
// The items named by GUID ($3) in datastore $2, for writes that came without their id or map at the current
// modseq.
inline constexpr const char* items_by_guid =
    "SELECT item_id, guid, modseq, deleted FROM items WHERE tenant_id = $1 AND datastore_id = $2 "
    "AND guid = ANY($3::text[])";
// Item $2[p] gets content type $3[p], the packed content p ($4, $5, $6) and modseq $7[p].
inline constexpr const char* replace_items =
    "UPDATE items SET content_type = ($3::text[])[array_position($2::bigint[], item_id)], "
    "content = convert_from(substring($4::bytea FROM ($5::int[])[array_position($2::bigint[], item_id)] "
    "FOR ($6::int[])[array_position($2::bigint[], item_id)]), 'UTF8'), "
    "modseq = ($7::bigint[])[array_position($2::bigint[], item_id)], updated_at = now() "
    "WHERE tenant_id = $1 AND item_id = ANY($2::bigint[]) AND NOT deleted RETURNING item_id, modseq";
inline constexpr const char* drop_keys_of_items =
    "DELETE FROM item_match_keys WHERE tenant_id = $1 AND item_id = ANY($2::bigint[])";
inline constexpr const char* insert_keys =
    "INSERT INTO item_match_keys (tenant_id, datastore_id, match_key, item_id) "
    "SELECT $1, $2, u.k, u.i FROM unnest($3::text[], $4::bigint[]) AS u(k, i)";
// The mappings of the batch's LUIDs ($3) and items ($4).
inline constexpr const char* drop_mappings =
    "DELETE FROM mappings WHERE tenant_id = $1 AND device_store_id = $2 AND (luid = ANY($3::text[]) "
    "OR item_id = ANY($4::bigint[]))";
inline constexpr const char* insert_mappings =
    "INSERT INTO mappings (tenant_id, device_store_id, luid, item_id, last_modseq_sent, last_modseq_received) "
    "SELECT $1, $2, u.l, u.i, u.r, u.r FROM unnest($3::text[], $4::bigint[], $5::bigint[]) AS u(l, i, r)";

}  // namespace syncml::persistence::sql
