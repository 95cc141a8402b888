#pragma once
// What the admin page shows of this instance's SyncML traffic (GET /admin/v1/activity, /admin/v1/failed-logins and
// the devices' last error): per-minute counts of completed sessions and of messages answered with an error over the
// last hour, the latest failed logins, and each device's latest error. In memory and bounded: per instance, like the
// Prometheus counters, and forgotten at a restart.

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "session/service/activity_sink.hpp"

namespace syncml::server {

struct activity_minute {
    std::int64_t minute = 0;  // its start, seconds since the epoch
    std::int64_t sessions = 0;
    std::int64_t errors = 0;
};

struct failed_login {
    std::int64_t at = 0;  // seconds since the epoch
    std::string tenant;
    std::string user;
    std::string device;
    std::string address;
};

struct device_error {
    std::int64_t at = 0;
    std::string message;
};

// How much it keeps: the newest entries win.
struct activity_limits {
    std::size_t failed_logins = 200;
    std::size_t device_errors = 10000;
    std::size_t tenants = 1000;  // tenants with counts of their own; all of them count in the totals
};

class sync_activity final : public session::activity_sink {
  public:
    static constexpr int k_minutes = 60;

    explicit sync_activity(activity_limits limits = {});

    void message_answered(const session::answered_message& message) noexcept override;
    // The same at a given time (seconds since the epoch): what message_answered does with the clock's.
    void record(const session::answered_message& message, std::int64_t now);

    // The last k_minutes minutes up to `now`'s, oldest first: one tenant's, or every tenant's when `tenant` is empty.
    std::vector<activity_minute> last_hour(std::string_view tenant, std::int64_t now) const;
    // Newest first, at most `limit`: one tenant's, or every tenant's when `tenant` is empty.
    std::vector<failed_login> failed_logins(std::string_view tenant, std::size_t limit) const;
    // A device id's latest error in the tenant (whoever it logged in as: later messages of a session carry no
    // credentials).
    std::optional<device_error> last_error(std::string_view tenant, std::string_view device) const;

  private:
    using minutes = std::array<activity_minute, k_minutes>;
    using device_key = std::pair<std::string, std::string>;  // tenant, device

    activity_limits limits_;
    mutable std::mutex mutex_;
    minutes all_{};
    std::map<std::string, minutes, std::less<>> by_tenant_;
    std::deque<failed_login> failed_logins_;
    std::map<device_key, device_error> device_errors_;
    std::deque<device_key> device_order_;  // oldest first, to bound device_errors_
};

// The words of an error result: "authentication failed", ...; empty for results that are no error.
std::string_view activity_error_text(session::engine_metrics::message_result result);

}  // namespace syncml::server
