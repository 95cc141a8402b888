#pragma once
// Keeps track of open connections so that shutdown can close the idle ones at once and wait for the busy
// ones to finish their request. Free of Asio: each connection registers a function that closes it.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace syncml::server {

class connection_registry {
  public:
    using closer = std::function<void()>;

    std::uint64_t add(closer close);
    void remove(std::uint64_t id);
    // Marks a connection as waiting for its next request (idle) or working on one. Returns false when the
    // server is shutting down: the connection should end instead of waiting.
    bool set_idle(std::uint64_t id, bool idle);
    // From now on set_idle() returns false; closes the connections that are idle right now.
    void begin_shutdown();
    bool stopping() const;
    std::size_t size() const;

  private:
    struct entry {
        closer close;
        bool idle = false;
    };
    mutable std::mutex mutex_;
    std::map<std::uint64_t, entry> connections_;
    std::uint64_t next_id_ = 1;
    bool stopping_ = false;
};

}  // namespace syncml::server
