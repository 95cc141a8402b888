#pragma once
// A device's opt-in to server-alerted sync (push_devices, migration 0036), as the admin CLI and API set and show it.
// Every function runs one transaction. Errors: not_found when the named tenant, user or device does not exist,
// std::invalid_argument for a setting that does not hold (nothing is stored then), db_error for database failures.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::persistence {

class database;

struct push_settings {
    std::optional<std::string> phone_number;  // E.164, "+" and 7 to 15 digits; none: the webhook only
    // The server password and nonce the phone checks a notification's digest with (empty: a phone without them).
    std::string server_password;
    std::string server_nonce;
    std::vector<std::string> datastores;  // kinds: contacts, calendar, tasks, memos; empty: all the device syncs
    // No notification from quiet_start until quiet_end ("HH:MM", local time of time_zone; may span midnight).
    std::optional<std::string> quiet_start;
    std::optional<std::string> quiet_end;
    std::string time_zone = "UTC";  // an IANA name PostgreSQL knows
    bool operator==(const push_settings&) const = default;
};

// What `admin device show` says about push: the settings and the device's notification, if any.
struct push_status {
    push_settings settings;
    bool pending = false;                    // a change waits for a notification
    std::int64_t changes = 0;                // changes it will announce
    std::optional<std::string> due_at;       // ISO 8601 UTC: not sent before (retry, quiet hours, re-notify)
    std::optional<std::string> notified_at;  // the last notification sent
    std::optional<std::string> last_result;  // sent, or why the last one was not
    int attempts = 0;                        // failed sends of the pending one
};

// Whether `text` is an E.164 number as stored ("+" then 7 to 15 digits, no leading zero).
bool valid_phone_number(std::string_view text);

// Opts the device in, or replaces its settings. Validates the phone number, the kinds, the times and the time zone.
void set_device_push(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri,
                     const push_settings& settings);
// Opts the device out (its pending notification goes too); false when it was not in.
bool clear_device_push(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri);
// nullopt when the device did not opt in.
std::optional<push_status> device_push(database& db, std::string_view tenant, std::string_view user,
                                       std::string_view device_uri);

}  // namespace syncml::persistence
