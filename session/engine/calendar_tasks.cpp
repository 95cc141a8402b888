#include "session/engine/calendar_tasks.hpp"

#include <algorithm>

#include "common/text/ascii_case.hpp"
#include "matching/content/text_lines.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/store_names.hpp"

namespace syncml::session::detail {
namespace {

bool lists_vtodo(const ct_cap& cap) {
    return std::any_of(cap.properties.begin(), cap.properties.end(), [](const ct_property& p) {
        return std::any_of(p.val_enums.begin(), p.val_enums.end(),
                           [](const std::string& v) { return common::iequals(v, "VTODO"); });
    });
}

bool receives(const datastore& ds, std::string_view type) {
    auto same = [&](const content_type_ref& t) { return common::iequals(t.ct_type, type); };
    return (ds.rx_pref && same(*ds.rx_pref)) || std::any_of(ds.rx.begin(), ds.rx.end(), same);
}

// 1.0/1.1: the device-wide CTCap of a type only this datastore receives lists VTODO.
bool flat_caps_list_vtodo(const dev_inf& info, const datastore& ds) {
    for (const auto& cap : info.ct_caps) {
        if (!receives(ds, cap.ct_type) || !lists_vtodo(cap)) continue;
        const bool shared = std::any_of(info.datastores.begin(), info.datastores.end(), [&](const datastore& other) {
            return &other != &ds && receives(other, cap.ct_type);
        });
        if (!shared) return true;
    }
    return false;
}

const std::vector<persistence::device_store_view>& views(run& r) {
    if (!r.views) r.views = r.store.device_store_views(r.tenant(), r.device.id);
    return *r.views;
}

bool has_view(run& r, matching::item_kind kind, std::string_view uri) {
    const auto& all = views(r);
    return std::any_of(all.begin(), all.end(),
                       [&](const auto& v) { return v.kind == kind && same_store_uri(v.remote_uri, uri); });
}

}  // namespace

bool devinf_stores_tasks_in(const dev_inf& info, std::string_view client_uri) {
    auto own_caps_list_vtodo = [](const datastore& ds) {
        return std::any_of(ds.ct_caps.begin(), ds.ct_caps.end(), lists_vtodo);
    };
    for (const auto& ds : info.datastores) {
        if (!same_store_uri(ds.source_ref, client_uri)) continue;
        // Phones that keep tasks in their calendar speak vCalendar 1.0 there. An iCalendar 2.0 datastore's CTCap says
        // nothing of it: the Synthesis engine (SyncEvolution) lists its profile's VTODO for every calendar datastore,
        // also for a calendar synced alone, whose events store cannot take a task. It is combined once it sends one.
        if (ds.rx_pref && !common::iequals(ds.rx_pref->ct_type, "text/x-vcalendar")) return false;
        if (ds.ct_caps.empty()) return flat_caps_list_vtodo(info, ds);
        const bool task_store_beside = std::any_of(info.datastores.begin(), info.datastores.end(),
                                                   [&](const auto& o) { return &o != &ds && own_caps_list_vtodo(o); });
        return own_caps_list_vtodo(ds) && !task_store_beside;
    }
    return false;
}

std::optional<matching::item_kind> calendar_component(std::string_view content) {
    for (const auto& line : matching::text_lines(content, {.keep_empty = false})) {
        if (common::iequals(line, "BEGIN:VTODO")) return matching::item_kind::task;
        if (common::iequals(line, "BEGIN:VEVENT")) return matching::item_kind::event;
    }
    return std::nullopt;
}

bool calendar_holds_tasks(run& r, std::string_view client_uri) {
    if (!r.device.devinf.empty()) {
        auto info = decode_devinf(r.device.devinf);
        if (info && devinf_stores_tasks_in(info.value(), client_uri)) return true;
    }
    return has_view(r, matching::item_kind::task, client_uri);
}

std::int64_t tasks_held_elsewhere(run& r, std::string_view client_uri) {
    for (const auto& v : views(r)) {
        if (v.kind == matching::item_kind::task && !same_store_uri(v.remote_uri, client_uri) &&
            !has_view(r, matching::item_kind::event, v.remote_uri))
            return v.id;
    }
    return 0;
}

bool tasks_travel_in_calendar(run& r, std::string_view client_uri) {
    const bool in_session =
        std::any_of(r.st.stores.begin(), r.st.stores.end(), [](const store_state& s) { return s.calendar_tasks; });
    if (in_session) return true;
    const auto& all = views(r);
    return std::any_of(all.begin(), all.end(), [&](const auto& v) {
        return v.kind == matching::item_kind::task && !same_store_uri(v.remote_uri, client_uri) &&
               has_view(r, matching::item_kind::event, v.remote_uri);
    });
}

store_state* calendar_tasks_of(session_state& st, const store_state& calendar) {
    for (auto& s : st.stores) {
        if (s.calendar_tasks && s.server_uri == calendar.server_uri) return &s;
    }
    return nullptr;
}

const store_state& short_id_owner(const session_state& st, const store_state& s) {
    if (!s.calendar_tasks) return s;
    for (const auto& calendar : st.stores) {
        if (!calendar.calendar_tasks && calendar.server_uri == s.server_uri) return calendar;
    }
    return s;
}

}  // namespace syncml::session::detail
