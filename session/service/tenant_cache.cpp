#include "session/service/tenant_cache.hpp"

namespace syncml::session {

std::optional<persistence::tenant_info> tenant_cache::find(const std::string& name, const lookup& load,
                                                           clock::time_point now) {
    if (ttl_.count() > 0) {
        std::lock_guard lock(mutex_);
        auto found = entries_.find(name);
        if (found != entries_.end() && found->second.expires > now) return found->second.tenant;
    }
    // Looked up without the mutex: two threads may both load a name, which costs one extra lookup.
    auto tenant = load();
    if (ttl_.count() <= 0) return tenant;
    std::lock_guard lock(mutex_);
    if (tenant) {
        entries_[name] = entry{*tenant, now + ttl_};
    } else {
        entries_.erase(name);
    }
    return tenant;
}

void tenant_cache::notice_changes(const std::function<std::string()>& fingerprint, clock::time_point now) {
    if (ttl_.count() <= 0) return;
    {
        std::lock_guard lock(mutex_);
        if (now < next_check_) return;
        next_check_ = now + std::chrono::seconds(1);
    }
    auto current = fingerprint();
    std::lock_guard lock(mutex_);
    if (current != fingerprint_) entries_.clear();
    fingerprint_ = std::move(current);
}

void tenant_cache::forget(const std::string& name) {
    std::lock_guard lock(mutex_);
    entries_.erase(name);
}

}  // namespace syncml::session
