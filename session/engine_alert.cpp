// Package 1: the client's Alerts, anchors and the sync mode we grant per datastore, and resuming an
// interrupted session (Alert 225).

#include "session/engine_run.hpp"

#include <algorithm>

#include "session/store_names.hpp"

namespace syncml::session::detail {
namespace {

bool is_sync_mode(int code) { return (code >= 200 && code <= 205) || code == 225; }

// Two-way and one-way syncs need both sides to agree on the last sync; anything else is slow.
int granted_mode(int requested, const sync_anchor& anchor, const persistence::device_store_record& ds) {
    if (requested == 225) return 201;  // nothing to resume (see resumable_store): restart safely
    if (requested == 201 || requested == 203 || requested == 205) return requested;
    bool known = !ds.needs_slow_sync && !ds.client_anchor.empty();
    if (!known || anchor.last.value_or("") != ds.client_anchor) return 201;
    return requested;
}

sync_anchor alert_anchor(const item& it) {
    if (it.meta && it.meta->anchor) return *it.meta->anchor;
    // Tolerated: anchors sent as item data instead of item meta.
    if (it.data && it.data->anchor) return *it.data->anchor;
    return {};
}

// Each device store remembers the SyncML SessionID of the last session that worked on it in a session
// row of its own, so that a resume (which comes with a new SessionID) finds the interrupted state. The
// sessions table keeps it without a schema change, and it expires with the sessions it points to. It has
// no user: a row without one is no running session to the busy guard.
constexpr const char* k_resume_prefix = "resume:";
std::string resume_pointer(std::int64_t device_store) { return k_resume_prefix + std::to_string(device_store); }

void remember_session(run& r, std::int64_t device_store) {
    r.store.set_resume_pointer(r.tenant(), r.in.header.source.loc_uri, resume_pointer(device_store),
                               r.in.header.session_id);
}

// The state this device store had when its last session was interrupted, when that session can be
// continued: same user, not completed, and the client presents the same Last anchor as then.
std::optional<store_state> resumable_store(run& r, std::int64_t device_store, const sync_anchor& anchor) {
    auto old = r.store.lock_pointed_session(r.tenant(), r.in.header.source.loc_uri, resume_pointer(device_store));
    if (!old || old->session_id == r.in.header.session_id || old->user_id != r.st.user_id) return std::nullopt;
    auto state = decode_state(old->state);
    if (!state || state->current == phase::done) return std::nullopt;
    for (const auto& s : state->stores) {
        if (s.device_store_id == device_store && s.client_last == anchor.last.value_or("")) return s;
    }
    return std::nullopt;
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
    old.outgoing.clear();
    old.in_flight.clear();
    old.out_offset = 0;
    old.resumed = true;
    return old;
}

command our_alert(const store_state& s, const persistence::device_store_record& ds) {
    alert a;
    a.data = std::to_string(s.mode);
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

void open_store(run& r, const alert& cmd, int requested) {
    const item& it = cmd.items.front();
    std::string target = it.target ? it.target->loc_uri : "";
    std::string source = it.source ? it.source->loc_uri : "";
    auto kind = datastore_kind(target);
    if (!kind) {
        auto& s = r.add_status(cmd.cmd_id, "Alert", 404);
        s.target_refs = {target};
        s.source_refs = {source};
        return;
    }
    // A resume reads the pointer before it is moved to this session; any other Alert moves it at once.
    const bool resuming = requested == 225;
    persistence::store_opening opening{r.st.user_id,
                                       r.device.id,
                                       *kind,
                                       source,
                                       r.in.header.source.loc_uri,
                                       k_resume_prefix,
                                       resuming ? "" : r.in.header.session_id};
    auto ds = r.store.open_device_store(r.tenant(), opening);
    auto datastore_id = ds.datastore_id;
    auto anchor = alert_anchor(it);
    auto old = resuming ? resumable_store(r, ds.id, anchor) : std::nullopt;
    store_state s;
    if (old) {
        s = continued(std::move(*old), target, source, anchor);
    } else {
        s.server_uri = target;
        s.client_uri = source;
        s.kind = *kind;
        s.datastore_id = datastore_id;
        s.device_store_id = ds.id;
        s.mode = granted_mode(requested, anchor, ds);
        s.client_last = anchor.last.value_or("");
        s.client_next = anchor.next.value_or("");
        s.server_next = std::to_string(r.ctx.now_ms);
        if (s.mode == 201 || s.mode == 203 || s.mode == 205) r.store.unconfirm_mappings(r.tenant(), ds.id);
    }
    if (resuming) remember_session(r, ds.id);
    acknowledge_alert(r, cmd, s, old || s.mode == requested ? 200 : 508);
    r.commands.push_back(our_alert(s, ds));
    auto& stores = r.st.stores;
    stores.erase(std::remove_if(stores.begin(), stores.end(), [&](const auto& o) { return o.server_uri == target; }),
                 stores.end());
    stores.push_back(std::move(s));
}

}  // namespace

store_state* find_store(session_state& st, const std::string& server_uri) {
    for (auto& s : st.stores) {
        if (s.server_uri == server_uri) return &s;
    }
    // Tolerated: a Sync addressed by another alias of the same datastore.
    auto kind = datastore_kind(server_uri);
    for (auto& s : st.stores) {
        if (kind && s.kind == *kind) return &s;
    }
    return nullptr;
}

void handle_alert(run& r, const alert& cmd) {
    int code = alert_code(cmd).value_or(0);
    if (!is_sync_mode(code)) {
        // 222 next message, 223 no end of data, 224 suspend: acknowledged; the phase decides what follows.
        bool known = code >= 221 && code <= 224;
        if (!cmd.no_resp) r.add_status(cmd.cmd_id, "Alert", known ? 200 : 406);
        return;
    }
    if (cmd.items.empty()) {
        r.add_status(cmd.cmd_id, "Alert", 412);
        return;
    }
    open_store(r, cmd, code);
}

}  // namespace syncml::session::detail
