#include "session/tenant_session_gauge.hpp"

namespace syncml::session {

bool tenant_session_gauge::at_limit(std::int64_t tenant, std::int64_t limit, const counter& count,
                                    clock::time_point now) {
    {
        std::lock_guard lock(mutex_);
        auto found = entries_.find(tenant);
        if (found != entries_.end() && now - found->second.at < refresh_) {
            return found->second.counted >= limit;
        }
    }
    // Counted without the lock: a slow count must not hold up other tenants' messages.
    const auto counted = count(tenant, limit);
    std::lock_guard lock(mutex_);
    entries_[tenant] = entry{counted, now};
    return counted >= limit;
}

}  // namespace syncml::session
