// Package 1: the client's Alerts, anchors and the sync mode we grant per datastore.

#include "session/engine_run.hpp"

#include <algorithm>

#include "session/store_names.hpp"

namespace syncml::session::detail {
namespace {

bool is_sync_mode(int code) { return (code >= 200 && code <= 205) || code == 225; }

// Two-way and one-way syncs need both sides to agree on the last sync; anything else is slow.
int granted_mode(int requested, const sync_anchor& anchor, const persistence::device_store_record& ds) {
    if (requested == 225) return 201;  // resume state is not kept across sessions: restart safely
    if (requested == 201 || requested == 203 || requested == 205) return requested;
    bool known = !ds.needs_slow_sync && !ds.client_anchor.empty();
    if (!known || anchor.last.value_or("") != ds.client_anchor) return 201;
    return requested;
}

sync_anchor alert_anchor(const alert& cmd, const item& it) {
    if (it.meta && it.meta->anchor) return *it.meta->anchor;
    // Tolerated: anchors sent as item data instead of item meta.
    if (it.data && it.data->anchor) return *it.data->anchor;
    (void)cmd;
    return {};
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
    store_state s;
    s.server_uri = target;
    s.client_uri = source;
    s.kind = *kind;
    s.datastore_id = r.store.datastore(r.tenant(), r.st.user_id, *kind);
    auto ds = r.store.device_store(r.tenant(), r.device.id, s.datastore_id, s.client_uri);
    s.device_store_id = ds.id;
    auto anchor = alert_anchor(cmd, it);
    s.mode = granted_mode(requested, anchor, ds);
    s.client_next = anchor.next.value_or("");
    s.server_next = std::to_string(r.ctx.now_ms);
    if (s.mode == 201 || s.mode == 203 || s.mode == 205) r.store.unconfirm_mappings(r.tenant(), ds.id);
    auto& st = r.add_status(cmd.cmd_id, "Alert", s.mode == requested ? 200 : 508);
    st.target_refs = {target};
    st.source_refs = {source};
    item echo;
    echo.data = item_data{{}, std::nullopt, sync_anchor{std::nullopt, s.client_next}};
    st.items.push_back(std::move(echo));
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
