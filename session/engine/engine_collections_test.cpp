// Many collections per user (issue 38): a device's datastore syncs the collection its URI names
// (./calendar?collection=work) or an operator chose, else its kind's default; a collection that holds other kinds too
// gives the device the items of its datastore's kind only, and a refresh from it deletes no other.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "session/engine/filter_test_support.hpp"
#include "session/engine/store_names.hpp"

namespace syncml::session {
namespace {

using namespace filter_testing;
using testing::phone;

constexpr std::int64_t k_user = 7;  // the test phones' user

std::string todo(const std::string& uid) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:" + uid + "\r\nSUMMARY:" + uid +
           "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n";
}

// The user's default calendar holds "home"; the collection work (taking `kinds`) holds "meeting" and, when it takes
// tasks, a task "report".
std::int64_t two_calendars(testing::fake_sync_store& store, std::vector<persistence::item_kind> kinds) {
    const auto home = store.datastore(0, k_user, persistence::item_kind::event);
    store.add_item(0, home, event("home", k_now_s + k_day_s), {});
    const bool tasks = kinds.size() > 1;
    const auto work = store.add_collection(k_user, "work", std::move(kinds));
    store.add_item(0, work, event("meeting", k_now_s + 2 * k_day_s), {});
    if (tasks) store.add_item(0, work, todo("report"), {});
    return work;
}

std::set<std::string> live_uids(const testing::fake_sync_store& store, std::int64_t datastore) {
    std::set<std::string> out;
    for (const auto* it : store.live_items(datastore)) out.insert(uid_of(it->content));
    return out;
}

TEST(engine_collections, a_uri_naming_a_collection_syncs_it_instead_of_the_default) {
    testing::fake_sync_store store;
    two_calendars(store, {persistence::item_kind::event, persistence::item_kind::task});
    auto work_phone = calendar_phone(store, "phone-w");
    work_phone.datastore = "calendar?collection=work";
    EXPECT_EQ(session_with(work_phone, 201, [](message m) { return m; }), "200");
    EXPECT_EQ(uids(work_phone), std::set<std::string>{"meeting"}) << "the events of work, not its task";
    auto home_phone = calendar_phone(store, "phone-h");
    EXPECT_EQ(session_with(home_phone, 201, [](message m) { return m; }), "200");
    EXPECT_EQ(uids(home_phone), std::set<std::string>{"home"});
}

TEST(engine_collections, a_change_to_the_collection_reaches_its_device_once) {
    testing::fake_sync_store store;
    const auto work = two_calendars(store, {persistence::item_kind::event});
    auto p = calendar_phone(store, "phone-w");
    p.datastore = "calendar?collection=work";
    ASSERT_EQ(session_with(p, 201, [](message m) { return m; }), "200");
    store.add_item(0, work, event("lunch", k_now_s + 3 * k_day_s), {});
    store.add_item(0, store.datastore(0, k_user, persistence::item_kind::event), event("gym", k_now_s), {});
    EXPECT_EQ(session_with(p, 200, [](message m) { return m; }), "200");
    EXPECT_EQ(p.sent("Add"), 1u);
    EXPECT_EQ(uids(p), (std::set<std::string>{"meeting", "lunch"}));
    EXPECT_EQ(session_with(p, 200, [](message m) { return m; }), "200");
    EXPECT_EQ(p.sent("Add") + p.sent("Replace") + p.sent("Delete"), 0u);
}

TEST(engine_collections, an_unknown_collection_or_one_of_another_kind_is_not_found) {
    testing::fake_sync_store store;
    two_calendars(store, {persistence::item_kind::event});
    auto p = calendar_phone(store, "phone-x");
    p.datastore = "calendar?collection=nowhere";
    EXPECT_EQ(session_with(p, 201, [](message m) { return m; }), "404");
    p.datastore = "tasks?collection=work";
    EXPECT_EQ(session_with(p, 201, [](message m) { return m; }), "404");
    p.datastore = "calendar?collection=a%20b";
    EXPECT_EQ(session_with(p, 201, [](message m) { return m; }), "404") << "no collection has such a name";
}

TEST(engine_collections, a_refresh_from_a_device_of_events_deletes_no_task_of_a_mixed_collection) {
    testing::fake_sync_store store;
    const auto work = two_calendars(store, {persistence::item_kind::event, persistence::item_kind::task});
    auto p = calendar_phone(store, "phone-w");
    p.datastore = "calendar?collection=work";
    ASSERT_EQ(session_with(p, 201, [](message m) { return m; }), "200");
    EXPECT_EQ(session_with(p, 203, [](message m) { return m; }, {{"9", event("mine", k_now_s)}}), "200");
    EXPECT_EQ(live_uids(store, work), (std::set<std::string>{"report", "mine"}));
}

TEST(engine_collections, an_operators_choice_points_the_devices_datastore_and_the_uri_comes_first) {
    testing::fake_sync_store store;
    const auto work = two_calendars(store, {persistence::item_kind::event});
    auto contacts = phone(store, "phone-o");
    testing::full_sync(contacts, 201, {});
    store.chosen[{store.devices.at("7:phone-o").id, persistence::item_kind::event}] = work;
    auto p = calendar_phone(store, "phone-o");
    p.session_offset = 100;
    EXPECT_EQ(session_with(p, 201, [](message m) { return m; }), "200");
    EXPECT_EQ(uids(p), std::set<std::string>{"meeting"});
    auto q = calendar_phone(store, "phone-o");
    q.session_offset = 200;
    q.datastore = "calendar?collection=calendar";
    q.client_store = "./other";
    EXPECT_EQ(session_with(q, 201, [](message m) { return m; }), "200");
    EXPECT_EQ(uids(q), std::set<std::string>{"home"});
}

TEST(store_names, the_collection_option_is_taken_out_of_the_uri) {
    const auto plain = collection_option("./calendar");
    EXPECT_EQ(plain.uri, "./calendar");
    EXPECT_EQ(plain.collection, std::string());
    const auto alone = collection_option("./calendar?collection=work");
    EXPECT_EQ(alone.uri, "./calendar");
    EXPECT_EQ(alone.collection, std::string("work"));
    EXPECT_EQ(collection_option("./calendar?collection=work&/dr(-30,90)").uri, "./calendar?/dr(-30,90)");
    EXPECT_EQ(collection_option("./calendar?collection=work/dr(-30,90)").uri, "./calendar?/dr(-30,90)");
    const auto last = collection_option("./calendar?/dr(-30,90)&collection=work");
    EXPECT_EQ(last.uri, "./calendar?/dr(-30,90)");
    EXPECT_EQ(last.collection, std::string("work"));
    const auto filter = collection_option("contacts?CATEGORIES&iCON;Work");
    EXPECT_EQ(filter.uri, "contacts?CATEGORIES&iCON;Work");
    EXPECT_EQ(filter.collection, std::string());
    EXPECT_FALSE(collection_option("./calendar?collection=").collection);
    EXPECT_FALSE(collection_option("./calendar?collection=a%20b").collection);
    EXPECT_FALSE(collection_option("./calendar?collection=.hidden").collection);
    EXPECT_EQ(datastore_kind("./calendar?collection=work"), matching::item_kind::event);
}

}  // namespace
}  // namespace syncml::session
