// Package 4: the server's changes since the device's last sync, split over messages that fit the
// client's MaxMsgSize, items larger than a message sent as large objects (MoreData chunks).

#include "session/engine/engine_run.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "common/log/log_event.hpp"
#include "common/text/ascii_case.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/calendar_tasks.hpp"
#include "session/engine/engine_filter.hpp"
#include "session/engine/engine_out_items.hpp"
#include "session/engine/engine_short_guids.hpp"
#include "session/engine/store_names.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

bool receives(const datastore& ds, std::string_view mime) {
    return std::any_of(ds.rx.begin(), ds.rx.end(),
                       [&](const content_type_ref& t) { return common::iequals(t.ct_type, mime); });
}

// The format the device's DevInf names for store `s`: the Rx-Pref of its datastore, which may spell the URI the Alert
// used another way ("Contacts" for "./contacts"). A Funambol client that addresses scard, scal, stask or snote syncs in
// SIF whatever its Rx-Pref says (its DevInf is the same for both ways to sync), unless its DevInf lists what it
// receives without SIF.
void format_from_devinf(const run& r, store_state& s, const std::optional<std::string>& sif) {
    if (r.device.devinf.empty()) return;
    auto info = decode_devinf(r.device.devinf);
    if (!info) return;
    for (const auto& ds : info.value().datastores) {
        if (!same_store_uri(ds.source_ref, s.client_uri) || !ds.rx_pref) continue;
        if (sif && (ds.rx.empty() || receives(ds, *sif))) continue;
        s.device_mime = ds.rx_pref->ct_type;
        s.device_version = ds.rx_pref->ver_ct;
    }
}

// The device's preferred format: the Meta Type it sent items with in this session, else what its DevInf says, else
// the format remembered from its last completed sync of the store (what it sent or its DevInf said then), so that a
// device without a usable DevInf that sends nothing still gets the format it uses. The task side of a calendar takes
// the calendar's.
void resolve_device_format(run& r, store_state& s) {
    if (s.calendar_tasks) {
        if (const auto* cal = find_store(r.st, s.server_uri)) {
            s.device_mime = cal->device_mime;
            s.device_version = cal->device_version;
            s.device_format = cal->device_format;
        }
        return;
    }
    if (!s.device_mime.empty()) return;
    auto sif = sif_type_of_store(s.server_uri);
    if (sif) s.device_mime = *sif;
    format_from_devinf(r, s, sif);
    if (s.device_mime.empty()) {
        if (!r.views) r.views = r.store.device_store_views(r.tenant(), r.device.id);
        for (const auto& view : *r.views) {
            if (view.id != s.device_store_id || view.content_type.empty()) continue;
            s.device_mime = view.content_type;
            s.device_version = view.content_version;
        }
    }
}

void queue_changes(store_state& s, const std::vector<persistence::change_record>& changes) {
    for (const auto& change : changes) {
        if (change.deleted && !change.luid) continue;  // the device never had it
        s.out.page.push_back({change.guid, change.modseq, change.deleted, change.luid.value_or(""), change.item_id});
    }
}

// Changes one page reads: twice what a message holds at the least an item costs, so that a message mostly needs
// one read (another when items it skips or sends small leave room).
std::size_t page_size(std::size_t budget) { return std::min<std::size_t>(1000, 2 * (budget / k_item_overhead + 1)); }

// Refills the empty queue with the next page after the cursor; false when the package has nothing left.
bool load_page(run& r, store_state& s, std::size_t budget) {
    while (s.out.page.empty() && !s.out.loaded_all && s.out.position < s.upto_modseq) {
        auto limit = page_size(budget);
        auto page = r.store.change_page(r.tenant(), s.datastore_id, s.device_store_id, s.out.position, s.upto_modseq,
                                        !sync_mode::granted(s.mode).server_sends_all_items(), limit);
        s.out.loaded_all = page.size() < limit;
        queue_changes(s, page);
        if (s.out.page.empty() && !page.empty()) s.out.position = page.back().modseq;
    }
    if (s.out.page.empty()) s.out.position = std::max(s.out.position, s.upto_modseq);
    return !s.out.page.empty();
}

// The first `taken` changes of the queue were sent or skipped: the cursor moves past them, at once (erasing the
// front item by item costs as many moves as the queue is long, per item).
void take(store_state& s, std::size_t taken) {
    if (taken == 0) return;
    s.out.position = s.out.page[taken - 1].modseq;
    s.out.page.erase(s.out.page.begin(), s.out.page.begin() + static_cast<std::ptrdiff_t>(taken));
}

command empty_sync(run& r, const store_state& s) {
    sync out;
    out.target = location{s.client_uri, std::nullopt, std::nullopt};
    out.source = location{s.server_uri, std::nullopt, std::nullopt};
    // With a filter, the queue holds items the package will leave out: the count would be wrong, and it is optional.
    // A calendar that holds tasks counts its task side's changes too; the task side's own Sync counts none.
    if (r.in.version != syncml_version::v1_0 && !s.server_sync_started && s.filter.empty() && !s.calendar_tasks) {
        auto count = s.out.count;
        if (const auto* tasks = calendar_tasks_of(r.st, s)) count += tasks->out.count;
        out.number_of_changes = static_cast<std::uint64_t>(count);
    }
    return command{std::move(out)};
}

// The task side of a calendar sends its changes in the calendar's Sync when that is the last command of the reply:
// the device sees one Sync for its calendar. Takes that Sync out of r.commands (fill_store puts it back).
bool take_calendar_sync(run& r, const store_state& s, command& out) {
    if (!s.calendar_tasks || r.commands.empty()) return false;
    const auto* last = std::get_if<sync>(&r.commands.back().value);
    if (!last || !last->target || last->target->loc_uri != s.client_uri || !last->source ||
        last->source->loc_uri != s.server_uri)
        return false;
    out = std::move(r.commands.back());
    r.commands.pop_back();
    return true;
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
    for (const auto& change : s.out.in_flight) {
        // Once the client refused the Sync that carries them, only a change it confirmed arrived.
        const bool unconfirmed = s.client_refused && (change.client_status < 200 || change.client_status >= 300);
        if (unconfirmed || refused(change)) {
            auto before = change.modseq - 1;
            s.resend_after = s.resend_after ? std::min(*s.resend_after, before) : before;
            bool lost = !change.deleted && !change.luid.empty() &&
                        (change.client_status == status_codes::not_found || change.client_status == status_codes::gone);
            if (lost) removed.push_back({change.guid, change.item_id});
        } else if (change.deleted) {
            removed.push_back({change.guid, change.item_id});
            ++s.counts.sent_delete;
        } else if (!change.luid.empty()) {
            held.emplace_back(persistence::item_ref{change.guid, change.item_id}, change.modseq);
            ++s.counts.sent_replace;
        } else {
            ++s.counts.sent_add;
        }
    }
    if (!held.empty() || !removed.empty()) {
        r.store.record_delivery(r.tenant(), s.datastore_id, s.device_store_id, held, removed);
        if (!completing) mark_delivery(r, s);
    }
    s.out.in_flight.clear();
}

// Fills one Sync for store s from the queue, page after page; returns false when the message is full.
// Where a change sent in this reply sits: its Sync in r.commands and its place in that Sync, until the reply's
// CmdIDs are known.
struct sent_position {
    store_state* store;
    std::size_t flight;  // index in store->out.in_flight
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

// The command just added to the Sync `out` carries `change`, which is in flight until the client answers.
void track_sent(const run& r, store_state& s, const sync& out, outgoing_change change,
                std::vector<sent_position>& sent) {
    sent.push_back({&s, s.out.in_flight.size(), r.commands.size(), out.commands.size() - 1});
    s.out.in_flight.push_back(std::move(change));
}

// Items leaving the device because they left its filter go first: they free room on it. True when the message is
// full.
bool send_removals(run& r, store_state& s, sync& out, std::size_t& used, std::size_t budget,
                   std::vector<sent_position>& sent) {
    bool full = false;
    std::size_t removed = 0;
    for (; removed < s.out.removals.size(); ++removed) {
        auto cmd = delete_command(s.out.removals[removed]);
        auto size = encoded_size(cmd, r.in.version, r.in.encoding);
        if (used + size > budget) {
            if (light_message(r) && sent.empty() && out.commands.empty()) too_small(r);
            full = true;
            break;
        }
        used += size;
        out.commands.push_back(std::move(cmd));
        track_sent(r, s, out, std::move(s.out.removals[removed]), sent);
    }
    s.out.removals.erase(s.out.removals.begin(), s.out.removals.begin() + static_cast<std::ptrdiff_t>(removed));
    return full;
}

// Whether s.out.page[at] exists, after the next page when `at` reached the end of the queue; false when the package
// has nothing left.
bool next_in_queue(run& r, store_state& s, std::size_t& at, std::size_t budget) {
    if (at < s.out.page.size()) return true;
    take(s, std::exchange(at, 0));
    return load_page(r, s, budget);
}

// The queued changes, page after page, until the message is full (true) or the package has nothing left.
bool send_changes(run& r, store_state& s, item_reader& reader, sync& out, std::size_t& used, std::size_t budget,
                  std::vector<sent_position>& sent) {
    std::size_t at = 0;
    bool full = false;
    while (!full && next_in_queue(r, s, at, budget)) {
        bool complete = false;
        command cmd;
        auto offset_before = s.out.offset;
        // No item in this message yet, which is not the first of the package (that one answers package 3, and its
        // statuses may leave less room than the next message has).
        const bool alone = light_message(r) && sent.empty() && out.commands.empty();
        auto result = next_command(r, s, at, reader, budget - used, alone, cmd, complete);
        if (result == outcome::skip) {
            s.out.offset = 0;
            ++at;
            continue;
        }
        if (result == outcome::too_small) too_small(r);
        auto size = result == outcome::command ? encoded_size(cmd, r.in.version, r.in.encoding) : 0;
        if (result != outcome::command || (used + size > budget && !out.commands.empty())) {
            if (result == outcome::command) s.out.offset = offset_before;  // sent in the next message
            break;
        }
        used += size;
        const bool adds = std::holds_alternative<add>(cmd.value);
        out.commands.push_back(std::move(cmd));
        full = !complete;
        if (full) break;
        if (adds && s.out.limit_room > 0) --*s.out.limit_room;
        track_sent(r, s, out, std::move(s.out.page[at++]), sent);
    }
    take(s, at);
    return full;
}

bool fill_store(run& r, store_state& s, item_reader& reader, std::size_t& budget, std::vector<sent_position>& sent) {
    command sync_cmd;
    std::size_t used = 0;  // the calendar's Sync taken back was counted already
    if (!take_calendar_sync(r, s, sync_cmd)) {
        sync_cmd = empty_sync(r, s);
        used = encoded_size(sync_cmd, r.in.version, r.in.encoding);
        if (used > budget) {
            s.server_sync_started = true;
            if (light_message(r) && sent.empty()) too_small(r);  // not even an empty Sync fits a message
            return false;
        }
    }
    auto& out = std::get<sync>(sync_cmd.value);
    s.server_sync_started = true;
    const bool full =
        send_removals(r, s, out, used, budget, sent) || send_changes(r, s, reader, out, used, budget, sent);
    shorten_item_ids(r, s, out);
    budget -= std::min(budget, used);
    r.commands.push_back(std::move(sync_cmd));
    return !full && s.out.page.empty();  // a loop that ends with an empty queue found no page left
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
        auto& change = p.store->out.in_flight[p.flight];
        change.msg_id = r.st.next_msg_id;
        change.cmd_id = std::to_string(first_inner[p.sync] + static_cast<std::int64_t>(p.inner));
    }
}

// The client answered our previous reply, so it holds what that reply carried.
void acknowledge_delivery(run& r, bool completing) {
    for (auto& s : r.st.stores) delivered(r, s, completing);
}

// Every datastore's sync as completed: anchors, what the device has seen, its slow-sync need.
void save_completed_stores(run& r) {
    for (auto& s : r.st.stores) {
        // A datastore whose sync the client refused (an error on our Alert or Sync) ends as it began: no anchor
        // moves, and the changes come again.
        if (s.client_refused) continue;
        // Every column the sync ends with; the rest of the row stays as the Alert found it. The device has seen
        // the package up to its end, except the changes it refused; a client that answered our Alert with 508
        // gets a slow sync next time.
        auto seen = std::min(s.upto_modseq, s.resend_after.value_or(s.upto_modseq));
        persistence::device_store_record ds{
            s.device_store_id, s.datastore_id, s.client_next, s.server_next, seen, s.slow_sync_required, s.filter, {}};
        // The format used with the device, for a later sync that learns none (resolve_device_format).
        ds.content_type = s.device_mime;
        ds.content_version = s.device_version;
        r.store.save_device_store(r.tenant(), ds);
        if (sync_mode::granted(s.mode).everything && !s.filter.empty()) drop_unconfirmed_mappings(r, s);
    }
}

// Nothing of package 4 needs a Map: every datastore syncs one way from the client.
bool nothing_to_map(const session_state& st) {
    return std::none_of(st.stores.begin(), st.stores.end(),
                        [](const store_state& s) { return sync_mode::granted(s.mode).server_sends(); });
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
        s.out.position = !mode.server_sends() ? s.upto_modseq : from_start ? 0 : start.last_seen_modseq;
        s.out.offset = 0;
        s.out.partial_guid.clear();
        resolve_device_format(r, s);
        if (mode.server_sends()) plan_filtered_package(r, s);
        s.out.page.clear();
        queue_changes(s, start.changes);
        s.out.count = static_cast<std::int64_t>(s.out.page.size());
        s.out.loaded_all = true;
    }
}

void fill_server_changes(run& r, std::size_t budget) {
    acknowledge_delivery(r, false);
    item_reader reader;
    bool done = true;
    std::vector<sent_position> sent;
    for (auto& s : r.st.stores) {
        if (s.server_sync_started && s.out.page.empty() && s.out.removals.empty() && s.out.position >= s.upto_modseq)
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
        // A one-way sync from the client is complete once package 4 (its statuses) went out: clients end it there
        // (nothing to map), and a package 5 that still comes completes it again with the same values.
        if (nothing_to_map(r.st)) save_completed_stores(r);
    }
    // The next message reads from the cursor, as it would from the stored state.
    for (auto& s : r.st.stores) {
        s.out.page.clear();
        s.out.loaded_all = false;
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
    save_completed_stores(r);
    r.st.current = phase::done;
}

}  // namespace syncml::session::detail
