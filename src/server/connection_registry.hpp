#pragma once
// Keeps track of a listener's open connections: it caps their number, and shutdown closes the idle ones at
// once and waits for the busy ones to finish their request. Free of Asio: each connection registers a
// function that closes it.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

namespace syncml::server {

class connection_registry {
  public:
    using closer = std::function<void()>;
    using clock = std::chrono::steady_clock;
    // A full listener is reported at most this often, with the number refused since the last report.
    static constexpr auto refusal_report_interval = std::chrono::seconds(10);

    struct admission {
        std::optional<std::uint64_t> id;       // nullopt: refused (the limit is reached or the server is stopping)
        std::uint64_t refusals_to_report = 0;  // nonzero when the caller should log the refusals now
    };

    explicit connection_registry(std::size_t limit = SIZE_MAX) : limit_(limit) {}

    admission add(closer close, clock::time_point now = clock::now());
    void remove(std::uint64_t id);
    // Marks a connection as waiting for its next request (idle) or working on one. Returns false when the
    // server is shutting down: the connection should end instead of waiting.
    bool set_idle(std::uint64_t id, bool idle);
    // From now on set_idle() returns false; closes the connections that are idle right now.
    void begin_shutdown();
    bool stopping() const;
    std::size_t size() const;
    std::size_t limit() const { return limit_; }

  private:
    struct entry {
        closer close;
        bool idle = false;
    };
    std::uint64_t note_refusal(clock::time_point now);

    const std::size_t limit_;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, entry> connections_;
    std::uint64_t next_id_ = 1;
    bool stopping_ = false;
    std::uint64_t unreported_refusals_ = 0;
    std::optional<clock::time_point> last_report_;
};

}  // namespace syncml::server
