#pragma once
// Server-side sync windows (issue 18): what part of a datastore the server sends a device, whatever the device
// asks for. A tenant has one (tenant_settings::window); a device may have its own, which replaces the tenant's.
// The engine turns a window into the same filter model a client's own filter uses (matching/filter/item_filter.hpp).

#include <optional>
#include <string>
#include <string_view>

namespace syncml::persistence {

class database;

// Zero: no limit.
struct sync_window {
    int past_days = 0;        // events and tasks that ended more than this many days ago are not sent
    int future_days = 0;      // events and tasks that start more than this many days ahead are not sent
    int max_items = 0;        // a device is sent items of a datastore while it holds fewer than this many
    int max_photo_bytes = 0;  // contact photos larger than this are not sent (the server keeps them)
    bool unlimited() const { return past_days == 0 && future_days == 0 && max_items == 0 && max_photo_bytes == 0; }
    bool operator==(const sync_window&) const = default;
};

// std::invalid_argument when a value is negative.
void validate_window(const sync_window& window);

// "past-days=30 future-days=365 max-items=0 max-photo-bytes=0" with `separator` between the fields.
std::string describe_window(const sync_window& window, const std::string& separator);

// The device's own window (nullopt: its tenant's applies). not_found for an unknown tenant, user or device.
std::optional<sync_window> device_window(database& db, std::string_view tenant, std::string_view user,
                                         std::string_view device_uri);
// Gives the device a window of its own, or (nullopt) lets its tenant's apply again. not_found as above.
void set_device_window(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri,
                       const std::optional<sync_window>& window);

}  // namespace syncml::persistence
