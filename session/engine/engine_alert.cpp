// Package 1: the client's Alerts, anchors and the sync mode we grant per datastore, and resuming an
// interrupted session (Alert 225).

#include "session/engine/engine_run.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "common/log/log_event.hpp"
#include "matching/model/datastore_kind.hpp"
#include "session/engine/calendar_tasks.hpp"
#include "session/engine/engine_filter.hpp"
#include "session/engine/store_names.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

// Two-way and one-way syncs need both sides to agree on the last sync, and no slow sync or refresh of the device
// store may be pending (see open_store); otherwise the mode becomes its slow or refresh counterpart, as in the
// Synthesis engine: a one-way-from-client client refuses a mode that writes to it.
sync_mode granted_mode(sync_mode requested, const sync_anchor& anchor, const persistence::device_store_record& ds) {
    if (requested.everything) return requested;
    bool known = !ds.needs_slow_sync && !ds.client_anchor.empty();
    if (known && anchor.last.value_or("") == ds.client_anchor) return requested;
    return requested.with_everything();
}

sync_anchor alert_anchor(const item& it) {
    if (it.meta && it.meta->anchor) return *it.meta->anchor;
    // Tolerated: anchors sent as item data instead of item meta.
    if (it.data && it.data->anchor) return *it.data->anchor;
    return {};
}

// Each device store remembers the SyncML SessionID of the last session that worked on it (a resume pointer), so that
// a resume (which comes with a new SessionID) finds the interrupted state while that session's row lives.
constexpr const char* k_resume_prefix = "resume:";
std::string resume_pointer(std::int64_t device_store) { return k_resume_prefix + std::to_string(device_store); }

void remember_session(run& r, std::int64_t device_store) {
    r.store.set_resume_pointer(r.tenant(), r.in.header.source.loc_uri, resume_pointer(device_store),
                               r.in.header.session_id);
}

// The state this device store had when its last session was interrupted, when that session can be
// continued: same user, not completed, and the client presents the same Last anchor as then, or none (the Synthesis
// engine sends a resume without anchors).
// The interrupted store comes first, then the task side of its calendar (calendar_tasks.hpp), if it had one.
std::vector<store_state> resumable_store(run& r, std::int64_t device_store, const sync_anchor& anchor) {
    auto old = r.store.lock_pointed_session(r.tenant(), r.in.header.source.loc_uri, resume_pointer(device_store));
    if (!old || old->session_id == r.in.header.session_id || old->user_id != r.st.user_id) return {};
    auto state = decode_state(old->state);
    if (!state || state->current == phase::done) return {};
    for (const auto& s : state->stores) {
        if (s.device_store_id != device_store || s.calendar_tasks) continue;
        if (!anchor.last.value_or("").empty() && s.client_last != *anchor.last) return {};
        std::vector<store_state> out{s};
        if (auto* tasks = calendar_tasks_of(*state, s)) out.push_back(*tasks);
        return out;
    }
    return {};
}

// Continues with the interrupted session's mode, anchors and half-received large object. What the
// device holds is in the mappings (package 4 changes count only once acknowledged), so the server's
// changes are queued afresh and what already arrived is not sent again.
store_state continued(store_state old, const std::string& target, const std::string& source,
                      const sync_anchor& anchor) {
    old.server_uri = target;
    old.client_uri = source;
    old.client_next = anchor.next.value_or("");
    old.upto_modseq = 0;
    old.client_sync_done = false;
    old.server_sync_started = false;
    old.out.page.clear();
    // What the lost reply carried goes again. A slow sync's package has no Deletes in its queue: those of stale copies
    // (engine_match.cpp) go back to the removals. Other modes plan the removals afresh (plan_filtered_package), and
    // the server's deletes come again from the changes.
    if (sync_mode::granted(old.mode).everything) {
        for (auto& change : old.out.in_flight) {
            bool queued = std::any_of(old.out.removals.begin(), old.out.removals.end(),
                                      [&](const auto& removal) { return removal.guid == change.guid; });
            if (change.deleted && !queued) old.out.removals.push_back(std::move(change));
        }
    } else {
        old.out.removals.clear();
    }
    old.out.in_flight.clear();
    old.out.offset = 0;
    old.resumed = true;
    return old;
}

command our_alert(const store_state& s, const persistence::device_store_record& ds) {
    alert a;
    a.data = std::to_string(s.mode);  // the granted alert code
    item it;
    it.target = location{s.client_uri, std::nullopt, std::nullopt};
    it.source = location{s.server_uri, std::nullopt, std::nullopt};
    meta_info meta;
    meta.anchor = sync_anchor{ds.server_anchor, s.server_next};
    it.meta = meta;
    a.items.push_back(std::move(it));
    return command{std::move(a)};
}

void acknowledge_alert(run& r, const alert& cmd, const store_state& s, int code) {
    auto& st = r.add_status(cmd.cmd_id, "Alert", code);
    st.target_refs = {s.server_uri};
    st.source_refs = {s.client_uri};
    item echo;
    echo.data = item_data{{}, std::nullopt, sync_anchor{std::nullopt, s.client_next}};
    st.items.push_back(std::move(echo));
}

// A slow sync or refresh forgets which items the device holds (its mappings are confirmed afresh), but its anchors
// change only when it completes. Until then the device store waits for one (needs_slow_sync, cleared when a sync
// completes): a two-way sync after an interrupted one would send every item as new and drop the deletes.
void start_over(run& r, const persistence::device_store_record& ds) {
    r.store.unconfirm_mappings(r.tenant(), ds.id);
    if (!ds.needs_slow_sync) r.store.require_slow_sync(r.tenant(), ds.id);
}

// What the device had seen by its last completed sync, as far as the server knows: a client that lost the completion
// of its last sync (the reply never arrived, or it rolled that session back) presents the anchor of the one before.
// Any other anchor, or none (the Synthesis engine drops its anchor when a session fails), gets the last completed
// sync's: 0 for a device that never completed one, or that was reset.
std::int64_t last_seen_by_device(const sync_anchor& anchor, const persistence::device_store_record& ds) {
    const auto last = anchor.last.value_or("");
    if (!last.empty() && last != ds.client_anchor && last == ds.previous_client_anchor) return ds.previous_seen_modseq;
    return ds.last_seen_modseq;
}

// What the granted mode of a store this session starts (not resumes) asks of its device store.
void begin_mode(run& r, store_state& s, const persistence::device_store_record& ds) {
    const auto mode = sync_mode::granted(s.mode);
    if (mode.everything) start_over(r, ds);
    if (mode == sync_modes::refresh_from_client) s.refresh_upto = r.store.current_modseq(r.tenant(), ds.datastore_id);
}

// A store this session starts afresh (nothing to resume: see resumable_store), with the mode its anchors allow.
store_state fresh_store(run& r, const item& it, matching::item_kind kind, const persistence::device_store_record& ds,
                        const sync_anchor& anchor, std::optional<sync_mode> requested) {
    store_state s;
    s.server_uri = it.target ? it.target->loc_uri : "";
    s.client_uri = it.source ? it.source->loc_uri : "";
    s.kind = kind;
    s.datastore_id = ds.datastore_id;
    s.device_store_id = ds.id;
    s.last_seen_modseq = last_seen_by_device(anchor, ds);
    // Nothing to resume (see resumable_store): restart safely.
    auto mode = requested ? granted_mode(*requested, anchor, ds) : sync_modes::slow_sync;
    s.mode = mode.alert_code();
    s.client_last = anchor.last.value_or("");
    s.client_next = anchor.next.value_or("");
    s.server_next = std::to_string(r.ctx.now_ms);
    begin_mode(r, s, ds);
    return s;
}

// The task side of combined calendar `cal` over `ds`, the device's view of the task datastore under the calendar's
// remote URI: the calendar's names, mode, anchors and filter, and its own record of what the device has seen. A view
// that never completed a sync held nothing, so a refresh from the client deletes none of the user's tasks through it.
store_state calendar_tasks_state(run& r, const store_state& cal, const persistence::device_store_record& ds) {
    store_state t;
    t.server_uri = cal.server_uri;
    t.client_uri = cal.client_uri;
    t.kind = matching::item_kind::task;
    t.calendar_tasks = true;
    t.datastore_id = ds.datastore_id;
    t.device_store_id = ds.id;
    t.last_seen_modseq = last_seen_by_device(sync_anchor{cal.client_last, cal.client_next}, ds);
    t.mode = cal.mode;
    t.client_last = cal.client_last;
    t.client_next = cal.client_next;
    t.server_next = cal.server_next;
    t.filter = cal.filter;
    t.rescan = cal.rescan;
    t.device_mime = cal.device_mime;
    t.device_version = cal.device_version;
    t.device_format = cal.device_format;
    t.tasks_elsewhere = tasks_held_elsewhere(r, cal.client_uri);
    begin_mode(r, t, ds);
    if (t.refresh_upto && ds.client_anchor.empty()) t.refresh_upto = 0;
    return t;
}

persistence::device_store_record open_tasks_view(run& r, const std::string& client_uri) {
    // No resume pointer of its own: a resume finds it in its calendar's session (resumable_store).
    persistence::store_opening opening{
        r.st.user_id,    r.device.id, matching::item_kind::task, client_uri, r.in.header.source.loc_uri,
        k_resume_prefix, ""};
    return r.store.open_device_store(r.tenant(), opening);
}

// A calendar that holds tasks, at its Alert: the task side joins it. A task side that completed syncs before and whose
// anchors do not allow the calendar's mode makes both sides start over (the device gets 508 for the calendar); one
// that never synced takes the calendar's mode and sends the device every task it does not hold.
store_state calendar_tasks_at_alert(run& r, store_state& cal, const persistence::device_store_record& cal_ds,
                                    const sync_anchor& anchor) {
    auto ds = open_tasks_view(r, cal.client_uri);
    const auto mode = sync_mode::granted(cal.mode);
    if (!mode.everything && !ds.client_anchor.empty() && granted_mode(mode, anchor, ds).everything) {
        cal.mode = mode.with_everything().alert_code();
        begin_mode(r, cal, cal_ds);
    }
    return calendar_tasks_state(r, cal, ds);
}

// The task side of calendar `s` at its Alert: the resumed one (`old` holds the calendar's, then its task side's state),
// or one that joins a calendar that holds tasks; nullopt for any other datastore.
std::optional<store_state> task_side(run& r, std::vector<store_state>& old, store_state& s,
                                     const persistence::device_store_record& ds, const sync_anchor& anchor) {
    if (old.size() > 1) return continued(std::move(old.back()), s.server_uri, s.client_uri, anchor);
    if (old.empty() && s.kind == matching::item_kind::event && calendar_holds_tasks(r, s.client_uri))
        return calendar_tasks_at_alert(r, s, ds, anchor);
    return std::nullopt;
}

// An Alert for a datastore we do not have.
void refuse_unknown_store(run& r, const alert& cmd, const std::string& target, const std::string& source) {
    auto& s = r.add_status(cmd.cmd_id, "Alert", status_codes::not_found);
    s.target_refs = {target};
    s.source_refs = {source};
}

// An Alert for a collection of the user that does not exist, or takes no items of the datastore's kind.
void refuse_unknown_collection(run& r, const alert& cmd, const std::string& target, const std::string& source,
                               const std::string& collection) {
    common::log_event(spdlog::level::info, "sync: no such collection",
                      {{"datastore", target},
                       {"collection", collection},
                       {"status", status_codes::not_found},
                       {"device", r.in.header.source.loc_uri},
                       {"session", r.in.header.session_id}});
    refuse_unknown_store(r, cmd, target, source);
}

// The session's state of the datastore `target` (and its task side) in place of any earlier one of this session.
void keep_store(run& r, const std::string& target, store_state s, std::optional<store_state> tasks) {
    auto& stores = r.st.stores;
    stores.erase(std::remove_if(stores.begin(), stores.end(), [&](const auto& o) { return o.server_uri == target; }),
                 stores.end());
    stores.push_back(std::move(s));
    if (tasks) stores.push_back(std::move(*tasks));
}

// `requested`: the mode asked for, nullopt for a resume (Alert 225).
void open_store(run& r, const alert& cmd, std::optional<sync_mode> requested) {
    const item& it = cmd.items.front();
    std::string target = it.target ? it.target->loc_uri : "";
    std::string source = it.source ? it.source->loc_uri : "";
    const auto filter = alert_filter(r, cmd, it);
    if (!filter) return;
    if (filter->force_slow_sync && requested) requested = requested->with_everything();
    auto kind = datastore_kind(filter->datastore_uri.empty() ? target : filter->datastore_uri);
    if (!kind) return refuse_unknown_store(r, cmd, target, source);
    // A resume reads the pointer before it is moved to this session; any other Alert moves it at once.
    const bool resuming = !requested;
    persistence::store_opening opening{r.st.user_id,
                                       r.device.id,
                                       *kind,
                                       source,
                                       r.in.header.source.loc_uri,
                                       k_resume_prefix,
                                       resuming ? "" : r.in.header.session_id,
                                       filter->collection};
    auto ds = r.store.open_device_store(r.tenant(), opening);
    if (ds.id == 0) return refuse_unknown_collection(r, cmd, target, source, filter->collection);
    auto anchor = alert_anchor(it);
    auto old = resuming ? resumable_store(r, ds.id, anchor) : std::vector<store_state>{};
    // A resume that cannot be honoured becomes a normal sync (509), or a slow one when the anchors do not allow it.
    const auto instead = filter->force_slow_sync ? sync_modes::slow_sync : sync_modes::two_way;
    const auto asked = resuming ? std::optional<sync_mode>(instead) : requested;
    const bool resumed = !old.empty();
    store_state s = resumed ? continued(std::move(old.front()), target, source, anchor)
                            : fresh_store(r, it, *kind, ds, anchor, asked);
    set_store_filter(s, *filter, ds);
    auto tasks = task_side(r, old, s, ds, anchor);
    if (*kind == matching::item_kind::task) s.tasks_via_calendar = tasks_travel_in_calendar(r, source);
    if (resuming) remember_session(r, ds.id);
    const bool as_asked = resumed || s.mode == asked->alert_code();
    const int status = as_asked ? (resuming && !resumed ? status_codes::cannot_resume : status_codes::ok)
                                : status_codes::refresh_required;
    acknowledge_alert(r, cmd, s, status);
    r.commands.push_back(our_alert(s, ds));
    keep_store(r, target, std::move(s), std::move(tasks));
}

// Resume (Alert 225, like Suspend 224) came with SyncML 1.2: the 1.1 Representation Protocol defines the alert codes
// up to 223 and reserves the rest. A 1.0/1.1 session's 225 is answered as any code we do not support (406), not
// taken as a normal sync: it names no sync mode, and the session it would continue spoke another protocol version;
// the client then starts a sync of its own.
bool resume_supported(const run& r) { return r.in.version == syncml_version::v1_2; }

}  // namespace

const store_state* find_store(const session_state& st, const std::string& server_uri) {
    for (const auto& s : st.stores) {
        if (s.server_uri == server_uri && !s.calendar_tasks) return &s;
    }
    // Tolerated: a Sync addressed by another alias of the same datastore.
    auto kind = datastore_kind(server_uri);
    for (const auto& s : st.stores) {
        if (kind && s.kind == *kind && !s.calendar_tasks) return &s;
    }
    return nullptr;
}

store_state& open_calendar_tasks(run& r, const store_state& calendar) {
    auto tasks = calendar_tasks_state(r, calendar, open_tasks_view(r, calendar.client_uri));
    tasks.client_sync_done = calendar.client_sync_done;
    r.st.stores.push_back(std::move(tasks));
    return r.st.stores.back();
}

store_state* find_store(session_state& st, const std::string& server_uri) {
    return const_cast<store_state*>(find_store(std::as_const(st), server_uri));
}

void handle_alert(run& r, const alert& cmd) {
    int code = alert_code(cmd).value_or(0);
    auto mode = sync_mode::of_alert(code);
    const bool resume = code == alert_codes::resume && resume_supported(r);
    if (!mode && !resume) {
        // 222 next message, 223 no end of data: acknowledged; the phase decides what follows. 224: the client
        // suspends the session (engine.cpp).
        if (code == alert_codes::suspend) r.suspended = true;
        bool known = code >= alert_codes::result_alert && code <= alert_codes::suspend;
        if (!cmd.no_resp) {
            r.add_status(cmd.cmd_id, "Alert", known ? status_codes::ok : status_codes::optional_feature_not_supported);
        }
        return;
    }
    if (cmd.items.empty()) {
        r.add_status(cmd.cmd_id, "Alert", status_codes::incomplete_command);
        return;
    }
    open_store(r, cmd, mode);
}

}  // namespace syncml::session::detail
