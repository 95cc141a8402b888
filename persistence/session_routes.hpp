#pragma once
// On a distributed schema, which user's shard a device's session is on (migrations/0024_session_routes.sql), for
// messages that continue a session by their address: without token or credentials they know the device id and their
// address, not the user. Each call is one statement outside any message's transaction, on the shard
// of the device key. A route only says where to look; the session row there decides whether the message may go on.

#include <cstdint>
#include <string>

namespace syncml::persistence {

class database;

// The user whose session the device last started or moved to `address`; 0 when none. Throws db_error.
std::int64_t session_route_user(database& db, std::int64_t tenant, const std::string& device_uri,
                                const std::string& address);

// Routes the device at `address` to `user` (the user of a message with valid credentials from there that started
// a session or moved it there); the same route again within the hour writes nothing. Throws db_error.
void record_session_route(database& db, std::int64_t tenant, const std::string& device_uri, const std::string& address,
                          std::int64_t user);

}  // namespace syncml::persistence
