// Filtered syncs (issue 18, engine_filter.hpp): a device gets only the items inside its filter (its own <Filter> or
// URI options, ANDed with its sync window), items move into a window as time passes, a changed filter sends what the
// old one left out, and a refresh from the client never deletes what the device could not see.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "session/engine/engine.hpp"
#include "session/engine/filter_test_support.hpp"
#include "session/engine/test_phone.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session {
namespace {

using namespace std::chrono_literals;
using namespace filter_testing;
using testing::phone;
using testing::vcard;

TEST(engine_filter, a_device_with_a_window_gets_only_the_events_inside_it) {
    testing::fake_sync_store store;
    three_events(store);
    store.windows["phone-b"] = {30, 365, 0, 0};
    auto b = calendar_phone(store, "phone-b");
    EXPECT_EQ(session_with(b, 201, [](message m) { return m; }), "200");
    EXPECT_EQ(uids(b), std::set<std::string>{"soon"});
    auto c = calendar_phone(store, "phone-c");  // no window: everything
    EXPECT_EQ(session_with(c, 201, [](message m) { return m; }), "200");
    EXPECT_EQ(uids(c), (std::set<std::string>{"past", "soon", "far"}));
}

TEST(engine_filter, a_refresh_from_a_client_with_a_window_deletes_nothing_outside_it) {
    testing::fake_sync_store store;
    three_events(store);
    store.windows["phone-b"] = {30, 365, 0, 0};
    auto b = calendar_phone(store, "phone-b");
    // The phone holds nothing of the window any more and one event of its own: the server's event inside goes.
    EXPECT_EQ(session_with(b, 203, [](message m) { return m; }, {{"9", event("mine", k_now_s + k_day_s)}}), "200");
    std::set<std::string> left;
    for (const auto* it : store.live_items(store.items.at(0).datastore)) {
        auto at = it->content.find("UID:");
        left.insert(it->content.substr(at + 4, it->content.find('\r', at) - at - 4));
    }
    EXPECT_EQ(left, (std::set<std::string>{"past", "far", "mine"}));
}

TEST(engine_filter, without_a_window_the_same_refresh_deletes_everything_the_client_did_not_send) {
    testing::fake_sync_store store;
    three_events(store);
    auto b = calendar_phone(store, "phone-b");
    EXPECT_EQ(session_with(b, 203, [](message m) { return m; }, {{"9", event("mine", k_now_s + k_day_s)}}), "200");
    EXPECT_EQ(live(store), 1u);
}

// Phone B with the window -30/+365 days slow-syncs the three events: it holds "soon".
phone windowed_phone_b(testing::fake_sync_store& store) {
    three_events(store);
    store.windows["phone-b"] = {30, 365, 0, 0};
    auto b = calendar_phone(store, "phone-b");
    session_with(b, 201, [](message m) { return m; });
    EXPECT_EQ(uids(b), std::set<std::string>{"soon"});
    return b;
}

TEST(engine_filter, events_move_into_the_window_as_adds_and_out_of_it_from_the_device_only) {
    testing::fake_sync_store store;
    auto b = windowed_phone_b(store);
    // Two years and a half later "far" (three years ahead then) is less than a year away and "soon" long past.
    b.clock_ms = (k_now_s + 900 * k_day_s) * 1000;
    EXPECT_EQ(session_with(b, 200, [](message m) { return m; }), "200");
    EXPECT_EQ(uids(b), std::set<std::string>{"far"});
    EXPECT_EQ(live(store), 3u) << "nothing was added or deleted on the server";
    // The next sync has nothing to send: the removal was recorded.
    session_with(b, 200, [](message m) { return m; });
    EXPECT_EQ(b.sent("Delete") + b.sent("Add") + b.sent("Replace"), 0u);
    EXPECT_EQ(uids(b), std::set<std::string>{"far"});
}

TEST(engine_filter, a_changed_window_sends_what_the_old_one_left_out_without_a_slow_sync) {
    testing::fake_sync_store store;
    auto b = windowed_phone_b(store);
    store.windows.erase("phone-b");
    EXPECT_EQ(session_with(b, 200, [](message m) { return m; }), "200") << "a two-way sync, not a slow one";
    EXPECT_EQ(uids(b), (std::set<std::string>{"past", "soon", "far"}));
    EXPECT_EQ(b.items.size(), 3u) << "no duplicate of the event the phone held";
}

std::string contact(const std::string& name, const std::string& category) {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:" + name + "\r\nN:" + name + ";;;;\r\nCATEGORIES:" + category +
           "\r\nEND:VCARD\r\n";
}

// Phone A puts Alice and Bob on the server; phone B syncs the contacts named Alice with a filter of `filter_type`.
// Returns phone A; B holds Alice.
item_filter alice_filter(std::optional<std::string> filter_type) {
    auto filter = cgi("FN&EQ;Alice");
    filter.filter_type = std::move(filter_type);
    return filter;
}

phone alice_on_b(testing::fake_sync_store& store, phone& b, const item_filter& filter) {
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", contact("Alice", "Work")}, {"2", contact("Bob", "Home")}});
    EXPECT_EQ(session_with(b, 201, [&](message m) { return with_filter(m, "contacts", filter); }), "200");
    EXPECT_EQ(b.items.size(), 1u);
    return a;
}

TEST(engine_filter, an_item_that_leaves_an_exclusive_filter_leaves_the_device_only_and_comes_back_when_it_returns) {
    testing::fake_sync_store store;
    phone b(store, "phone-b");
    const auto filter = alice_filter(std::nullopt);  // no FilterType: EXCLUSIVE
    auto a = alice_on_b(store, b, filter);
    const auto work = [&](message m) { return with_filter(m, "contacts", filter); };
    a.sync(200, {{"1", contact("Alicia", "Work"), true}});
    session_with(b, 200, work);
    EXPECT_EQ(b.sent("Delete"), 1u);
    EXPECT_TRUE(b.items.empty());
    EXPECT_EQ(live(store), 2u) << "the server and phone A keep Alicia";
    a.sync(200, {{"1", contact("Alice", "Home"), true}});
    session_with(b, 200, work);
    EXPECT_EQ(b.sent("Add"), 1u);
    ASSERT_EQ(b.items.size(), 1u);
    EXPECT_NE(b.items.begin()->second.find("FN:Alice\r"), std::string::npos);
    EXPECT_EQ(live(store), 2u);
}

TEST(engine_filter, an_item_that_leaves_an_inclusive_filter_stays_on_the_device_and_gets_its_changes) {
    testing::fake_sync_store store;
    phone b(store, "phone-b");
    const auto filter = alice_filter("INCLUSIVE");
    auto a = alice_on_b(store, b, filter);
    a.sync(200, {{"1", contact("Alicia", "Work"), true}});
    session_with(b, 200, [&](message m) { return with_filter(m, "contacts", filter); });
    EXPECT_EQ(b.sent("Replace"), 1u);
    ASSERT_EQ(b.items.size(), 1u);
    EXPECT_NE(b.items.begin()->second.find("Alicia"), std::string::npos);
}

TEST(engine_filter, a_cgi_record_filter_selects_contacts_and_limits_a_refresh_to_them) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(
        a, 201,
        {{"1", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Alice\r\nN:Alice;;;;\r\nCATEGORIES:Work\r\nEND:VCARD\r\n"},
         {"2", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob\r\nN:Bob;;;;\r\nCATEGORIES:Home\r\nEND:VCARD\r\n"}});
    phone b(store, "phone-b");
    const auto work = [](message m) { return with_filter(m, "contacts", cgi("CATEGORIES&iCON;work")); };
    EXPECT_EQ(session_with(b, 201, work), "200");
    ASSERT_EQ(b.items.size(), 1u);
    EXPECT_NE(b.items.begin()->second.find("Alice"), std::string::npos);
    // A refresh from B that no longer has Alice deletes her, not Bob, whom B never saw.
    b.items.clear();
    EXPECT_EQ(session_with(b, 203, work), "200");
    ASSERT_EQ(live(store), 1u);
    EXPECT_NE(store.live_items(store.items.at(0).datastore).at(0)->content.find("Bob"), std::string::npos);
}

TEST(engine_filter, a_date_range_in_the_datastore_uri_is_applied_like_a_window) {
    testing::fake_sync_store store;
    three_events(store);
    auto b = calendar_phone(store, "phone-b");
    EXPECT_EQ(session_with(b, 201, [](message m) { return with_filter(m, "calendar?/dr(-30,365)", std::nullopt); }),
              "200");
    EXPECT_EQ(uids(b), std::set<std::string>{"soon"});
}

TEST(engine_filter, a_ten_year_calendar_reaches_a_windowed_phone_as_exactly_the_overlapping_events) {
    testing::fake_sync_store store;
    // 2000 events of three hours, one every 43 hours, from five years ago on.
    const std::int64_t first = k_now_s - 5 * 365 * k_day_s, step = 43 * 3600, length = 3 * 3600;
    std::map<std::string, std::string> calendar;
    std::set<std::string> expected;
    for (int i = 0; i < 2000; ++i) {
        const auto start = first + i * step;
        const auto uid = "ev" + std::to_string(i);
        calendar["l" + std::to_string(10000 + i)] = event(uid, start, 3);
        if (start + length > k_now_s - 30 * k_day_s && start < k_now_s + 365 * k_day_s) expected.insert(uid);
    }
    auto a = calendar_phone(store, "phone-a");
    testing::full_sync(a, 201, calendar);
    ASSERT_EQ(live(store), 2000u);
    store.windows["phone-b"] = {30, 365, 0, 0};
    auto b = calendar_phone(store, "phone-b");
    session_with(b, 201, [](message m) { return m; });
    EXPECT_EQ(uids(b), expected);
    // B's refresh with what it holds leaves all 2000 for the phone without a window.
    auto held = b.items;
    EXPECT_EQ(session_with(
                  b, 203, [](message m) { return m; }, held),
              "200");
    EXPECT_EQ(live(store), 2000u);
}

// The UIDs of the live events on the server.
std::set<std::string> server_uids(const testing::fake_sync_store& store) {
    std::set<std::string> out;
    for (const auto* it : store.live_items(store.items.at(0).datastore)) out.insert(uid_of(it->content));
    return out;
}

TEST(engine_filter, an_item_limit_caps_what_the_device_holds_and_the_rest_waits_for_room) {
    testing::fake_sync_store store;
    auto a = three_events(store);
    auto b = calendar_phone(store, "phone-b");
    const auto limited = [](message m) { return with_filter(m, "calendar?/max(2)", std::nullopt); };
    EXPECT_EQ(session_with(b, 201, limited), "200");
    ASSERT_EQ(b.items.size(), 2u);
    // Full: a two-way sync adds nothing, and nothing is taken from the phone or the server.
    EXPECT_EQ(session_with(b, 200, limited), "200");
    EXPECT_EQ(b.sent("Add") + b.sent("Delete"), 0u);
    EXPECT_EQ(live(store), 3u);
    // The phone deletes one of its events: the server's third event takes its place.
    const auto gone = b.items.begin()->first;
    const auto kept_uid = uid_of(std::next(b.items.begin())->second);
    EXPECT_EQ(session_with(b, 200, limited, {{gone, ""}}), "200");
    EXPECT_EQ(b.items.size(), 2u);
    EXPECT_EQ(uids(b), server_uids(store));
    EXPECT_TRUE(uids(b).count(kept_uid));
    // Phone A, without a limit, has the same two events.
    a.sync(200, {});
    EXPECT_EQ(uids(a), server_uids(store));
}

TEST(engine_filter, a_refresh_under_a_limit_keeps_an_item_a_refresh_from_the_server_left_off_the_device) {
    testing::fake_sync_store store;
    auto a = three_events(store);
    auto b = calendar_phone(store, "phone-b");
    const auto limited = [](message m) { return with_filter(m, "calendar?/max(2)", std::nullopt); };
    EXPECT_EQ(session_with(b, 201, limited), "200");
    ASSERT_EQ(uids(b), (std::set<std::string>{"past", "soon"}));
    // A edits "past": it is now the server's latest change, so a refresh from the server fills B with the others.
    a.sync(200, {{"1", event("past", k_now_s - 730 * k_day_s, 2), true}});
    b.items.clear();
    EXPECT_EQ(session_with(b, 205, limited), "200");
    ASSERT_EQ(uids(b), (std::set<std::string>{"soon", "far"}));
    // B refreshes the server with exactly what it holds: "past", which it no longer had, stays.
    const auto holds = b.items;
    EXPECT_EQ(session_with(b, 203, limited, holds), "200");
    EXPECT_EQ(server_uids(store), (std::set<std::string>{"past", "soon", "far"}));
}

TEST(engine_filter, a_window_item_limit_counts_what_the_device_already_holds) {
    testing::fake_sync_store store;
    three_events(store);
    store.windows["phone-b"] = {0, 0, 1, 0};
    auto b = calendar_phone(store, "phone-b");
    // A slow sync where the phone brings two events of its own: it is over the limit, so it gets none.
    EXPECT_EQ(session_with(b, 201, [](message m) { return m; },
                           {{"8", event("own-1", k_now_s)}, {"9", event("own-2", k_now_s + k_day_s)}}),
              "200");
    EXPECT_EQ(uids(b), (std::set<std::string>{"own-1", "own-2"}));
    EXPECT_EQ(live(store), 5u) << "nothing deleted anywhere for being over the limit";
}

TEST(engine_filter, a_refresh_under_an_item_limit_deletes_only_what_the_device_held_and_did_not_send) {
    testing::fake_sync_store store;
    three_events(store);
    auto b = calendar_phone(store, "phone-b");
    const auto limited = [](message m) { return with_filter(m, "calendar?/max(2)", std::nullopt); };
    EXPECT_EQ(session_with(b, 201, limited), "200");
    ASSERT_EQ(b.items.size(), 2u);
    const auto held = uids(b);
    std::set<std::string> never_received;
    for (const auto& uid : server_uids(store))
        if (!held.count(uid)) never_received.insert(uid);
    ASSERT_EQ(never_received.size(), 1u);
    // The phone lost one of its two events and refreshes the server with the other.
    const auto& [luid, data] = *b.items.begin();
    const auto sent_uid = uid_of(data);
    EXPECT_EQ(session_with(b, 203, limited, {{luid, data}}), "200");
    auto expected = never_received;
    expected.insert(sent_uid);
    EXPECT_EQ(server_uids(store), expected) << "the event it never received stays, the one it dropped goes";
}

}  // namespace
}  // namespace syncml::session
