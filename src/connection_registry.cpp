#include "src/connection_registry.hpp"

#include <vector>

namespace syncml::server {

std::uint64_t connection_registry::add(closer close) {
    std::lock_guard lock(mutex_);
    const std::uint64_t id = next_id_++;
    connections_.emplace(id, entry{std::move(close), false});
    return id;
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
