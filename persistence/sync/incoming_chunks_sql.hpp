#pragma once
// SQL of the chunk store for large incoming objects and of the item quota (incoming_chunks.cpp). The last parameter
// of each is the owner, the user whose rows it touches.

namespace syncml::persistence::sql {

inline constexpr const char* drop_chunks =
    "DELETE FROM incoming_chunks WHERE tenant_id = $1 AND user_id = $3 AND device_store_id = $2";
inline constexpr const char* append_chunk =
    "INSERT INTO incoming_chunks (tenant_id, user_id, device_store_id, byte_offset, data, created_at) "
    "VALUES ($1, $5, $2, $3, $4, now()) ON CONFLICT (tenant_id, user_id, device_store_id, byte_offset) "
    "DO UPDATE SET data = EXCLUDED.data, created_at = EXCLUDED.created_at";
inline constexpr const char* take_chunks =
    "WITH gone AS (DELETE FROM incoming_chunks WHERE tenant_id = $1 AND user_id = $3 AND device_store_id = $2 "
    "RETURNING byte_offset, data) SELECT byte_offset, data FROM gone ORDER BY byte_offset";
// Stops at `limit` rows: a quota check needs no more.
inline constexpr const char* count_live_items =
    "SELECT count(*) FROM (SELECT 1 FROM items WHERE tenant_id = $1 AND user_id = $4 AND datastore_id = $2 "
    "AND NOT deleted "
    "LIMIT $3) AS i";

}  // namespace syncml::persistence::sql
