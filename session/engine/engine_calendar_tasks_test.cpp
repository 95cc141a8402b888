// A device calendar that holds tasks too (Nokia, Sony Ericsson): its VTODOs live in the user's task datastore, its
// VEVENTs in the calendar, and both come back to it through its calendar datastore (issue 36).
#include <gtest/gtest.h>

#include <algorithm>

#include "session/codec/codec.hpp"
#include "session/engine/calendar_tasks.hpp"
#include "session/engine/calendar_tasks_test_support.hpp"
#include "session/engine/engine_run.hpp"
#include "session/engine/test_phone.hpp"

namespace syncml::session {
namespace {

using namespace calendar_tasks_testing;

TEST(engine_calendar_tasks, a_vtodo_in_a_combined_calendar_is_stored_as_a_task_and_a_vevent_as_an_event) {
    testing::fake_sync_store store;
    auto nokia = calendar_phone(store, "IMEI:combined");
    nokia.devinf = combined_devinf();
    EXPECT_EQ(nokia.sync(200, {{"t1", vcal_task("Buy milk")}, {"e1", vcal_event("Dentist")}}),
              (std::vector<std::string>{"201", "201"}));
    auto tasks = contents(store, matching::item_kind::task);
    ASSERT_EQ(tasks.size(), 1u);
    EXPECT_TRUE(has(tasks[0], "BEGIN:VTODO") && has(tasks[0], "SUMMARY:Buy milk")) << tasks[0];
    EXPECT_TRUE(has(tasks[0], "VERSION:2.0")) << "stored as iCalendar 2.0, as the task datastore keeps items";
    auto events = contents(store, matching::item_kind::event);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_TRUE(has(events[0], "BEGIN:VEVENT") && has(events[0], "SUMMARY:Dentist")) << events[0];

    // Another device's task datastore sees the phone's task; the phone's next sync sends nothing back.
    auto other = task_client(store);
    other.sync(200, {});
    EXPECT_EQ(other.sent("Add"), 1u);
    EXPECT_EQ(items_holding(other, "SUMMARY:Buy milk"), 1u);
    nokia.sync(200, {});
    EXPECT_EQ(nokia.sent("Add") + nokia.sent("Replace"), 0u);
}

TEST(engine_calendar_tasks, tasks_from_elsewhere_reach_a_combined_calendar_in_its_one_sync_and_are_mapped) {
    testing::fake_sync_store store;
    auto nokia = calendar_phone(store, "IMEI:combined");
    nokia.devinf = combined_devinf();
    nokia.sync(200, {{"e1", vcal_event("Dentist")}});

    auto other = task_client(store);
    other.sync(200, {{"x1", ical_task("task-1", "File taxes")}});
    phone caldav_like(store, "calendar-client", "text/calendar");
    caldav_like.datastore = "calendar";
    caldav_like.sync(200, {{"y1", ical_event("event-1", "Concert")}});

    nokia.sync(200, {});
    auto syncs = syncs_of(nokia.package4);
    ASSERT_EQ(syncs.size(), 1u) << "the device sees one Sync for its calendar";
    EXPECT_EQ(syncs[0]->target->loc_uri, "./Calendar");
    ASSERT_TRUE(syncs[0]->number_of_changes);
    EXPECT_EQ(*syncs[0]->number_of_changes, 2u);
    EXPECT_EQ(nokia.sent("Add"), 2u);
    EXPECT_EQ(items_holding(nokia, "BEGIN:VTODO"), 1u);
    EXPECT_EQ(items_holding(nokia, "SUMMARY:File taxes"), 1u);
    EXPECT_EQ(items_holding(nokia, "SUMMARY:Concert"), 1u);
    for (const auto& [luid, meta] : nokia.received_meta) EXPECT_EQ(meta.type.value_or(""), "text/x-vcalendar");
    for (const auto& [luid, data] : nokia.items) EXPECT_TRUE(has(data, "VERSION:1.0")) << data;

    // Mapped: nothing comes again, and the other device's edit arrives as a Replace in the calendar.
    nokia.sync(200, {});
    EXPECT_EQ(nokia.sent("Add") + nokia.sent("Replace"), 0u);
    other.sync(200, {{"x1", ical_task("task-1", "File taxes today"), true}});
    nokia.sync(200, {});
    EXPECT_EQ(nokia.sent("Replace"), 1u);
    EXPECT_EQ(nokia.sent("Add"), 0u);
    EXPECT_EQ(items_holding(nokia, "SUMMARY:File taxes today"), 1u);
    EXPECT_EQ(items_holding(nokia, "BEGIN:VTODO"), 1u);

    // The phone deletes the task through its calendar: it leaves the task datastore and the other device.
    std::string task_luid;
    for (const auto& [luid, data] : nokia.items) {
        if (has(data, "BEGIN:VTODO")) task_luid = luid;
    }
    EXPECT_EQ(nokia.sync(200, {{task_luid, ""}}), (std::vector<std::string>{"200"}));
    EXPECT_TRUE(contents(store, matching::item_kind::task).empty());
    EXPECT_EQ(contents(store, matching::item_kind::event).size(), 2u) << "the events stay";
    other.sync(200, {});
    EXPECT_EQ(other.sent("Delete"), 1u);
}

TEST(engine_calendar_tasks, the_phones_own_task_edit_reaches_the_task_datastore_as_a_replace) {
    testing::fake_sync_store store;
    auto nokia = calendar_phone(store, "IMEI:combined");
    nokia.devinf = combined_devinf();
    nokia.sync(200, {{"t1", vcal_task("Buy milk")}});
    nokia.sync(200, {{"t1", vcal_task("Buy oat milk"), true}});
    auto tasks = contents(store, matching::item_kind::task);
    ASSERT_EQ(tasks.size(), 1u);
    EXPECT_TRUE(has(tasks[0], "SUMMARY:Buy oat milk")) << tasks[0];
    EXPECT_TRUE(contents(store, matching::item_kind::event).empty());
}

TEST(engine_calendar_tasks, a_phone_without_devinf_that_sends_a_vtodo_to_its_calendar_is_remembered_as_combined) {
    testing::fake_sync_store store;
    auto phone_a = calendar_phone(store, "IMEI:no-devinf");
    EXPECT_EQ(phone_a.sync(200, {{"t1", vcal_task("Call mum")}}), (std::vector<std::string>{"201"}));
    ASSERT_EQ(contents(store, matching::item_kind::task).size(), 1u);
    EXPECT_TRUE(contents(store, matching::item_kind::event).empty());

    auto other = task_client(store);
    other.sync(200, {{"x1", ical_task("task-2", "Water plants")}});
    phone_a.sync(200, {});
    EXPECT_EQ(phone_a.sent("Add"), 1u);
    EXPECT_EQ(items_holding(phone_a, "SUMMARY:Water plants"), 1u);
}

// A slow sync of a combined calendar pairs the phone's tasks with the stored ones instead of duplicating them, and
// a conflict on a task is resolved by the tenant's policy like one on an event.
TEST(engine_calendar_tasks, slow_sync_pairs_tasks_and_a_conflict_on_a_task_is_resolved) {
    testing::fake_sync_store store;
    auto nokia = calendar_phone(store, "IMEI:combined");
    nokia.devinf = combined_devinf();
    nokia.sync(200, {{"t1", vcal_task("Buy milk")}, {"e1", vcal_event("Dentist")}});
    nokia.last_anchor.clear();
    EXPECT_EQ(nokia.sync(201, {{"t1", vcal_task("Buy milk"), true}, {"e1", vcal_event("Dentist"), true}}),
              (std::vector<std::string>{"200", "200"}));
    EXPECT_EQ(contents(store, matching::item_kind::task).size(), 1u);
    EXPECT_EQ(contents(store, matching::item_kind::event).size(), 1u);
    EXPECT_EQ(nokia.sent("Add"), 0u);

    store.policy = "server-wins";
    auto other = task_client(store);
    other.sync(200, {});
    const auto other_luid = other.items.begin()->first;
    other.sync(200, {{other_luid, ical_task("milk", "Buy milk from the server"), true}});
    auto codes = nokia.sync(200, {{"t1", vcal_task("Buy milk from the phone"), true}});
    ASSERT_EQ(codes.size(), 1u);
    EXPECT_EQ(codes[0], "419") << "server won";
    auto tasks = contents(store, matching::item_kind::task);
    ASSERT_EQ(tasks.size(), 1u);
    EXPECT_TRUE(has(tasks[0], "Buy milk from the server")) << tasks[0];
    EXPECT_EQ(nokia.sent("Replace"), 1u) << "the server's copy goes back to the phone in its calendar";
}

// The task side keeps its own record of what the device has seen: when it must start over (an admin reset, a lost
// sync), the calendar's two-way sync becomes a slow one for both sides (508), and the phone's items pair again.
TEST(engine_calendar_tasks, a_task_side_that_must_start_over_makes_the_calendars_sync_slow) {
    testing::fake_sync_store store;
    auto nokia = calendar_phone(store, "IMEI:combined");
    nokia.devinf = combined_devinf();
    nokia.sync(200, {{"t1", vcal_task("Buy milk")}, {"e1", vcal_event("Dentist")}});
    nokia.sync(200, {});
    for (const auto& view : store.device_store_views(1, store.device(1, 7, "IMEI:combined").id)) {
        if (view.kind == matching::item_kind::task) store.require_slow_sync(1, view.id);
    }
    auto first = nokia.send(nokia.start(200));
    auto alerts = testing::statuses_of(first.reply, "Alert");
    ASSERT_EQ(alerts.size(), 1u);
    EXPECT_EQ(alerts[0]->data, "508");
    ASSERT_TRUE(testing::alert_of(first.reply));
    EXPECT_EQ(testing::alert_of(first.reply)->data, "201");
}

// A resumed session (Alert 225) continues the task side with its calendar: what arrived before the interruption is not
// applied twice, and the rest of the tasks still go to the task datastore.
TEST(engine_calendar_tasks, a_resumed_session_continues_the_task_side_of_its_calendar) {
    testing::fake_sync_store store;
    auto nokia = calendar_phone(store, "IMEI:combined");
    nokia.devinf = combined_devinf();
    nokia.send(nokia.start(201));
    auto first_half = nokia.changes({{"t1", vcal_task("Buy milk")}, {"e1", vcal_event("Dentist")}});
    first_half.body.final = false;
    nokia.send(first_half);
    ASSERT_EQ(contents(store, matching::item_kind::task).size(), 1u);

    auto resumed = nokia.send(nokia.start(225)).reply;
    EXPECT_EQ(testing::statuses_of(resumed, "Alert").at(0)->data, "200");
    auto package4 = nokia.send(nokia.changes({{"t1", vcal_task("Buy milk")}, {"t2", vcal_task("Call mum")}})).reply;
    ASSERT_TRUE(package4.body.final);
    EXPECT_TRUE(nokia.send(nokia.apply_server_changes(package4)).session_done);
    EXPECT_EQ(contents(store, matching::item_kind::task).size(), 2u);
    EXPECT_EQ(contents(store, matching::item_kind::event).size(), 1u);
}

// A device with a task datastore of its own and a calendar that declares only VEVENT keeps today's behaviour.
TEST(engine_calendar_tasks, a_calendar_that_declares_only_events_beside_a_task_datastore_gets_no_tasks) {
    testing::fake_sync_store store;
    dev_inf info = combined_devinf();
    info.datastores = {vcalendar_store("./Calendar", {"VEVENT"}), vcalendar_store("./Tasks", {"VTODO"})};
    auto cal = calendar_phone(store, "IMEI:separate");
    cal.devinf = info;
    cal.sync(200, {});
    auto tasks_store = calendar_phone(store, "IMEI:separate");
    tasks_store.datastore = "Tasks";
    tasks_store.client_store = "./Tasks";
    tasks_store.session_offset = 100;
    tasks_store.sync(200, {});

    auto other = task_client(store);
    other.sync(200, {{"x1", ical_task("task-3", "Renew passport")}});
    cal.sync(200, {});
    EXPECT_EQ(cal.sent("Add"), 0u);
    tasks_store.sync(200, {});
    EXPECT_EQ(tasks_store.sent("Add"), 1u);
}

// A device that sent a VTODO to its calendar and also syncs a task datastore gets each task once: new tasks through
// its calendar, the ones it keeps in its task datastore there.
TEST(engine_calendar_tasks, a_device_with_a_combined_calendar_and_a_task_datastore_gets_each_task_once) {
    testing::fake_sync_store store;
    auto cal = calendar_phone(store, "IMEI:both");
    cal.sync(200, {{"t0", vcal_task("Calendar task")}});
    auto tasks_store = calendar_phone(store, "IMEI:both");
    tasks_store.datastore = "Tasks";
    tasks_store.client_store = "./Tasks";
    tasks_store.session_offset = 100;
    tasks_store.sync(200, {{"own", vcal_task("Own task")}});
    EXPECT_EQ(items_holding(tasks_store, "Calendar task"), 0u) << "the calendar's task is on the device already";

    auto other = task_client(store);
    other.sync(200, {{"x1", ical_task("task-4", "Book flights")}});
    cal.sync(200, {});
    tasks_store.sync(200, {});
    EXPECT_EQ(items_holding(cal, "Book flights") + items_holding(tasks_store, "Book flights"), 1u);
    EXPECT_EQ(items_holding(cal, "Book flights"), 1u) << "new tasks reach the device through its calendar";
    EXPECT_EQ(items_holding(cal, "Own task"), 0u) << "the task it keeps in its task datastore does not come again";

    // An edit elsewhere of the task it keeps in its task datastore arrives there.
    std::string own_luid;
    for (const auto& [luid, data] : other.items) {
        if (has(data, "Own task")) own_luid = luid;
    }
    ASSERT_FALSE(own_luid.empty());
    other.sync(200, {{own_luid, ical_task("own-uid", "Own task, edited"), true}});
    cal.sync(200, {});
    tasks_store.sync(200, {});
    EXPECT_EQ(cal.sent("Add") + cal.sent("Replace"), 0u);
    EXPECT_EQ(tasks_store.sent("Replace"), 1u);
}

}  // namespace
}  // namespace syncml::session
