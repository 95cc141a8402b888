#pragma once
// The tenant's rule for a true conflict (both sides changed an item), one type for every module: the admin API and
// CLI set it, persistence stores it (tenants.conflict_policy), the engine reads it and matching merges by it.

#include <optional>
#include <string_view>

namespace syncml::common {

// Whatever the policy, a property the device cannot store or stored truncated is never taken from the device copy
// (matching/merge/merge_items.hpp). It also decides slow-sync twins, where "which is newer" is unknowable.
enum class conflict_policy {
    merge,        // field by field: device values win where present, multi-valued properties are unioned
    server_wins,  // the stored copy stays as it is; the device gets it back
    client_wins,  // the device copy replaces every property the device can store
    newest_wins,  // client_wins when the device copy's REV / LAST-MODIFIED / DTSTAMP is newer, else server_wins
    duplicate,    // keep both: stored stays, the device copy becomes a new server item
};

// As tenants.conflict_policy stores it and metric labels and logs spell it: "merge", "server_wins", ...
std::string_view to_string(conflict_policy policy);
// The stored spelling, or the one with '-' ("server-wins") that the admin API and matching use; nullopt for others.
std::optional<conflict_policy> parse_conflict_policy(std::string_view text);

}  // namespace syncml::common
