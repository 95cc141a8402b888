#pragma once
// Item bodies between the store's canonical form and what CardDAV/CalDAV clients exchange: vCard 3.0 for contacts,
// iCalendar 2.0 for events, tasks and memos (VJOURNAL), each with a UID (the GUID when the item has none, as items
// from phones often do not).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dav/dav_paths.hpp"

namespace syncml::dav {

// The body a client GETs.
std::string client_body(const collection_info& c, const std::string& canonical, const std::string& guid);

// The Content-Type of an item of `c` (a calendar taking several components: that of the item's component).
std::string content_type_of(const collection_info& c, const std::string& canonical);

// A body a client PUTs, made canonical, with its index keys; or why it cannot be stored in `c`.
struct incoming_item {
    std::string canonical;
    std::vector<std::string> keys;
    std::string error;  // empty when it can be stored
};
incoming_item read_client_body(const collection_info& c, const std::string& body);

// The value of the first property `name` (upper case) of a vCard or iCalendar text, unfolded; nullopt when absent.
std::optional<std::string> first_property(std::string_view text, std::string_view name);
// Every value of property `name`, unfolded.
std::vector<std::string> property_values(std::string_view text, std::string_view name);
// Every property of the text as (name in upper case, value), unfolded, read once for many lookups.
std::vector<std::pair<std::string, std::string>> properties_of(std::string_view text);

}  // namespace syncml::dav
