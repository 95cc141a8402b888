#pragma once
// Internal to the engine: the commands of package 4, one queued change at a time, and the reads of the items they
// carry (engine_out.cpp fills the messages with them).

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "session/engine/engine_filter.hpp"
#include "session/engine/engine_run.hpp"

namespace syncml::session::detail {

// Every item command costs at least this much besides its data (tags, CmdID, Meta, LocURI).
inline constexpr std::size_t k_item_overhead = 400;

// `too_small`: the client's MaxMsgSize leaves no room for a useful chunk even in a message with nothing else.
enum class outcome { command, skip, full, too_small };

// The items one message of package 4 carries, read together (sync_store::outgoing_items) as the message
// needs them: the next items of the queue whose stored size fits the room left. Lives for one message only,
// so every message sends the items as they are then.
class item_reader {
  public:
    // The item of s.out.page[at] as stored now; nullptr when it is gone.
    const persistence::outgoing_item* find(run& r, const store_state& s, std::size_t at, std::size_t room);
    bool inside(const run& r, const store_state& s, const std::string& content) { return check(r).inside(s, content); }
    bool exclusive(const run& r, const store_state& s) { return check(r).exclusive(s); }
    std::string sendable(const run& r, const store_state& s, const std::string& content) {
        return check(r).sendable(s, content);
    }
    // Whether the device takes an item in chunks (MoreData): SyncML 1.1 and later, and it said so, in its DevInf
    // (SupportLargeObjs) or with a MaxObjSize in its header (as the Synthesis engine reads it).
    bool large_objects(const run& r);

  private:
    // Per-item command overhead assumed when the store decides how far ahead to read; below k_item_overhead,
    // so that a message needs one read even when its commands are smaller than that estimate.
    static constexpr std::size_t k_read_overhead = 100;
    // How many items one read asks for: what the room holds at a small item's size, at most 500.
    static constexpr std::size_t k_small_item = 200;
    static constexpr std::size_t k_max_items = 500;

    void read(run& r, const store_state& s, std::size_t at, std::size_t room);
    filter_check& check(const run& r) {
        if (!filter_) filter_.emplace(r.ctx.now_ms);
        return *filter_;
    }

    std::map<std::string, persistence::outgoing_item> items_;
    std::set<std::string> asked_;
    std::optional<filter_check> filter_;
    std::optional<bool> large_objects_;
};

// The Delete of the device's copy of `change`.
command delete_command(const outgoing_change& change);

// One Add/Replace/Delete for s.out.page[at]; `room` bytes are available for its data. `alone`: the message carries
// no item yet and little else (the reply to an Alert 222). `complete`: false for a chunk with more to come.
outcome next_command(run& r, store_state& s, std::size_t at, item_reader& reader, std::size_t room, bool alone,
                     command& result, bool& complete);

}  // namespace syncml::session::detail
