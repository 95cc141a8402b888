#pragma once
// Internal to the engine: how a conflict (both sides changed an item) ended by the tenant's policy, and the name the
// outcome has in metric labels and logs.

#include <string_view>

#include "matching/merge/merge_items.hpp"

namespace syncml::session::detail {

enum class conflict_resolution { merged, server_won, client_won, duplicated };

// "merged", "server_won", "client_won", "duplicated": the metric label and log value.
std::string_view to_string(conflict_resolution resolution);
conflict_resolution resolution_of(matching::conflict_policy policy, const matching::merge_result& result);
// The Status that answers the client's command.
int conflict_status(conflict_resolution resolution);

}  // namespace syncml::session::detail
