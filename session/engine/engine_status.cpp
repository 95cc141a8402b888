// Statuses the client sends for our commands: those of package 4's items, and of our Alert and Sync (508, errors).

#include "session/engine/engine_run.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/log/log_event.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {

namespace {

// The stores a Status for our Alert names (all of them when it names none).
std::vector<store_state*> alerted_stores(run& r, const status& st) {
    std::vector<store_state*> out;
    for (auto& s : r.st.stores) {
        bool named = std::any_of(st.target_refs.begin(), st.target_refs.end(),
                                 [&](const std::string& ref) { return ref == s.client_uri || ref == s.server_uri; }) ||
                     std::any_of(st.source_refs.begin(), st.source_refs.end(),
                                 [&](const std::string& ref) { return ref == s.client_uri || ref == s.server_uri; });
        if (named || (st.target_refs.empty() && st.source_refs.empty())) out.push_back(&s);
    }
    return out;
}

void log_refusal(const run& r, const store_state& s, const std::string& command_name, int code) {
    common::log_event(spdlog::level::info, "sync: the client refused our command, the datastore's sync failed",
                      {{"command", command_name},
                       {"status", code},
                       {"store", s.client_uri},
                       {"device", r.in.header.source.loc_uri},
                       {"session", r.in.header.session_id}});
}

// A client's 508 on our Alert: it lost what it had seen (a reset change log, lost mappings) and sends everything.
// Before its Sync, this session becomes the slow sync or refresh it asks for: taken as the mode we alerted, each of its
// items under a LUID of its own would be a new item, a double of one we hold. Once its Sync is in, its next sync is.
void send_everything_now_or_next_time(run& r, store_state& s) {
    const auto mode = sync_mode::granted(s.mode);
    if (mode.everything) return;
    if (s.client_sync_done || s.server_sync_started) {
        s.slow_sync_required = true;
        return;
    }
    s.mode = mode.with_everything().alert_code();
    if (mode.with_everything() == sync_modes::refresh_from_client) {
        s.refresh_upto = r.store.current_modseq(r.tenant(), s.datastore_id);
    }
    r.store.unconfirm_mappings(r.tenant(), s.device_store_id);
    r.store.require_slow_sync(r.tenant(), s.device_store_id);
}

}  // namespace

// Statuses answer our own commands. Those of package 4's items are kept with the change they answer (found by
// MsgRef and CmdRef, whichever later message brings them) until the change is recorded as delivered
// (engine_out.cpp); a 508 on our Alert means the client wants a slow sync, which its next sync gets.
void handle_status(run& r, const status& st) {
    auto code = status_code(st);
    if (!code) return;
    if (st.cmd == "Alert" && *code == status_codes::refresh_required) {
        for (auto* s : alerted_stores(r, st)) send_everything_now_or_next_time(r, *s);
        return;
    }
    if ((st.cmd == "Alert" || st.cmd == "Sync") && *code >= 300) {
        for (auto* s : alerted_stores(r, st)) {
            if (!s->client_refused) log_refusal(r, *s, st.cmd, *code);
            s->client_refused = true;
        }
        return;
    }
    if (st.cmd != "Add" && st.cmd != "Replace" && st.cmd != "Delete") return;
    for (auto& s : r.st.stores) {
        for (auto& change : s.out.in_flight) {
            if (change.cmd_id == st.cmd_ref && std::to_string(change.msg_id) == st.msg_ref)
                change.client_status = *code;
        }
    }
}

}  // namespace syncml::session::detail
