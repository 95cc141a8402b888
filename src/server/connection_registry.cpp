#include "src/server/connection_registry.hpp"

#include <utility>
#include <vector>

namespace syncml::server {

connection_registry::admission connection_registry::add(closer close, clock::time_point now) {
    std::lock_guard lock(mutex_);
    if (stopping_) return {};
    if (connections_.size() >= limit_) return {std::nullopt, note_refusal(now)};
    const std::uint64_t id = next_id_++;
    connections_.emplace(id, entry{std::move(close), false});
    return {id, 0};
}

// Rate-limited so that a flood of connections does not become a flood of log lines.
std::uint64_t connection_registry::note_refusal(clock::time_point now) {
    ++unreported_refusals_;
    if (last_report_ && now - *last_report_ < refusal_report_interval) return 0;
    last_report_ = now;
    return std::exchange(unreported_refusals_, 0);
}

void connection_registry::remove(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    connections_.erase(id);
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
