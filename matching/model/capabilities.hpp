#pragma once
// What a device can store, from its DevInf CTCap. The protocol engine fills these from session::dev_inf (both
// the 1.1 flat and 1.2 nested CTCap styles decode to the same shape); merge rules consult them so that a
// field the device cannot store, or stored only truncated, never overwrites the server's copy.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace syncml::matching {

struct property_capability {
    // Parameter name (upper case) -> supported values (upper case; empty set = any value). For a vCard 2.1
    // CTCap, ValEnums of a TYPE parameter and bare parameters (TEL;HOME) both land in params["TYPE"].
    std::map<std::string, std::set<std::string>> params;
    std::optional<std::uint64_t> max_size;   // bytes of the value the device keeps
    std::optional<std::uint64_t> max_occur;  // instances of the property the device keeps
    bool no_truncate = false;                // the device rejects rather than truncates oversized values

    // True when the device can express parameter `name` = `value` (all values when it listed none).
    bool supports_param_value(std::string_view name, std::string_view value) const;
    // True when the CTCap lists TYPE values or parameters at all: otherwise TYPE support is unknown.
    bool lists_params() const { return !params.empty(); }
};

// The capabilities of one device for one content type (e.g. text/x-vcard). `known` is false when the device
// sent no CTCap for it: then the merge applies conservative rules (absent means "kept from the server").
struct device_capabilities {
    bool known = false;
    std::map<std::string, property_capability> properties;  // upper-case property name
    // Upper-case properties the server did not send the device (its field filter): whatever its copy says of them,
    // the server's values stay, as for a property the device cannot store.
    std::set<std::string> withheld;

    // Adds (or returns) the entry of property `name` and marks the capabilities known.
    property_capability& add_property(std::string_view name);
    // True when unknown (assume yes) or listed, and not withheld.
    bool can_store(std::string_view property) const;
    // Null when unknown, not listed or withheld.
    const property_capability* find(std::string_view property) const;
};

// All content types of one device, keyed by lower-case CTType ("text/x-vcard", "text/calendar").
struct device_capability_set {
    std::map<std::string, device_capabilities> by_content_type;

    device_capabilities& add_content_type(std::string_view ct_type);
    // The entry of `ct_type` (case-insensitive, parameters after ';' ignored); an unknown entry when absent.
    const device_capabilities& for_content_type(std::string_view ct_type) const;
};

}  // namespace syncml::matching
