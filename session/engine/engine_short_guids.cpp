#include "session/engine/engine_short_guids.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "common/log/log_event.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/calendar_tasks.hpp"
#include "session/engine/store_names.hpp"

namespace syncml::session::detail {
namespace {

// The MaxGUIDSize the device's DevInf declares for the datastore of `s` (empty: none, 0, or no DevInf). libsynthesis
// assumes 32 bytes when a datastore declares none; we send our GUIDs then, as before.
std::optional<std::size_t> max_guid_size(const run& r, const store_state& s) {
    if (r.device.devinf.empty()) return std::nullopt;
    const auto info = decode_devinf(r.device.devinf);
    if (!info) return std::nullopt;
    for (const auto& ds : info.value().datastores) {
        if (!same_store_uri(ds.source_ref, s.client_uri) || !ds.max_guid_size || *ds.max_guid_size == 0) continue;
        return static_cast<std::size_t>(*ds.max_guid_size);
    }
    return std::nullopt;
}

// The items of the Adds and Replaces in `out`.
std::vector<item*> sent_items(sync& out) {
    std::vector<item*> items;
    for (auto& inner : out.commands) {
        item_command* cmd = nullptr;
        if (auto* a = std::get_if<add>(&inner.value)) cmd = a;
        if (auto* p = std::get_if<replace>(&inner.value)) cmd = p;
        if (!cmd) continue;
        for (auto& it : cmd->items) {
            if (it.source) items.push_back(&it);
        }
    }
    return items;
}

// A short id that does not fit either (a MaxGUIDSize of 1 or 2, after as many items): the GUID goes as before.
void log_too_long(const run& r, const store_state& s, const std::string& id, std::size_t limit) {
    common::log_event(spdlog::level::warn, "sync: even the item's short id is longer than the device's MaxGUIDSize",
                      {{"short_id", id},
                       {"max_guid_size", limit},
                       {"store", s.client_uri},
                       {"device", r.in.header.source.loc_uri},
                       {"session", r.in.header.session_id}});
}

}  // namespace

void shorten_item_ids(run& r, const store_state& s, sync& out) {
    auto items = sent_items(out);
    if (items.empty()) return;
    const auto limit = max_guid_size(r, s);
    if (!limit) return;
    std::vector<std::string> longer;
    for (const auto* it : items) {
        if (it->source->loc_uri.size() > *limit) longer.push_back(it->source->loc_uri);
    }
    if (longer.empty()) return;
    std::map<std::string, std::string> short_of;
    for (auto& given : r.store.short_guids_for(r.tenant(), short_id_owner(r.st, s).device_store_id, longer))
        short_of[given.guid] = std::move(given.id);
    for (auto* it : items) {
        auto found = short_of.find(it->source->loc_uri);
        if (found == short_of.end()) continue;
        if (found->second.size() > *limit) {
            log_too_long(r, s, found->second, *limit);
            continue;
        }
        it->source->loc_uri = found->second;
    }
}

std::map<std::string, std::string> guids_of_map_targets(run& r, const store_state& s,
                                                        const std::vector<map_item>& items) {
    std::map<std::string, std::string> guids;
    std::vector<std::string> targets;
    for (const auto& mi : items) {
        guids[mi.target] = mi.target;
        targets.push_back(mi.target);
    }
    // Our GUIDs are UUIDs, never a decimal number as short ids are: only a Map that names one costs a query.
    const bool any_short = std::any_of(targets.begin(), targets.end(), [](const std::string& t) {
        return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    });
    if (!any_short) return guids;
    for (const auto& given : r.store.guids_of_short_ids(r.tenant(), short_id_owner(r.st, s).device_store_id, targets))
        guids[given.id] = given.guid;
    return guids;
}

}  // namespace syncml::session::detail
