#include "src/frontends/sync_activity.hpp"

#include <chrono>

namespace syncml::server {
namespace {

using result = session::engine_metrics::message_result;

std::int64_t minute_of(std::int64_t seconds) { return seconds - ((seconds % 60) + 60) % 60; }

// The slot of `now`'s minute, emptied when it held one an hour or more before; null when it holds a later minute
// (a message from a worker whose clock read earlier than another's, an hour late: too old to count).
activity_minute* bucket(std::array<activity_minute, sync_activity::k_minutes>& minutes, std::int64_t now) {
    const std::int64_t minute = minute_of(now);
    auto& slot = minutes[static_cast<std::size_t>((minute / 60) % sync_activity::k_minutes)];
    if (slot.minute > minute) return nullptr;
    if (slot.minute != minute) slot = {.minute = minute, .sessions = 0, .errors = 0};
    return &slot;
}

}  // namespace

std::string_view activity_error_text(result r) {
    switch (r) {
        case result::auth_failed:
            return "authentication failed";
        case result::bad_request:
            return "malformed or unsupported message";
        case result::unavailable:
            return "refused: server busy, limit or database unavailable";
        case result::ok:
        case result::resend:
            break;
    }
    return {};
}

sync_activity::sync_activity(activity_limits limits) : limits_(limits) {}

void sync_activity::message_answered(const session::answered_message& message) noexcept {
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    try {
        record(message, now);
    } catch (...) {  // out of memory: the page misses one message
    }
}

void sync_activity::record(const session::answered_message& message, std::int64_t now) {
    const std::string_view error = activity_error_text(message.result);
    if (!message.session_done && error.empty()) return;
    std::lock_guard lock(mutex_);
    const auto count = [&](minutes& into) {
        auto* slot = bucket(into, now);
        if (slot == nullptr) return;
        if (message.session_done) ++slot->sessions;
        if (!error.empty()) ++slot->errors;
    };
    count(all_);
    auto tenant = by_tenant_.find(message.tenant);
    if (tenant == by_tenant_.end() && by_tenant_.size() < limits_.tenants) {
        tenant = by_tenant_.emplace(std::string(message.tenant), minutes{}).first;
    }
    if (tenant != by_tenant_.end()) count(tenant->second);
    if (error.empty()) return;
    if (message.result == result::auth_failed && limits_.failed_logins > 0) {
        if (failed_logins_.size() == limits_.failed_logins) failed_logins_.pop_back();
        failed_logins_.push_front({.at = now,
                                   .tenant = std::string(message.tenant),
                                   .user = std::string(message.user),
                                   .device = std::string(message.device),
                                   .address = std::string(message.address)});
    }
    if (message.device.empty() || limits_.device_errors == 0) return;
    device_key key{std::string(message.tenant), std::string(message.device)};
    const auto [at, added] = device_errors_.insert_or_assign(key, device_error{now, std::string(error)});
    if (!added) return;
    device_order_.push_back(std::move(key));
    if (device_order_.size() > limits_.device_errors) {
        device_errors_.erase(device_order_.front());
        device_order_.pop_front();
    }
}

std::vector<activity_minute> sync_activity::last_hour(std::string_view tenant, std::int64_t now) const {
    std::vector<activity_minute> hour;
    const std::int64_t current = minute_of(now);
    std::lock_guard lock(mutex_);
    const minutes* counts = &all_;
    if (!tenant.empty()) {
        const auto found = by_tenant_.find(tenant);
        counts = found == by_tenant_.end() ? nullptr : &found->second;
    }
    for (int back = k_minutes - 1; back >= 0; --back) {
        const std::int64_t minute = current - std::int64_t{60} * back;
        activity_minute entry{.minute = minute, .sessions = 0, .errors = 0};
        if (counts != nullptr) {
            const auto& slot = (*counts)[static_cast<std::size_t>((minute / 60) % k_minutes)];
            if (slot.minute == minute) entry = slot;
        }
        hour.push_back(entry);
    }
    return hour;
}

std::vector<failed_login> sync_activity::failed_logins(std::string_view tenant, std::size_t limit) const {
    std::vector<failed_login> found;
    std::lock_guard lock(mutex_);
    for (const auto& login : failed_logins_) {
        if (found.size() == limit) break;
        if (tenant.empty() || login.tenant == tenant) found.push_back(login);
    }
    return found;
}

std::optional<device_error> sync_activity::last_error(std::string_view tenant, std::string_view device) const {
    std::lock_guard lock(mutex_);
    const auto found = device_errors_.find(device_key{std::string(tenant), std::string(device)});
    if (found == device_errors_.end()) return std::nullopt;
    return found->second;
}

}  // namespace syncml::server
