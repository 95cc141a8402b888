#include "auth/address_budget.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/net/ip_network.hpp"

namespace syncml::auth {

address_budget::bucket& address_budget::refilled(const std::string& group, clock::time_point now) {
    auto [it, added] = buckets_.try_emplace(group, bucket{settings_.burst, now});
    auto& b = it->second;
    if (!added && now > b.at) {
        const double elapsed = std::chrono::duration<double>(now - b.at).count();
        b.tokens = std::min(settings_.burst, b.tokens + elapsed * settings_.per_second);
        b.at = now;
    }
    return b;
}

std::chrono::seconds address_budget::wait(std::string_view address, clock::time_point now) {
    const auto group = common::client_group(address);
    std::lock_guard lock(mutex_);
    const auto found = buckets_.find(group);
    if (found == buckets_.end()) return std::chrono::seconds(0);
    const auto& b = refilled(group, now);
    if (b.tokens >= 1.0 || settings_.per_second <= 0) return std::chrono::seconds(0);
    return std::chrono::seconds(static_cast<long>(std::ceil((1.0 - b.tokens) / settings_.per_second)));
}

void address_budget::charge(std::string_view address, double units, clock::time_point now) {
    const auto group = common::client_group(address);
    std::lock_guard lock(mutex_);
    if (buckets_.size() >= settings_.max_clients && !buckets_.contains(group)) forget_some(now);
    auto& b = refilled(group, now);
    b.tokens = std::max(-settings_.burst, b.tokens - units);
}

std::size_t address_budget::clients() const {
    std::lock_guard lock(mutex_);
    return buckets_.size();
}

void address_budget::forget_some(clock::time_point now) {
    const double full_after = settings_.per_second > 0 ? 2 * settings_.burst / settings_.per_second : 0;
    std::erase_if(buckets_, [&](const auto& entry) {
        return std::chrono::duration<double>(now - entry.second.at).count() >= full_after;
    });
    if (buckets_.size() < settings_.max_clients) return;
    // Everyone is in debt (a flood from very many addresses): keep the more recent half.
    std::vector<std::pair<clock::time_point, std::string>> by_age;
    by_age.reserve(buckets_.size());
    for (const auto& [group, b] : buckets_) by_age.emplace_back(b.at, group);
    auto middle = by_age.begin() + static_cast<std::ptrdiff_t>(by_age.size() / 2);
    std::nth_element(by_age.begin(), middle, by_age.end());
    for (auto it = by_age.begin(); it != middle; ++it) buckets_.erase(it->second);
}

}  // namespace syncml::auth
