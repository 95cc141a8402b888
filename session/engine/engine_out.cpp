// Package 4: the server's changes since the device's last sync, split over messages that fit the
// client's MaxMsgSize, items larger than a message sent as large objects (MoreData chunks).

#include "session/engine/engine_run.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "common/log/log_event.hpp"
#include "matching/convert/item_convert.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/engine_filter.hpp"
#include "session/engine/store_names.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

// Every item command costs at least this much besides its data (tags, CmdID, Meta, LocURI).
constexpr std::size_t k_item_overhead = 400;

// The device's preferred format: the Meta Type it sent items with, else the Rx-Pref of its DevInf datastore, which
// may spell the URI the Alert used another way ("Contacts" for "./contacts").
void resolve_device_format(run& r, store_state& s) {
    if (!s.device_mime.empty() || r.device.devinf.empty()) return;
    auto info = decode_devinf(r.device.devinf);
    if (!info) return;
    for (const auto& ds : info.value().datastores) {
        if (!same_store_uri(ds.source_ref, s.client_uri) || !ds.rx_pref) continue;
        s.device_mime = ds.rx_pref->ct_type;
        s.device_version = ds.rx_pref->ver_ct;
    }
}

void queue_changes(store_state& s, const std::vector<persistence::change_record>& changes) {
    for (const auto& change : changes) {
        if (change.deleted && !change.luid) continue;  // the device never had it
        s.outgoing.push_back({change.guid, change.modseq, change.deleted, change.luid.value_or(""), change.item_id});
    }
}

// Changes one page reads: twice what a message holds at the least an item costs, so that a message mostly needs
// one read (another when items it skips or sends small leave room).
std::size_t page_size(std::size_t budget) { return std::min<std::size_t>(1000, 2 * (budget / k_item_overhead + 1)); }

// Refills the empty queue with the next page after the cursor; false when the package has nothing left.
bool load_page(run& r, store_state& s, std::size_t budget) {
    while (s.outgoing.empty() && !s.out_loaded_all && s.out_position < s.upto_modseq) {
        auto limit = page_size(budget);
        auto page = r.store.change_page(r.tenant(), s.datastore_id, s.device_store_id, s.out_position, s.upto_modseq,
                                        !sync_mode::granted(s.mode).server_sends_all_items(), limit);
        s.out_loaded_all = page.size() < limit;
        queue_changes(s, page);
        if (s.outgoing.empty() && !page.empty()) s.out_position = page.back().modseq;
    }
    if (s.outgoing.empty()) s.out_position = std::max(s.out_position, s.upto_modseq);
    return !s.outgoing.empty();
}

// The first `taken` changes of the queue were sent or skipped: the cursor moves past them, at once (erasing the
// front item by item costs as many moves as the queue is long, per item).
void take(store_state& s, std::size_t taken) {
    if (taken == 0) return;
    s.out_position = s.outgoing[taken - 1].modseq;
    s.outgoing.erase(s.outgoing.begin(), s.outgoing.begin() + static_cast<std::ptrdiff_t>(taken));
}

command empty_sync(const run& r, const store_state& s) {
    sync out;
    out.target = location{s.client_uri, std::nullopt, std::nullopt};
    out.source = location{s.server_uri, std::nullopt, std::nullopt};
    // With a filter, the queue holds items the package will leave out: the count would be wrong, and it is optional.
    if (r.in.version != syncml_version::v1_0 && !s.server_sync_started && s.filter.empty())
        out.number_of_changes = static_cast<std::uint64_t>(s.out_count);
    return command{std::move(out)};
}

// Cut at a UTF-8 character boundary so every XML chunk stays well-formed text.
std::size_t utf8_cut(const std::string& data, std::size_t from, std::size_t length) {
    auto end = std::min(data.size(), from + length);
    while (end > from + 1 && end < data.size() && (static_cast<unsigned char>(data[end]) & 0xC0) == 0x80) --end;
    return end - from;
}

// `too_small`: the client's MaxMsgSize leaves no room for a useful chunk even in a message with nothing else.
enum class outcome { command, skip, full, too_small };

// The items one message of package 4 carries, read together (sync_store::outgoing_items) as the message
// needs them: the next items of the queue whose stored size fits the room left. Lives for one message only,
// so every message sends the items as they are then.
class item_reader {
  public:
    // The item of s.outgoing[at] as stored now; nullptr when it is gone.
    const persistence::outgoing_item* find(run& r, const store_state& s, std::size_t at, std::size_t room) {
        const auto& guid = s.outgoing[at].guid;
        auto found = items_.find(guid);
        if (found == items_.end() || !found->second.content_read) {
            if (found == items_.end() && asked_.count(guid)) return nullptr;
            read(r, s, at, room);
            found = items_.find(guid);
            if (found == items_.end()) return nullptr;
        }
        return &found->second;
    }
    bool inside(const run& r, const store_state& s, const std::string& content) { return check(r).inside(s, content); }
    bool exclusive(const run& r, const store_state& s) { return check(r).exclusive(s); }
    std::string sendable(const run& r, const store_state& s, const std::string& content) {
        return check(r).sendable(s, content);
    }

  private:
    // Per-item command overhead assumed when the store decides how far ahead to read; below k_item_overhead,
    // so that a message needs one read even when its commands are smaller than that estimate.
    static constexpr std::size_t k_read_overhead = 100;
    // How many items one read asks for: what the room holds at a small item's size, at most 500.
    static constexpr std::size_t k_small_item = 200;
    static constexpr std::size_t k_max_items = 500;

    void read(run& r, const store_state& s, std::size_t at, std::size_t room) {
        std::vector<persistence::item_ref> refs;
        auto limit = std::min(k_max_items, room / k_small_item + 1);
        for (auto change = s.outgoing.begin() + static_cast<std::ptrdiff_t>(at); change != s.outgoing.end(); ++change) {
            if (refs.size() == limit) break;
            if (change->deleted) continue;
            auto found = items_.find(change->guid);
            if (found == items_.end() ? !asked_.count(change->guid) : !found->second.content_read)
                refs.push_back({change->guid, change->item_id});
        }
        for (auto& o :
             r.store.outgoing_items(r.tenant(), s.datastore_id, s.device_store_id, refs, room, k_read_overhead)) {
            auto guid = o.item.guid;
            items_[guid] = std::move(o);
        }
        for (const auto& ref : refs) asked_.insert(ref.guid);
    }

    std::map<std::string, persistence::outgoing_item> items_;
    std::set<std::string> asked_;
    filter_check& check(const run& r) {
        if (!filter_) filter_.emplace(r.ctx.now_ms);
        return *filter_;
    }

    std::optional<filter_check> filter_;
};

// The Add (or Replace) of `change` carrying data[offset, offset + length).
command item_command_of(const store_state& s, const outgoing_change& change, const std::string& data,
                        std::size_t offset, std::size_t length) {
    const bool complete = offset + length == data.size();
    item it;
    meta_info meta;
    meta.type = s.device_mime.empty() ? default_mime(s.kind) : s.device_mime;
    if (offset == 0 && !complete) meta.size = data.size();
    it.meta = meta;
    it.source = location{change.guid, std::nullopt, std::nullopt};
    if (!change.luid.empty()) it.target = location{change.luid, std::nullopt, std::nullopt};
    it.data = item_data{data.substr(offset, length), std::nullopt, std::nullopt};
    it.more_data = !complete;
    item_command cmd;
    cmd.items.push_back(std::move(it));
    if (change.luid.empty()) return command{add{std::move(cmd)}};
    return command{replace{std::move(cmd)}};
}

// The Delete of the device's copy of `change`.
command delete_command(const outgoing_change& change) {
    item it;
    it.target = location{change.luid, std::nullopt, std::nullopt};
    delete_ del;
    del.items.push_back(std::move(it));
    return command{std::move(del)};
}

// How many bytes of an item a chunk carries at the least: below that the client's MaxMsgSize leaves no useful room.
constexpr std::size_t k_min_chunk = 64;

// One Add/Replace/Delete for s.outgoing[at]; `room` bytes are available for its data. `alone`: the message carries
// no item yet and little else (the reply to an Alert 222).
outcome next_command(run& r, store_state& s, std::size_t at, item_reader& reader, std::size_t room, bool alone,
                     command& result, bool& complete) {
    const auto& change = s.outgoing[at];
    complete = true;
    // The item partly sent as a large object changed or went since (it left the package's range).
    if (s.out_offset > 0 && s.out_partial != change.guid) s.out_offset = 0;
    if (change.deleted) {
        result = delete_command(change);
        return outcome::command;
    }
    // A device at its item limit gets no item it does not hold (a mapping makes it one it holds): the item waits,
    // unread, for a sync where the device has room.
    if (s.limit_room == 0 && change.luid.empty() && s.out_offset == 0) {
        ++s.filtered_out;
        return outcome::skip;
    }
    const auto* stored = reader.find(r, s, at, room);
    if (!stored || stored->item.deleted) return outcome::skip;  // gone since the package started
    // An item the device does not hold is sent only inside its filter; one it holds outside an EXCLUSIVE filter is in
    // s.removals (engine_filter.hpp).
    const bool held = !change.luid.empty() || stored->confirmed_luid;
    if ((!held || reader.exclusive(r, s)) && !reader.inside(r, s, stored->item.content)) {
        if (!held) ++s.filtered_out;
        return outcome::skip;
    }
    // A resumed client may have received the Add before the interruption and mapped it since.
    if (s.resumed && change.luid.empty() && stored->confirmed_luid) return outcome::skip;
    auto data =
        matching::to_device(reader.sendable(r, s, stored->item.content), s.device_mime, s.device_version, s.kind);
    auto offset = static_cast<std::size_t>(s.out_offset);
    auto length = data.size() - offset;
    if (length + k_item_overhead > room) {
        // Whole in the next message when it fits there; chunks only for items larger than a message.
        if (!alone && (length + k_item_overhead <= r.message_budget || room < 2 * k_item_overhead))
            return outcome::full;
        // A message with nothing else in it carries a chunk of what fits, measured exactly, however small the
        // client's MaxMsgSize: the next message would have no more room.
        auto overhead = alone ? encoded_size(item_command_of(s, change, data, offset, 0), r.in.version, r.in.encoding)
                              : k_item_overhead;
        if (room < overhead + k_min_chunk) return alone ? outcome::too_small : outcome::full;
        length = utf8_cut(data, offset, room - overhead);
        complete = offset + length == data.size();
    }
    result = item_command_of(s, change, data, offset, length);
    s.out_offset = complete ? 0 : static_cast<std::int64_t>(offset + length);
    s.out_partial = complete ? std::string{} : change.guid;
    return outcome::command;
}

// Whether the client refused the command that carried `change` (its Status, when one came, says so). A Delete of
// an item the device no longer has, and an Add of one it already has, leave the device as the command meant to.
bool refused(const outgoing_change& change) {
    int code = change.client_status;
    if (code < 300) return false;  // done, or no Status (NoResp, or none sent): delivered as the reply arrived
    if (change.deleted && code == status_codes::not_found) return false;
    if (change.luid.empty() && code == status_codes::already_exists) return false;
    return true;
}

// Records what the device holds once the message with the commands arrived. A command the client refused (4xx/5xx,
// e.g. 420 device full, 514 cancelled) is not recorded: its change goes out again in the device's next sync (the
// store's resend_after), a Replace of an item the device lost (404, 410) as an Add.
void delivered(run& r, store_state& s, bool completing) {
    std::vector<std::pair<persistence::item_ref, std::int64_t>> held;
    std::vector<persistence::item_ref> removed;
    for (const auto& change : s.in_flight) {
        if (refused(change)) {
            auto before = change.modseq - 1;
            s.resend_after = s.resend_after < 0 ? before : std::min(s.resend_after, before);
            bool lost = !change.deleted && !change.luid.empty() &&
                        (change.client_status == status_codes::not_found || change.client_status == status_codes::gone);
            if (lost) removed.push_back({change.guid, change.item_id});
        } else if (change.deleted) {
            removed.push_back({change.guid, change.item_id});
            ++s.sent_delete;
        } else if (!change.luid.empty()) {
            held.emplace_back(persistence::item_ref{change.guid, change.item_id}, change.modseq);
            ++s.sent_replace;
        } else {
            ++s.sent_add;
        }
    }
    if (!held.empty() || !removed.empty()) {
        r.store.record_delivery(r.tenant(), s.datastore_id, s.device_store_id, held, removed);
        if (!completing) mark_delivery(r, s);
    }
    s.in_flight.clear();
}

// Fills one Sync for store s from the queue, page after page; returns false when the message is full.
// Where a change sent in this reply sits: its Sync in r.commands and its place in that Sync, until the reply's
// CmdIDs are known.
struct sent_position {
    store_state* store;
    std::size_t flight;  // index in store->in_flight
    std::size_t sync;    // index in r.commands
    std::size_t inner;   // index in the Sync's commands
};

// A message of package 4 with little but its items: not the first (which answers package 3), none carrying statuses
// an earlier reply had no room for.
bool light_message(const run& r) { return !r.package4_start && !r.carrying; }

// The client's MaxMsgSize leaves no room for progress: the session ends here rather than send empty messages forever.
void too_small(run& r) {
    common::log_event(spdlog::level::warn, "sync: MaxMsgSize leaves no room for an item, session ends",
                      {{"max_msg_size", r.st.max_msg_size},
                       {"device", r.in.header.source.loc_uri},
                       {"session", r.in.header.session_id}});
    r.abort_code = status_codes::command_failed;
}

bool fill_store(run& r, store_state& s, item_reader& reader, std::size_t& budget, std::vector<sent_position>& sent) {
    auto sync_cmd = empty_sync(r, s);
    auto& out = std::get<sync>(sync_cmd.value);
    s.server_sync_started = true;
    auto used = encoded_size(sync_cmd, r.in.version, r.in.encoding);
    if (used > budget) {
        if (light_message(r) && sent.empty()) too_small(r);  // not even an empty Sync fits a message
        return false;
    }
    bool full = false;
    std::size_t at = 0;
    // Items leaving the device because they left its filter go first: they free room on it.
    std::size_t removed = 0;
    for (; removed < s.removals.size(); ++removed) {
        auto cmd = delete_command(s.removals[removed]);
        auto size = encoded_size(cmd, r.in.version, r.in.encoding);
        if (used + size > budget) {
            if (light_message(r) && sent.empty() && out.commands.empty()) too_small(r);
            full = true;
            break;
        }
        used += size;
        out.commands.push_back(std::move(cmd));
        sent.push_back({&s, s.in_flight.size(), r.commands.size(), out.commands.size() - 1});
        s.in_flight.push_back(std::move(s.removals[removed]));
    }
    s.removals.erase(s.removals.begin(), s.removals.begin() + static_cast<std::ptrdiff_t>(removed));
    while (!full) {
        if (at == s.outgoing.size()) {
            take(s, std::exchange(at, 0));
            if (!load_page(r, s, budget)) break;
        }
        bool complete = false;
        command cmd;
        auto offset_before = s.out_offset;
        // No item in this message yet, which is not the first of the package (that one answers package 3, and its
        // statuses may leave less room than the next message has).
        const bool alone = light_message(r) && sent.empty() && out.commands.empty();
        auto result = next_command(r, s, at, reader, budget - used, alone, cmd, complete);
        if (result == outcome::skip) {
            s.out_offset = 0;
            ++at;
            continue;
        }
        if (result == outcome::too_small) too_small(r);
        if (result == outcome::full || result == outcome::too_small) break;
        auto size = encoded_size(cmd, r.in.version, r.in.encoding);
        if (used + size > budget && !out.commands.empty()) {
            s.out_offset = offset_before;  // sent in the next message
            break;
        }
        used += size;
        const bool adds = std::holds_alternative<add>(cmd.value);
        out.commands.push_back(std::move(cmd));
        if (!complete) {
            full = true;
            break;
        }
        if (adds && s.limit_room > 0) --s.limit_room;
        sent.push_back({&s, s.in_flight.size(), r.commands.size(), out.commands.size() - 1});
        s.in_flight.push_back(std::move(s.outgoing[at++]));
    }
    take(s, at);
    budget -= std::min(budget, used);
    r.commands.push_back(std::move(sync_cmd));
    return !full && s.outgoing.empty();  // a loop that ends with an empty queue found no page left
}

// The CmdIDs the reply will carry (build_reply numbers the SyncHdr Status, the other statuses, then each command,
// a Sync before its commands), noted with each change sent, with the reply's MsgID, for the client's Statuses.
void note_command_ids(run& r, const std::vector<sent_position>& sent) {
    std::vector<std::int64_t> first_inner;  // per command of r.commands: the CmdID of its first inner command
    auto next = static_cast<std::int64_t>(r.statuses.size()) + 2;  // the first command's
    for (const auto& cmd : r.commands) {
        first_inner.push_back(next + 1);
        const auto* s = std::get_if<sync>(&cmd.value);
        next += 1 + (s ? static_cast<std::int64_t>(s->commands.size()) : 0);
    }
    for (const auto& p : sent) {
        auto& change = p.store->in_flight[p.flight];
        change.msg_id = r.st.next_msg_id;
        change.cmd_id = std::to_string(first_inner[p.sync] + static_cast<std::int64_t>(p.inner));
    }
}

// The client answered our previous reply, so it holds what that reply carried.
void acknowledge_delivery(run& r, bool completing) {
    for (auto& s : r.st.stores) delivered(r, s, completing);
}

}  // namespace

// Reads the whole package once, for its NumberOfChanges and first message; later messages page after the cursor.
void start_server_changes(run& r) {
    for (auto& s : r.st.stores) {
        auto mode = sync_mode::granted(s.mode);
        bool slow = mode.server_sends_all_items();
        // A filtered sync looks at every item the device does not hold (engine_filter.hpp), deletes included.
        bool from_start = slow || s.rescan;
        auto start = r.store.server_changes(r.tenant(), s.datastore_id, s.device_store_id, mode.server_sends(),
                                            from_start, !slow);
        // One-way from the client: the server's changes stay unsent.
        s.upto_modseq = mode == sync_modes::one_way_from_client ? start.last_seen_modseq : start.current_modseq;
        s.out_position = !mode.server_sends() ? s.upto_modseq : from_start ? 0 : start.last_seen_modseq;
        s.out_offset = 0;
        s.out_partial.clear();
        resolve_device_format(r, s);
        if (mode.server_sends()) plan_filtered_package(r, s);
        s.outgoing.clear();
        queue_changes(s, start.changes);
        s.out_count = static_cast<std::int64_t>(s.outgoing.size());
        s.out_loaded_all = true;
    }
}

void fill_server_changes(run& r, std::size_t budget) {
    acknowledge_delivery(r, false);
    item_reader reader;
    bool done = true;
    std::vector<sent_position> sent;
    for (auto& s : r.st.stores) {
        if (s.server_sync_started && s.outgoing.empty() && s.removals.empty() && s.out_position >= s.upto_modseq)
            continue;
        if (!fill_store(r, s, reader, budget, sent)) {
            done = false;
            break;
        }
    }
    note_command_ids(r, sent);
    if (done) {
        r.final = true;
        r.st.current = phase::map;
    }
    // The next message reads from the cursor, as it would from the stored state.
    for (auto& s : r.st.stores) {
        s.outgoing.clear();
        s.out_loaded_all = false;
    }
}

// Only a resume (Alert 225) continues from what a session that did not complete recorded as delivered. A new session
// cannot know whether the device kept it (a client that rolls back a failed session does not), so the device store
// needs a slow sync until one completes, and that slow sync finds which of the device's copies are stale
// (engine_match.hpp). A slow sync or refresh required it at its Alert already (start_over).
void mark_delivery(run& r, store_state& s) {
    if (s.delivery_marked || sync_mode::granted(s.mode).everything) return;
    r.store.require_slow_sync(r.tenant(), s.device_store_id);
    s.delivery_marked = true;
}

void complete_session(run& r) {
    acknowledge_delivery(r, true);
    for (auto& s : r.st.stores) {
        // Every column the sync ends with; the rest of the row stays as the Alert found it. The device has seen
        // the package up to its end, except the changes it refused; a client that answered our Alert with 508
        // gets a slow sync next time.
        auto seen = s.resend_after < 0 ? s.upto_modseq : std::min(s.upto_modseq, s.resend_after);
        persistence::device_store_record ds{
            s.device_store_id, s.datastore_id, s.client_next, s.server_next, seen, s.slow_sync_required, s.filter, {}};
        r.store.save_device_store(r.tenant(), ds);
        if (sync_mode::granted(s.mode).everything && !s.filter.empty()) drop_unconfirmed_mappings(r, s);
    }
    r.st.current = phase::done;
}

}  // namespace syncml::session::detail
