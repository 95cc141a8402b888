#pragma once
// Sync sessions as `admin session list` and `admin session kill` see them: the unexpired sessions that answered at
// least one message (rows that only keep a device's resume state are no sessions of their own).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::persistence {

class database;

struct session_info {
    std::int64_t id = 0;              // the server's key of the session, which `session kill` takes
    std::string syncml_session_id;    // the SessionID the device chose (unique per device only)
    std::optional<std::string> user;  // empty until a message authenticated
    std::string device_uri;
    std::string started;        // ISO 8601 UTC
    std::string last_message;   // ISO 8601 UTC
    std::int64_t messages = 0;  // the last MsgID answered: devices number a session's messages from 1
    bool finished = false;
};

// The tenant's sessions, or only the user's (when `user` is not empty), oldest first. not_found for an unknown
// tenant or user.
std::vector<session_info> list_sessions(database& db, std::string_view tenant, std::string_view user = {});

// Ends the session at once: its row goes (under the device's lock, so a message being served finishes first), and
// its next message finds no session, as after expiry: without credentials it gets a challenge, with them it
// starts afresh. not_found when the tenant has no such live session.
void kill_session(database& db, std::string_view tenant, std::int64_t id);

}  // namespace syncml::persistence
