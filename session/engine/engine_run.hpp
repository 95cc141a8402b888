#pragma once
// Internal to the engine: the working set of one message being processed, shared by the per-command
// handlers in engine_*.cpp.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "session/engine/engine.hpp"

namespace syncml::session::detail {

struct run {
    const message& in;
    session_state& st;
    persistence::device_record& device;
    const engine_context& ctx;
    persistence::sync_store& store;
    std::vector<status> statuses;    // answers to the incoming commands, sent first
    std::vector<command> commands;   // our own commands (Alert, Results, Get, Sync, ...)
    bool final = false;              // our reply ends our package
    bool devinf_requested = false;   // we queued a Get for the client's DevInf
    std::size_t message_budget = 0;  // bytes for commands in a message with little else in it
    bool suspended = false;          // the client suspends the session (Alert 224)
    bool package4_start = false;     // this reply is the first message of package 4
    bool carrying = false;           // this reply carries statuses an earlier one had no room for
    bool asking_for_rest = false;    // the message only asks (Alert 222) for a reply we have not finished
    int abort_code = 0;              // nonzero: the session ends here, its SyncHdr Status says why
    // The bytes of the user's items as this message knows them (empty: not read yet): read at its first write the
    // user's quota applies to, then moved by what the message writes and deletes (engine_quota.hpp).
    std::optional<std::int64_t> user_bytes{};
    bool user_bytes_refusal_logged = false;  // one log line per message, however many items the quota refuses
    // The device's views of the user's datastores (sync_store::device_store_views), read once per message when needed.
    std::optional<std::vector<persistence::device_store_view>> views{};

    std::int64_t tenant() const { return ctx.tenant_id; }
    // Status for an incoming command; refs filled from the command where given.
    status& add_status(const std::string& cmd_ref, const std::string& cmd, int code);
};

std::string code_text(int code);

// engine_auth.cpp: checks the header credentials; fills the SyncHdr status. False: not authenticated.
bool check_auth(run& r, status& header_status);

// engine_phase.cpp: one handler per phase of the session: the commands it accepts, what the client's Final does.
const char* phase_name(phase p);
bool accepted_in_phase(const session_state& st, const command& cmd);
void end_client_package(run& r);

// engine_alert.cpp
void handle_alert(run& r, const alert& cmd);
// engine_devinf.cpp
void handle_put(run& r, const put& cmd);
void handle_get(run& r, const get& cmd);
void handle_results(run& r, const results& cmd);
void request_devinf(run& r);
// Our DevInf for a client speaking `version`; client_max_msg_size: the client's MaxMsgSize (0: none).
dev_inf server_devinf(syncml_version version, std::int64_t client_max_msg_size);
// engine_sync.cpp: package 3 (client changes)
void handle_sync(run& r, const sync& cmd);
// A command not carried out: it gets `code`, and so does every command inside it (Sync, Atomic, Sequence), so that
// the client knows none of them was.
void refuse_with_everything_inside(run& r, const command& cmd, int code);
// engine_map.cpp: package 5 (map)
void handle_map(run& r, const map& cmd);
void handle_status(run& r, const status& s);
void finish_client_changes(run& r);
// engine_out.cpp: package 4
void start_server_changes(run& r);
void fill_server_changes(run& r, std::size_t budget);
void complete_session(run& r);
// This session recorded something of its package 4 as held by the device (a delivery, a Map) ahead of the anchors,
// which change only when it completes: until then the device store needs a slow sync (engine_out.cpp).
void mark_delivery(run& r, store_state& s);

// engine_alert.cpp: the task side of `calendar` (calendar_tasks.hpp), opened when a VTODO arrives in a calendar not
// known to hold tasks: appended to r.st.stores, which must have room for it so that references into it stay valid.
store_state& open_calendar_tasks(run& r, const store_state& calendar);

// engine_alert.cpp; the task side of a calendar is never found by its names, its calendar is.
store_state* find_store(session_state& st, const std::string& server_uri);
const store_state* find_store(const session_state& st, const std::string& server_uri);

}  // namespace syncml::session::detail
