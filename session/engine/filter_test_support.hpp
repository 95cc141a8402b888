#pragma once
// What the filtered-sync tests (engine_filter_test.cpp, engine_field_filter_test.cpp) share: a fixed server clock,
// calendar phones and events, filters in an Alert's Target, and a count of the live items.

#include <chrono>
#include <ctime>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "session/engine/engine.hpp"
#include "session/engine/test_phone.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::filter_testing {

using namespace std::chrono_literals;
using testing::phone;
using testing::vcard;

constexpr std::int64_t k_day_s = 24 * 3600;
// The server's clock in these tests: 2026-12-01 00:00 UTC.
constexpr std::int64_t k_now_s =
    std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::sys_days{std::chrono::year{2026} / std::chrono::December / 1}.time_since_epoch())
        .count();

inline std::string ical_time(std::int64_t unix_s) {
    std::time_t t = unix_s;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char out[32];
    std::strftime(out, sizeof out, "%Y%m%dT%H%M%SZ", &tm);
    return out;
}

// An iCalendar 2.0 event from `start` (seconds since 1970) for `hours`.
inline std::string event(const std::string& uid, std::int64_t start, int hours = 1) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:" + uid +
           "\r\nDTSTART:" + ical_time(start) + "\r\nDTEND:" + ical_time(start + hours * 3600) + "\r\nSUMMARY:" + uid +
           "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
}

inline phone calendar_phone(testing::fake_sync_store& store, const std::string& device) {
    phone p(store, device, "text/calendar");
    p.datastore = "calendar";
    p.clock_ms = k_now_s * 1000;
    return p;
}

inline std::string uid_of(const std::string& data) {
    auto at = data.find("UID:");
    return at == std::string::npos ? std::string{} : data.substr(at + 4, data.find('\r', at) - at - 4);
}

// The UIDs of the events a phone holds.
inline std::set<std::string> uids(const phone& p) {
    std::set<std::string> out;
    for (const auto& [luid, data] : p.items) {
        if (auto uid = uid_of(data); !uid.empty()) out.insert(uid);
    }
    return out;
}

inline std::size_t live(const testing::fake_sync_store& store) {
    return store.items.empty() ? 0 : store.live_items(store.items.at(0).datastore).size();
}

// `m`'s Alert asks for the datastore through `target` with `filter` (when given) in the item's Target.
inline message with_filter(message m, const std::string& target, std::optional<item_filter> filter) {
    for (auto& c : m.body.commands) {
        if (auto* a = std::get_if<alert>(&c.value)) a->items.at(0).target = location{target, std::nullopt, filter};
    }
    return m;
}

inline item_filter cgi(const std::string& expression) {
    item_filter f;
    f.record = filter_part{meta_info{}, expression};
    f.record->meta->type = "syncml:filtertype-cgi";
    return f;
}

// The Alert status of `p`'s session that opens with `opening` and sends `changes`; the session completes.
inline std::string session_with(phone& p, int mode, const std::function<message(message)>& opening,
                                const std::map<std::string, std::string>& changes = {}, bool as_replace = false) {
    auto reply = p.send(opening(p.start(mode))).reply;
    const auto statuses = testing::statuses_of(reply, "Alert");
    p.package4 = p.send(p.changes(changes, as_replace)).reply;
    if (!statuses.empty() && statuses.at(0)->data.starts_with("2")) {
        EXPECT_TRUE(p.receive_package4(p.package4));
        p.finish();
    }
    return statuses.empty() ? "no Alert status" : statuses.at(0)->data;
}

// Phone A puts three events on the server: two years ago, next week, three years ahead. Returns phone A.
inline phone three_events(testing::fake_sync_store& store) {
    auto a = calendar_phone(store, "phone-a");
    testing::full_sync(a, 201,
                       {{"1", event("past", k_now_s - 730 * k_day_s)},
                        {"2", event("soon", k_now_s + 7 * k_day_s)},
                        {"3", event("far", k_now_s + 3 * 365 * k_day_s)}});
    EXPECT_EQ(live(store), 3u);
    return a;
}

}  // namespace syncml::session::filter_testing
