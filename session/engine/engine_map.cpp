// Package 5: the client's Map of the items package 4 added (also a Map an earlier session left, sent before this
// session's package 4).

#include "session/engine/engine_run.hpp"

#include <spdlog/spdlog.h>

#include "common/log/log_event.hpp"
#include "session/engine/calendar_tasks.hpp"
#include "session/engine/engine_short_guids.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

// A Map item that names no item of ours: no short id this device store was given, nor the GUID of an item of the
// datastore (a deleted one included). A bare 200 would hide it: the device would believe the item mapped, and the item
// it meant would stay unmapped for good. OMA DS names no code for one Map item; SyncML's 404 (Not Found: the requested
// target was not found) says what happened, as it does for a Map whose Target names no datastore of ours (libsynthesis
// answers that 404 too); 400 (Bad Request) is for a command that cannot be read, and this item is well-formed. It gets
// a Status of its own, after the Map's 200 for what it did map: a client that takes one Status per command
// (libsynthesis keeps the first) confirms its Map and does not send the unknown item again in every session.
void refuse_unknown_map_item(run& r, const store_state& s, const map& cmd, const map_item& mi) {
    common::log_event(spdlog::level::info, "sync: a Map item names no item of ours, answered 404",
                      {{"luid", mi.source},
                       {"target", mi.target},
                       {"store", s.client_uri},
                       {"device", r.in.header.source.loc_uri},
                       {"session", r.in.header.session_id}});
    auto& st = r.add_status(cmd.cmd_id, "Map", status_codes::not_found);
    st.source_refs = {mi.source};
    st.target_refs = {mi.target};
}

// The Map's items for store `s`; per item of `cmd`, whether it named an item `s` does not hold (an item of the other
// side of a calendar that holds tasks, or none of ours). Each item the device now holds is mapped at the revision it
// was sent at: every Add of package 4 carried the item as it was at a modseq no later than the package's end
// (upto_modseq), and an item changed since has a later one. Mapped at min(its modseq, upto_modseq), a change made
// meanwhile on another device is still sent, and an item deleted meanwhile is mapped too, so that its Delete reaches
// the device. (upto_modseq is 0 when this session sent no package 4: the item is then sent again as a Replace.) A Map
// before package 4 answers an earlier session's (engine_phase.cpp): it may map what the device never confirmed, never
// move an item the device holds under another LUID.
std::vector<bool> map_items(run& r, store_state& s, const map& cmd, const std::map<std::string, std::string>& guids) {
    const bool earlier_package = r.st.current == phase::init || r.st.current == phase::client_changes;
    std::vector<bool> missing(cmd.items.size(), false);
    std::vector<persistence::item_write> writes;
    std::vector<std::size_t> written;  // the Map item of each write
    for (std::size_t i = 0; i < cmd.items.size(); ++i) {
        const auto& mi = cmd.items[i];
        if (mi.target.empty()) continue;  // names no item of ours
        const auto& guid = guids.at(mi.target);
        if (earlier_package) {
            const auto held = r.store.confirmed_luid(r.tenant(), s.device_store_id, guid);
            if (held && *held != mi.source) continue;
        }
        persistence::item_write w;
        w.guid = guid;
        w.luid = mi.source;
        w.at_current = true;
        w.at_most = s.upto_modseq;
        writes.push_back(std::move(w));
        written.push_back(i);
    }
    if (writes.empty()) return missing;
    const auto done = r.store.write_items(r.tenant(), s.datastore_id, s.device_store_id, writes);
    bool mapped = false;
    for (std::size_t k = 0; k < done.size() && k < written.size(); ++k) {
        missing[written[k]] = done[k].missing;
        mapped = mapped || !done[k].missing;
    }
    // The Final of package 5 completes the session in this message, which clears the mark again.
    if (mapped && !(r.st.current == phase::map && r.in.body.final)) mark_delivery(r, s);
    return missing;
}

}  // namespace

void handle_map(run& r, const map& cmd) {
    auto* s = find_store(r.st, cmd.target.loc_uri);
    auto& st = r.add_status(cmd.cmd_id, "Map", s ? status_codes::ok : status_codes::not_found);
    st.target_refs = {cmd.target.loc_uri};
    st.source_refs = {cmd.source.loc_uri};
    if (!s) return;
    // A target may be the short id the device was sent in place of a GUID longer than it keeps
    // (engine_short_guids.hpp); a calendar's short ids cover its task side's items, which travel in its Sync.
    const auto guids = guids_of_map_targets(r, *s, cmd.items);
    auto missing = map_items(r, *s, cmd, guids);
    if (auto* tasks = calendar_tasks_of(r.st, *s)) {
        const auto task_missing = map_items(r, *tasks, cmd, guids);
        for (std::size_t i = 0; i < missing.size(); ++i) missing[i] = missing[i] && task_missing[i];
    }
    for (std::size_t i = 0; i < missing.size(); ++i) {
        if (missing[i]) refuse_unknown_map_item(r, *s, cmd, cmd.items[i]);
    }
}

}  // namespace syncml::session::detail
