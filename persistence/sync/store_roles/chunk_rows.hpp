#pragma once
// The sync store's role for large objects a device sends in chunks (MoreData) (see sync_store.hpp).

#include <cstdint>
#include <optional>
#include <string>

namespace syncml::persistence {

// A large object is kept beside the session row, which every message rewrites: each message appends its chunk, so
// an object of n chunks costs O(n) bytes written, not O(n^2). Keyed by the device store, so that a resumed session
// (another SessionID) continues the object.
class chunk_rows {
  public:
    virtual ~chunk_rows() = default;

    // `offset` is the number of the object's bytes before this chunk; offset 0 starts an object and drops what
    // another one left (abandoned by its session).
    virtual void append_chunk(std::int64_t tenant, std::int64_t device_store, std::int64_t offset,
                              const std::string& data) = 0;
    // The object's bytes in order, removed from the store; nullopt (and removed too) unless they are exactly
    // `size` bytes from offset 0 on, e.g. when another session's object took their place.
    virtual std::optional<std::string> take_chunks(std::int64_t tenant, std::int64_t device_store,
                                                   std::int64_t size) = 0;
    virtual void drop_chunks(std::int64_t tenant, std::int64_t device_store) = 0;
};

}  // namespace syncml::persistence
