#pragma once
// A bounded share of the worker pool per tenant (issue 15): the requests of one tenant queued or running at once
// are capped, so a tenant that floods the server fills its share and gets 503s while the requests of the others
// still find room in the queue.

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace syncml::session {
class engine_metrics;
}

namespace syncml::server {

// What share of the pool's threads plus queue one tenant may hold.
inline constexpr double k_default_tenant_share = 0.5;

class tenant_share {
  public:
    // At most max(1, capacity * share) requests per tenant at once; capacity: the pool's threads plus its queue.
    // Refusals are counted in `metrics` (null: not counted).
    tenant_share(std::size_t capacity, double share, session::engine_metrics* metrics = nullptr);
    // Takes a slot for the tenant; false (counted as a refusal) when it holds its share already.
    bool try_acquire(const std::string& tenant);
    void release(const std::string& tenant);
    std::size_t cap() const { return cap_; }

  private:
    std::size_t cap_;
    session::engine_metrics* metrics_;
    std::mutex mutex_;
    // Only tenants with requests in flight, so the map stays within the pool's capacity whatever names URLs carry.
    std::unordered_map<std::string, std::size_t> in_flight_;
};

}  // namespace syncml::server
