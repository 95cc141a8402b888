#include "src/frontends/tenant_share.hpp"

#include <algorithm>

#include "session/engine/engine_metrics.hpp"

namespace syncml::server {

tenant_share::tenant_share(std::size_t capacity, double share, session::engine_metrics* metrics)
    : cap_(std::max<std::size_t>(1, static_cast<std::size_t>(static_cast<double>(capacity) * share))),
      metrics_(metrics) {}

bool tenant_share::try_acquire(const std::string& tenant) {
    {
        std::lock_guard lock(mutex_);
        auto& held = in_flight_[tenant];
        if (held < cap_) {
            ++held;
            return true;
        }
    }
    if (metrics_) metrics_->limit_refused(session::engine_metrics::limit::worker_share);
    return false;
}

void tenant_share::release(const std::string& tenant) {
    std::lock_guard lock(mutex_);
    auto found = in_flight_.find(tenant);
    if (found == in_flight_.end()) return;
    if (--found->second == 0) in_flight_.erase(found);
}

}  // namespace syncml::server
