#pragma once
// Items, DevInf and phones the combined-calendar tests share (engine_calendar_tasks_test.cpp and
// engine_calendar_tasks_devinf_test.cpp): vCalendar 1.0 and iCalendar 2.0 events and tasks, a calendar datastore
// that declares its components, and the phones that sync them.

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "session/engine/test_phone.hpp"

namespace syncml::session::calendar_tasks_testing {

using testing::phone;

inline std::string vcal_task(const std::string& summary, const std::string& extra = "") {
    return "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VTODO\r\nSUMMARY:" + summary +
           "\r\nDUE:20240601T100000Z\r\nPRIORITY:1\r\n" + extra + "END:VTODO\r\nEND:VCALENDAR\r\n";
}

inline std::string vcal_event(const std::string& summary) {
    return "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nSUMMARY:" + summary +
           "\r\nDTSTART:20240601T090000Z\r\nDTEND:20240601T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
}

inline std::string ical_task(const std::string& uid, const std::string& summary) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:" + uid +
           "\r\nSUMMARY:" + summary + "\r\nDUE:20240701T100000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n";
}

inline std::string ical_event(const std::string& uid, const std::string& summary) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:" + uid +
           "\r\nSUMMARY:" + summary +
           "\r\nDTSTART:20240701T090000Z\r\nDTEND:20240701T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
}

inline bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

inline ct_cap vcalendar_cap(std::initializer_list<const char*> components) {
    ct_cap cap;
    cap.ct_type = "text/x-vcalendar";
    cap.ver_ct = "1.0";
    ct_property begin;
    begin.prop_name = "BEGIN";
    begin.val_enums.emplace_back("VCALENDAR");
    for (const char* c : components) begin.val_enums.emplace_back(c);
    cap.properties.push_back(begin);
    ct_property summary;
    summary.prop_name = "SUMMARY";
    cap.properties.push_back(summary);
    return cap;
}

inline datastore vcalendar_store(const std::string& name, std::initializer_list<const char*> components) {
    datastore ds;
    ds.source_ref = name;
    ds.rx_pref = content_type_ref{"text/x-vcalendar", "1.0"};
    ds.tx_pref = content_type_ref{"text/x-vcalendar", "1.0"};
    ds.ct_caps.push_back(vcalendar_cap(components));
    return ds;
}

// A 1.2 DevInf whose "./Calendar" lists VEVENT and VTODO, as Nokia's S60 phones declare theirs.
inline dev_inf combined_devinf() {
    dev_inf info;
    info.ver_dtd = "1.2";
    info.dev_id = "IMEI:combined";
    info.dev_typ = "phone";
    info.datastores.push_back(vcalendar_store("./Calendar", {"VEVENT", "VTODO"}));
    return info;
}

// The phone's calendar datastore, vCalendar 1.0, as ./Calendar against the server's "Calendar".
inline phone calendar_phone(testing::fake_sync_store& store, const std::string& device) {
    phone p(store, device, "text/x-vcalendar");
    p.datastore = "Calendar";
    p.client_store = "./Calendar";
    return p;
}

// Another device of the user that syncs tasks in iCalendar 2.0.
inline phone task_client(testing::fake_sync_store& store) {
    phone p(store, "task-client", "text/calendar");
    p.datastore = "tasks";
    return p;
}

inline std::vector<std::string> contents(testing::fake_sync_store& store, matching::item_kind kind) {
    std::vector<std::string> out;
    auto found = store.datastores.find({7, kind});
    if (found == store.datastores.end()) return out;
    for (const auto* item : store.live_items(found->second)) out.push_back(item->content);
    return out;
}

inline std::vector<const sync*> syncs_of(const message& m) {
    std::vector<const sync*> out;
    for (const auto& c : m.body.commands) {
        if (const auto* s = std::get_if<sync>(&c.value)) out.push_back(s);
    }
    return out;
}

inline std::size_t items_holding(const phone& p, std::string_view part) {
    return static_cast<std::size_t>(
        std::count_if(p.items.begin(), p.items.end(), [&](const auto& entry) { return has(entry.second, part); }));
}

}  // namespace syncml::session::calendar_tasks_testing
