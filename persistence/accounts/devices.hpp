#pragma once
// A user's devices as the admin CLI sees them: listed, forced into a slow sync, forgotten. Every function runs one
// transaction on the given connection. Errors: not_found when the named tenant, user or device does not exist,
// db_error for database failures.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::persistence {

class database;

struct device_info {
    std::int64_t id = 0;
    std::string device_uri;                // the SyncML device id (LocURI of the client)
    std::optional<std::string> last_seen;  // ISO 8601 UTC timestamp, empty if it never synced
    int stores = 0;                        // datastores this device syncs
};

std::vector<device_info> list_devices(database& db, std::string_view tenant, std::string_view user);
// Forces a slow sync at the next session of every device with this SyncML device id in the tenant:
// clears anchors and the last modseq seen, marks each device store for slow sync and ends the
// device's open sessions. Mappings stay: the slow sync re-pairs them. Returns the number of devices
// reset; throws not_found when there is none.
int reset_device(database& db, std::string_view tenant, std::string_view device_uri);
// Deletes the user's device with its datastore views, mappings and sessions; the user's items stay. The device
// is new to the server at its next sync (a slow sync). not_found when the user has no such device.
void delete_device(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri);

}  // namespace syncml::persistence
