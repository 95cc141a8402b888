#include "session/engine/engine_conflict.hpp"

#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {

using matching::conflict_policy;

std::string_view to_string(conflict_resolution resolution) {
    switch (resolution) {
        case conflict_resolution::merged:
            return "merged";
        case conflict_resolution::server_won:
            return "server_won";
        case conflict_resolution::client_won:
            return "client_won";
        case conflict_resolution::duplicated:
            return "duplicated";
    }
    return "merged";
}

conflict_resolution resolution_of(conflict_policy policy, const matching::merge_result& result) {
    if (result.keep_both) return conflict_resolution::duplicated;
    switch (policy) {
        case conflict_policy::server_wins:
            return conflict_resolution::server_won;
        case conflict_policy::client_wins:
            return conflict_resolution::client_won;
        case conflict_policy::newest_wins:
            return result.stored_changed ? conflict_resolution::client_won : conflict_resolution::server_won;
        default:
            return conflict_resolution::merged;
    }
}

// OMA DS 1.2.1 representation protocol: 207 merged, 208 client's command won, 209 duplicate, and 419
// (server data won), which libsynthesis sends as a server and accepts as a client.
int conflict_status(conflict_resolution resolution) {
    switch (resolution) {
        case conflict_resolution::merged:
            return status_codes::conflict_merged;
        case conflict_resolution::client_won:
            return status_codes::conflict_client_won;
        case conflict_resolution::duplicated:
            return status_codes::conflict_duplicated;
        case conflict_resolution::server_won:
            break;
    }
    return status_codes::conflict_server_won;
}

}  // namespace syncml::session::detail
