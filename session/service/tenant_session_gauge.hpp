#pragma once
// The per-tenant cap on live sessions on a distributed schema (persistence/DISTRIBUTED.md): the count spans the
// shards of the tenant's users, so a message's transaction cannot take it as the single-database function does.
// Each instance counts at most once per `refresh` per tenant, outside the message's transaction. A bound on load like
// the exact count: the sessions that start within one refresh may overshoot it. (Adding this instance's starts to the
// count without its ends refused sessions at ordinary rates: 86 of 500 at 20 sessions/s against a cap of 100.)

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace syncml::session {

class tenant_session_gauge {
  public:
    using clock = std::chrono::steady_clock;
    // The tenant's live sessions, counted up to the limit at most.
    using counter = std::function<std::int64_t(std::int64_t tenant, std::int64_t limit)>;

    explicit tenant_session_gauge(std::chrono::milliseconds refresh = std::chrono::seconds(2)) : refresh_(refresh) {}

    // Whether the tenant has `limit` live sessions or more by the last count, taken afresh with `count` when it is
    // older than the refresh interval. While another caller counts, the last count answers (none yet: not at the
    // limit); a count that fails leaves the cap open (a bound on load, not worth refusing phones over).
    bool at_limit(std::int64_t tenant, std::int64_t limit, const counter& count, clock::time_point now = clock::now());

  private:
    struct entry {
        std::int64_t counted = 0;
        clock::time_point at;
        bool counting = false;  // one count at a time per tenant; the others use the last one meanwhile
    };
    std::chrono::milliseconds refresh_;
    std::mutex mutex_;
    std::unordered_map<std::int64_t, entry> entries_;
};

}  // namespace syncml::session
