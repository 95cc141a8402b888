#include "session/engine/engine_out_items.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "common/crypto/base64.hpp"
#include "common/log/log_event.hpp"
#include "matching/convert/item_convert.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/item_encoding.hpp"
#include "session/engine/store_names.hpp"

namespace syncml::session::detail {
namespace {

// How many bytes of an item a chunk carries at the least: below that the client's MaxMsgSize leaves no useful room.
constexpr std::size_t k_min_chunk = 64;

// Cut at a UTF-8 character boundary so every XML chunk stays well-formed text.
std::size_t utf8_cut(const std::string& data, std::size_t from, std::size_t length) {
    auto end = std::min(data.size(), from + length);
    while (end > from + 1 && end < data.size() && (static_cast<unsigned char>(data[end]) & 0xC0) == 0x80) --end;
    return end - from;
}

// The Add (or Replace) of `change` carrying data[offset, offset + length).
command item_command_of(const store_state& s, const outgoing_change& change, const std::string& data,
                        std::size_t offset, std::size_t length) {
    const bool complete = offset + length == data.size();
    item it;
    meta_info meta;
    meta.type = s.device_mime.empty() ? default_mime(s.kind) : s.device_mime;
    if (sends_b64(s)) meta.format = "b64";
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

// Each task reaches a device whose calendar holds tasks once (calendar_tasks.hpp): a task the device does not hold goes
// to it through its calendar, not through a task datastore of its own, unless that task datastore holds the item.
bool reaches_device_here(run& r, const store_state& s, const std::string& guid) {
    if (s.tasks_via_calendar) return false;
    return s.tasks_elsewhere == 0 || !r.store.confirmed_luid(r.tenant(), s.tasks_elsewhere, guid);
}

// The stored item s.out.page[at] sends, nullptr when the package leaves it out.
const persistence::outgoing_item* sendable_item(run& r, store_state& s, std::size_t at, item_reader& reader,
                                                std::size_t room) {
    const auto& change = s.out.page[at];
    // A device at its item limit gets no item it does not hold (a mapping makes it one it holds): the item waits,
    // unread, for a sync where the device has room.
    if (s.out.limit_room == 0 && change.luid.empty() && s.out.offset == 0) {
        ++s.filtered_out;
        return nullptr;
    }
    const auto* stored = reader.find(r, s, at, room);
    if (!stored || stored->item.deleted) return nullptr;  // gone since the package started
    // An item the device does not hold is sent only inside its filter; one it holds outside an EXCLUSIVE filter is in
    // s.out.removals (engine_filter.hpp).
    const bool held = !change.luid.empty() || stored->confirmed_luid;
    if ((!held || reader.exclusive(r, s)) && !reader.inside(r, s, stored->item.content)) {
        if (!held) ++s.filtered_out;
        return nullptr;
    }
    // A resumed client may have received the Add before the interruption and mapped it since.
    if (s.resumed && change.luid.empty() && stored->confirmed_luid) return nullptr;
    if (!held && !reaches_device_here(r, s, change.guid)) return nullptr;
    return stored;
}

// An item the device cannot take is left out of this package, with a log line and a count, and goes again in the
// device's next sync (resend_after), when it may take it (a larger MaxObjSize, large objects after all).
outcome not_for_this_device(const run& r, store_state& s, const outgoing_change& change, std::size_t size,
                            const char* reason) {
    common::log_event(spdlog::level::info, "sync: item not sent, the device cannot take it",
                      {{"reason", reason},
                       {"bytes", size},
                       {"max_obj_size", r.st.max_obj_size},
                       {"store", s.client_uri},
                       {"device", r.in.header.source.loc_uri},
                       {"session", r.in.header.session_id}});
    const auto before = change.modseq - 1;
    s.resend_after = s.resend_after ? std::min(*s.resend_after, before) : before;
    ++s.too_large;
    return outcome::skip;
}

// The Add/Replace of `data` from s.out.offset on: whole, or the chunk of it that fits `room` for a device that takes
// large objects (`chunks`).
outcome item_or_chunk(run& r, store_state& s, const outgoing_change& change, const std::string& data, std::size_t room,
                      bool alone, bool chunks, command& result, bool& complete) {
    auto offset = static_cast<std::size_t>(s.out.offset);
    auto length = data.size() - offset;
    if (offset == 0 && r.st.max_obj_size > 0 && data.size() > static_cast<std::size_t>(r.st.max_obj_size))
        return not_for_this_device(r, s, change, data.size(), "larger than its MaxObjSize");
    if (length + k_item_overhead > room) {
        // Whole in the next message when it fits there; chunks only for items larger than a message.
        if (!alone && (length + k_item_overhead <= r.message_budget || room < 2 * k_item_overhead))
            return outcome::full;
        if (!chunks && offset == 0)
            return not_for_this_device(r, s, change, data.size(), "larger than a message, and it takes no chunks");
        // A message with nothing else in it carries a chunk of what fits, measured exactly, however small the
        // client's MaxMsgSize: the next message would have no more room.
        auto overhead = alone ? encoded_size(item_command_of(s, change, data, offset, 0), r.in.version, r.in.encoding)
                              : k_item_overhead;
        if (room < overhead + k_min_chunk) return alone ? outcome::too_small : outcome::full;
        length = utf8_cut(data, offset, room - overhead);
        complete = offset + length == data.size();
    }
    result = item_command_of(s, change, data, offset, length);
    s.out.offset = complete ? 0 : static_cast<std::int64_t>(offset + length);
    s.out.partial_guid = complete ? std::string{} : change.guid;
    return outcome::command;
}

}  // namespace

bool item_reader::large_objects(const run& r) {
    if (!large_objects_) {
        bool declared = r.st.max_obj_size > 0;
        if (!declared && !r.device.devinf.empty()) {
            const auto info = decode_devinf(r.device.devinf);
            declared = info && info.value().support_large_objs;
        }
        large_objects_ = r.in.version != syncml_version::v1_0 && declared;
    }
    return *large_objects_;
}

const persistence::outgoing_item* item_reader::find(run& r, const store_state& s, std::size_t at, std::size_t room) {
    const auto& guid = s.out.page[at].guid;
    auto found = items_.find(guid);
    if (found == items_.end() || !found->second.content_read) {
        if (found == items_.end() && asked_.count(guid)) return nullptr;
        read(r, s, at, room);
        found = items_.find(guid);
        if (found == items_.end()) return nullptr;
    }
    return &found->second;
}

void item_reader::read(run& r, const store_state& s, std::size_t at, std::size_t room) {
    std::vector<persistence::item_ref> refs;
    auto limit = std::min(k_max_items, room / k_small_item + 1);
    for (auto change = s.out.page.begin() + static_cast<std::ptrdiff_t>(at); change != s.out.page.end(); ++change) {
        if (refs.size() == limit) break;
        if (change->deleted) continue;
        auto found = items_.find(change->guid);
        if (found == items_.end() ? !asked_.count(change->guid) : !found->second.content_read)
            refs.push_back({change->guid, change->item_id});
    }
    for (auto& o : r.store.outgoing_items(r.tenant(), s.datastore_id, s.device_store_id, refs, room, k_read_overhead)) {
        auto guid = o.item.guid;
        items_[guid] = std::move(o);
    }
    for (const auto& ref : refs) asked_.insert(ref.guid);
}

command delete_command(const outgoing_change& change) {
    item it;
    it.target = location{change.luid, std::nullopt, std::nullopt};
    delete_ del;
    del.items.push_back(std::move(it));
    return command{std::move(del)};
}

outcome next_command(run& r, store_state& s, std::size_t at, item_reader& reader, std::size_t room, bool alone,
                     command& result, bool& complete) {
    const auto& change = s.out.page[at];
    complete = true;
    // The item partly sent as a large object changed or went since (it left the package's range).
    if (s.out.offset > 0 && s.out.partial_guid != change.guid) s.out.offset = 0;
    if (change.deleted) {
        result = delete_command(change);
        return outcome::command;
    }
    const auto* stored = sendable_item(r, s, at, reader, room);
    if (!stored) return outcome::skip;
    auto data =
        matching::to_device(reader.sendable(r, s, stored->item.content), s.device_mime, s.device_version, s.kind);
    // Large objects split the encoded text: the device decodes the item once whole.
    if (sends_b64(s)) data = common::base64_encode(data);
    return item_or_chunk(r, s, change, data, room, alone, reader.large_objects(r), result, complete);
}

}  // namespace syncml::session::detail
