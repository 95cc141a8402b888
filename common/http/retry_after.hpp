#pragma once
// The one place the Retry-After header is spelled. Every refusal that asks a client to come back later (busy
// workers, a database outage, a tenant at its limits, a throttled login) takes its header from here, whichever
// front end answers.

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

namespace syncml::common {

// ("Retry-After", whole seconds, at least 1: a zero would make clients retry at once).
inline std::pair<std::string, std::string> retry_after(std::chrono::seconds after) {
    return {"Retry-After", std::to_string(std::max<std::chrono::seconds::rep>(after.count(), 1))};
}

}  // namespace syncml::common
