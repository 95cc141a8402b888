// The phases of a session, one handler each: which commands the phase accepts and what the client's Final means in
// it. The packages of OMA DS Sync Protocol in order: the Alerts (package 1, also beside the first Sync), the client's
// Syncs (package 3), the Maps (while package 4 arrives, and after it, package 5).

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "session/engine/engine_run.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

// What a command means to the phases: Alerts that open a sync (a sync mode or resume), the client's Sync and Map, and
// the rest (Status, Put, Get, Results, Alert 222-224), which every phase accepts.
enum class phased_command { opening_alert, sync, map, other };

phased_command phased(const command& cmd) {
    if (const auto* a = std::get_if<alert>(&cmd.value)) {
        const int code = alert_code(*a).value_or(0);
        return sync_mode::of_alert(code) || code == alert_codes::resume ? phased_command::opening_alert
                                                                        : phased_command::other;
    }
    if (std::holds_alternative<sync>(cmd.value)) return phased_command::sync;
    if (std::holds_alternative<map>(cmd.value)) return phased_command::map;
    return phased_command::other;
}

// A client whose last package 5 was lost, or whose session was interrupted, sends the Map of the Adds it received
// then with its next package 3, also in a session that does not resume (the Synthesis engine does, over 1.1 too):
// that Map answers an earlier package 4. Refused, the items stayed unmapped for good and came again as Adds.
bool pending_map(const session_state& st, const command& cmd) {
    const auto* m = std::get_if<map>(&cmd.value);
    if (!m || (st.current != phase::init && st.current != phase::client_changes)) return false;
    return find_store(st, m->target.loc_uri) != nullptr;
}

bool sync_received(const session_state& st) {
    return std::any_of(st.stores.begin(), st.stores.end(), [](const store_state& s) { return s.client_sync_done; });
}

struct phase_handler {
    phase which;
    const char* name;
    bool (*accepts)(const session_state&, phased_command);
    void (*client_package_ended)(run&);
};

// Every datastore the client sends to has its Sync in: package 3 came with package 1.
bool all_syncs_received(const session_state& st) {
    return !st.stores.empty() && std::all_of(st.stores.begin(), st.stores.end(), [](const store_state& s) {
        return s.client_sync_done || !sync_mode::granted(s.mode).client_sends();
    });
}

void end_client_changes(run& r) {
    finish_client_changes(r);
    start_server_changes(r);
    r.st.current = phase::server_changes;
    r.package4_start = true;
}

// Package 1: the Alerts, and the first Syncs may come beside them. Its end is answered with package 2; a client that
// sent every Sync beside its Alerts (packages 1 and 3 in one) waits for package 4 in the same reply.
const phase_handler init_phase{phase::init, "init",
                               [](const session_state&, phased_command c) { return c != phased_command::map; },
                               [](run& r) {
                                   if (r.device.devinf.empty() && !r.st.devinf_known) request_devinf(r);
                                   if (sync_received(r.st) && all_syncs_received(r.st)) {
                                       end_client_changes(r);
                                       return;
                                   }
                                   r.st.current = phase::client_changes;
                                   r.final = true;
                               }};

// Package 3: the client's Syncs; a datastore may still be opened until the first Sync arrived. Its end applies the
// package (refresh deletes, conflict results) and starts package 4, which the caller fills with the size known.
const phase_handler client_changes_phase{phase::client_changes, "client_changes",
                                         [](const session_state& st, phased_command c) {
                                             return c == phased_command::sync ||
                                                    (c == phased_command::opening_alert && !sync_received(st));
                                         },
                                         end_client_changes};

// Package 4 goes out over as many replies as it needs; the client may map what it received so far. What ends it is
// ours to decide (engine_out.cpp), not the client's Final.
const phase_handler server_changes_phase{
    phase::server_changes, "server_changes",
    [](const session_state&, phased_command c) { return c == phased_command::map; }, [](run&) {}};

// Package 5: the Maps of the last Adds. Its end completes the session.
const phase_handler map_phase{phase::map, "map",
                              [](const session_state&, phased_command c) { return c == phased_command::map; },
                              [](run& r) {
                                  complete_session(r);
                                  r.final = true;
                              }};

const phase_handler done_phase{phase::done, "done", [](const session_state&, phased_command) { return false; },
                               [](run&) {}};

const phase_handler& handler_of(phase p) {
    static const std::array<const phase_handler*, 5> handlers{&init_phase, &client_changes_phase, &server_changes_phase,
                                                              &map_phase, &done_phase};
    for (const auto* h : handlers) {
        if (h->which == p) return *h;
    }
    throw std::logic_error("session in an unknown phase " + std::to_string(static_cast<int>(p)));
}

}  // namespace

const char* phase_name(phase p) { return handler_of(p).name; }

bool accepted_in_phase(const session_state& st, const command& cmd) {
    const auto c = phased(cmd);
    return c == phased_command::other || handler_of(st.current).accepts(st, c) || pending_map(st, cmd);
}

void end_client_package(run& r) { handler_of(r.st.current).client_package_ended(r); }

}  // namespace syncml::session::detail
