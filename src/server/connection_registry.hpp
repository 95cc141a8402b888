#pragma once
// Keeps track of a listener's open connections: it caps their number, overall and per client address, and shutdown
// closes the idle ones at once and waits for the busy ones to finish their request. Free of Asio: each connection
// registers a function that closes it.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace syncml::server {

class connection_registry {
  public:
    using closer = std::function<void()>;
    using clock = std::chrono::steady_clock;
    // A full listener (or address) is reported at most this often, with the number refused since the last report.
    static constexpr auto refusal_report_interval = std::chrono::seconds(10);

    enum class refusal { none, listener_full, address_full, stopping };

    struct admission {
        std::optional<std::uint64_t> id;  // nullopt: refused, for the reason in `refused`
        refusal refused = refusal::none;
        std::uint64_t refusals_to_report = 0;  // nonzero when the caller should log the refusals (of this kind) now
    };

    explicit connection_registry(std::size_t limit = SIZE_MAX, std::size_t per_address_limit = SIZE_MAX)
        : limit_(limit), per_address_limit_(per_address_limit) {}

    // `address` is the bucket the per-address cap counts in (an IPv4 address, an IPv6 /64); empty: not counted (a
    // trusted proxy, through which every client comes).
    admission add(closer close, std::string address = {}, clock::time_point now = clock::now());
    void remove(std::uint64_t id);
    // Marks a connection as waiting for its next request (idle) or working on one. Returns false when the
    // server is shutting down: the connection should end instead of waiting.
    bool set_idle(std::uint64_t id, bool idle);
    // From now on set_idle() returns false; closes the connections that are idle right now.
    void begin_shutdown();
    bool stopping() const;
    std::size_t size() const;
    std::size_t limit() const { return limit_; }
    std::size_t per_address_limit() const { return per_address_limit_; }

  private:
    struct entry {
        closer close;
        std::string address;
        bool idle = false;
    };
    // Refusals of one kind, so that a flood of connections does not become a flood of log lines.
    struct refusal_log {
        std::uint64_t unreported = 0;
        std::optional<clock::time_point> last_report;
        std::uint64_t note(clock::time_point now);
    };

    const std::size_t limit_;
    const std::size_t per_address_limit_;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, entry> connections_;
    std::map<std::string, std::size_t> per_address_;
    std::uint64_t next_id_ = 1;
    bool stopping_ = false;
    refusal_log listener_full_;
    refusal_log address_full_;
};

}  // namespace syncml::server
