#pragma once
// On a distributed schema, which user's shard a device's session is on (migrations/0027_ambiguous_address_continuation
// .sql), for messages that continue a session by their address: without token or credentials they know the device
// id and the SessionID, not the user. Each call is one statement outside any message's transaction, on the shard
// of the device key. A route only says where to look; the session row there decides whether the message may go on.

#include <chrono>
#include <cstdint>
#include <string>

namespace syncml::persistence {

class database;

// The user whose latest session start of the device at client `address` had `session_id` within `window` (the
// longest life of a session); 0 when nobody's did, and also while another user's start of the device at that
// address is that recent, whatever its SessionID, or another user's start of `session_id` elsewhere began earlier: a
// message without token or credentials could then be that user's phone. A later start elsewhere never counts (a
// co-user cannot stop her phone's continuation from elsewhere). Throws db_error.
std::int64_t session_route_user(database& db, std::int64_t tenant, const std::string& device_uri,
                                const std::string& session_id, const std::string& address, std::chrono::seconds window);

// Records that `user` starts (or goes on with) session `session_id` of the device from client `address`: before the
// transaction of every message with valid credentials, so that no message without them can reach another user's
// session of the same device and SessionID unnoticed. The same start again from the same address within the hour
// writes nothing. Throws db_error.
void record_session_start(database& db, std::int64_t tenant, const std::string& device_uri, std::int64_t user,
                          const std::string& session_id, const std::string& address);

// How much older than the session it stands for a recorded start may be (the same start is rewritten hourly):
// add it to the longest life of a session for session_route_user's window.
inline constexpr std::chrono::seconds k_session_start_refresh{3600};

}  // namespace syncml::persistence
