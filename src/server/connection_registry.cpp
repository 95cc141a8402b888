#include "src/server/connection_registry.hpp"

#include <utility>
#include <vector>

namespace syncml::server {

connection_registry::admission connection_registry::add(closer close, std::string address, clock::time_point now) {
    std::lock_guard lock(mutex_);
    if (stopping_) return {std::nullopt, refusal::stopping, 0};
    if (connections_.size() >= limit_) return {std::nullopt, refusal::listener_full, listener_full_.note(now)};
    if (!address.empty()) {
        auto found = per_address_.find(address);
        if (found != per_address_.end() && found->second >= per_address_limit_) {
            return {std::nullopt, refusal::address_full, address_full_.note(now)};
        }
        ++per_address_[address];
    }
    const std::uint64_t id = next_id_++;
    connections_.emplace(id, entry{std::move(close), std::move(address), false});
    return {id, refusal::none, 0};
}

std::uint64_t connection_registry::refusal_log::note(clock::time_point now) {
    ++unreported;
    if (last_report && now - *last_report < refusal_report_interval) return 0;
    last_report = now;
    return std::exchange(unreported, 0);
}

void connection_registry::remove(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    auto found = connections_.find(id);
    if (found == connections_.end()) return;
    if (const auto& address = found->second.address; !address.empty()) {
        auto count = per_address_.find(address);
        if (count != per_address_.end() && --count->second == 0) per_address_.erase(count);
    }
    connections_.erase(found);
}

bool connection_registry::set_idle(std::uint64_t id, bool idle) {
    std::lock_guard lock(mutex_);
    auto found = connections_.find(id);
    if (found != connections_.end()) found->second.idle = idle;
    return !stopping_;
}

void connection_registry::begin_shutdown() {
    std::vector<closer> to_close;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        for (auto& [id, connection] : connections_) {
            if (connection.idle) to_close.push_back(connection.close);
        }
    }
    // Outside the lock: a closer may run the connection's own code, which calls back into the registry.
    for (auto& close : to_close) close();
}

bool connection_registry::stopping() const {
    std::lock_guard lock(mutex_);
    return stopping_;
}

std::size_t connection_registry::size() const {
    std::lock_guard lock(mutex_);
    return connections_.size();
}

}  // namespace syncml::server
