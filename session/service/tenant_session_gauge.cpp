#include "session/service/tenant_session_gauge.hpp"

#include <exception>

namespace syncml::session {

bool tenant_session_gauge::at_limit(std::int64_t tenant, std::int64_t limit, const counter& count,
                                    clock::time_point now) {
    {
        std::lock_guard lock(mutex_);
        auto& e = entries_[tenant];
        if (e.counting || (e.at != clock::time_point{} && now - e.at < refresh_)) return e.counted >= limit;
        e.counting = true;
    }
    // Counted without the lock: a slow count must not hold up other tenants' messages.
    std::int64_t counted = -1;
    try {
        counted = count(tenant, limit);
    } catch (const std::exception&) {
        counted = -1;
    }
    std::lock_guard lock(mutex_);
    auto& e = entries_[tenant];
    e.counting = false;
    if (counted < 0) return false;
    e.counted = counted;
    e.at = now;
    return counted >= limit;
}

}  // namespace syncml::session
