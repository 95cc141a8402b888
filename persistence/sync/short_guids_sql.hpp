#pragma once
// SQL of the short ids sent in place of GUIDs longer than a device keeps (short_guids.cpp, migration 0035). The last
// parameter of each is the owner, the user whose rows it touches.

namespace syncml::persistence::sql {

// The short ids device store $2 has of GUIDs $3, each row with the highest number the device store was given (0:
// none yet); that number alone (guid NULL) when it has none of them.
inline constexpr const char* short_guids_of =
    "SELECT t.top, s.guid, s.number FROM (SELECT coalesce(max(number), 0) AS top FROM short_guids "
    "WHERE tenant_id = $1 AND user_id = $4 AND device_store_id = $2) AS t "
    "LEFT JOIN short_guids s ON s.tenant_id = $1 AND s.user_id = $4 AND s.device_store_id = $2 "
    "AND s.guid = ANY($3::text[])";
// Numbers $3[i] for GUIDs $4[i]. The messages of a device are handled one at a time (syncml_open_session locks the
// device), so no other transaction gives the device store a number meanwhile.
inline constexpr const char* insert_short_guids =
    "INSERT INTO short_guids (tenant_id, user_id, device_store_id, number, guid) "
    "SELECT $1, $5, $2, u.n, u.g FROM unnest($3::bigint[], $4::text[]) AS u(n, g)";
inline constexpr const char* guids_of_short_numbers =
    "SELECT number, guid FROM short_guids WHERE tenant_id = $1 AND user_id = $4 AND device_store_id = $2 "
    "AND number = ANY($3::bigint[])";

}  // namespace syncml::persistence::sql
