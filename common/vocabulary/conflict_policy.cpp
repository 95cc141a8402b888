#include "common/vocabulary/conflict_policy.hpp"

#include <algorithm>
#include <string>

namespace syncml::common {

std::string_view to_string(conflict_policy policy) {
    switch (policy) {
        case conflict_policy::merge:
            return "merge";
        case conflict_policy::server_wins:
            return "server_wins";
        case conflict_policy::client_wins:
            return "client_wins";
        case conflict_policy::newest_wins:
            return "newest_wins";
        case conflict_policy::duplicate:
            return "duplicate";
    }
    return "merge";
}

std::optional<conflict_policy> parse_conflict_policy(std::string_view text) {
    std::string name(text);
    std::replace(name.begin(), name.end(), '-', '_');
    for (auto policy : {conflict_policy::merge, conflict_policy::server_wins, conflict_policy::client_wins,
                        conflict_policy::newest_wins, conflict_policy::duplicate}) {
        if (name == to_string(policy)) return policy;
    }
    return std::nullopt;
}

}  // namespace syncml::common
