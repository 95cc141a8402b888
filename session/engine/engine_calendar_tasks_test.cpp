// A device calendar that holds tasks too (Nokia, Sony Ericsson): its VTODOs live in the user's task datastore, its
// VEVENTs in the calendar, and both come back to it through its calendar datastore (issue 36).
#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "session/codec/codec.hpp"
#include "session/engine/calendar_tasks.hpp"
#include "session/engine/engine_run.hpp"
#include "session/engine/test_phone.hpp"

namespace syncml::session {
namespace {

using testing::phone;

std::string vcal_task(const std::string& summary, const std::string& extra = "") {
    return "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VTODO\r\nSUMMARY:" + summary +
           "\r\nDUE:20240601T100000Z\r\nPRIORITY:1\r\n" + extra + "END:VTODO\r\nEND:VCALENDAR\r\n";
}

std::string vcal_event(const std::string& summary) {
    return "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nSUMMARY:" + summary +
           "\r\nDTSTART:20240601T090000Z\r\nDTEND:20240601T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
}

std::string ical_task(const std::string& uid, const std::string& summary) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:" + uid +
           "\r\nSUMMARY:" + summary + "\r\nDUE:20240701T100000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n";
}

std::string ical_event(const std::string& uid, const std::string& summary) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:" + uid +
           "\r\nSUMMARY:" + summary +
           "\r\nDTSTART:20240701T090000Z\r\nDTEND:20240701T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

ct_cap vcalendar_cap(std::initializer_list<const char*> components) {
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

datastore vcalendar_store(const std::string& name, std::initializer_list<const char*> components) {
    datastore ds;
    ds.source_ref = name;
    ds.rx_pref = content_type_ref{"text/x-vcalendar", "1.0"};
    ds.tx_pref = content_type_ref{"text/x-vcalendar", "1.0"};
    ds.ct_caps.push_back(vcalendar_cap(components));
    return ds;
}

// A 1.2 DevInf whose "./Calendar" lists VEVENT and VTODO, as Nokia's S60 phones declare theirs.
dev_inf combined_devinf() {
    dev_inf info;
    info.ver_dtd = "1.2";
    info.dev_id = "IMEI:combined";
    info.dev_typ = "phone";
    info.datastores.push_back(vcalendar_store("./Calendar", {"VEVENT", "VTODO"}));
    return info;
}

// The phone's calendar datastore, vCalendar 1.0, as ./Calendar against the server's "Calendar".
phone calendar_phone(testing::fake_sync_store& store, const std::string& device) {
    phone p(store, device, "text/x-vcalendar");
    p.datastore = "Calendar";
    p.client_store = "./Calendar";
    return p;
}

// Another device of the user that syncs tasks in iCalendar 2.0.
phone task_client(testing::fake_sync_store& store) {
    phone p(store, "task-client", "text/calendar");
    p.datastore = "tasks";
    return p;
}

std::vector<std::string> contents(testing::fake_sync_store& store, matching::item_kind kind) {
    std::vector<std::string> out;
    auto found = store.datastores.find({7, kind});
    if (found == store.datastores.end()) return out;
    for (const auto* item : store.live_items(found->second)) out.push_back(item->content);
    return out;
}

std::vector<const sync*> syncs_of(const message& m) {
    std::vector<const sync*> out;
    for (const auto& c : m.body.commands) {
        if (const auto* s = std::get_if<sync>(&c.value)) out.push_back(s);
    }
    return out;
}

std::size_t items_holding(const phone& p, std::string_view part) {
    return static_cast<std::size_t>(
        std::count_if(p.items.begin(), p.items.end(), [&](const auto& entry) { return has(entry.second, part); }));
}

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

// A phone without a usable DevInf gets the format it sent in an earlier session, not vCard 3.0, when it sends nothing.
TEST(engine_device_formats, a_phone_without_devinf_gets_the_format_it_sent_before) {
    testing::fake_sync_store store;
    phone old_phone(store, "IMEI:vcard21", "text/x-vcard");
    old_phone.sync(200,
                   {{"1", "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Rossi;Anna\r\nTEL;CELL:+39 333 1111111\r\nEND:VCARD\r\n"}});
    phone other(store, "other");
    other.sync(200, {{"a", testing::vcard("Bruno Verdi")}});
    old_phone.sync(200, {});
    ASSERT_EQ(old_phone.sent("Add"), 1u);
    for (const auto& [luid, meta] : old_phone.received_meta) EXPECT_EQ(meta.type.value_or(""), "text/x-vcard");
    EXPECT_EQ(items_holding(old_phone, "VERSION:2.1"), 2u);
    auto ds = store.device_store_views(1, store.device(1, 7, "IMEI:vcard21").id);
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].content_type, "text/x-vcard");
}

// What its DevInf said is remembered too: a later DevInf that names no format for the store leaves it as it was.
TEST(engine_device_formats, the_format_a_devinf_named_is_remembered_when_a_later_devinf_names_none) {
    testing::fake_sync_store store;
    phone old_phone(store, "IMEI:devinf21", "text/x-vcard");
    old_phone.devinf = testing::devinf_storing("text/x-vcard", "2.1", {"N", "TEL"}, "IMEI:devinf21");
    old_phone.sync(200, {});
    // The phone's DevInf changes to one that describes no datastore.
    auto device = store.device(1, 7, "IMEI:devinf21");
    dev_inf bare;
    bare.ver_dtd = "1.2";
    bare.dev_id = "IMEI:devinf21";
    store.set_device_devinf(1, device.id, encode_devinf_xml(bare));
    phone other(store, "other");
    other.sync(200, {{"a", testing::vcard("Bruno Verdi")}});
    old_phone.sync(200, {});
    ASSERT_EQ(old_phone.sent("Add"), 1u);
    for (const auto& [luid, meta] : old_phone.received_meta) EXPECT_EQ(meta.type.value_or(""), "text/x-vcard");
}

// Which corpus DevInfs declare a calendar that holds tasks.
std::string corpus_file(const std::string& path) {
    std::ifstream in(std::filesystem::path(SYNCML_CORPUS_DIR) / path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

dev_inf corpus_devinf(const std::string& path) {
    auto text = corpus_file(path);
    auto start = text.find("<DevInf");
    auto end = text.find("</DevInf>");
    EXPECT_NE(start, std::string::npos) << path;
    EXPECT_NE(end, std::string::npos) << path;
    auto xml = text.substr(start, end + 9 - start);
    if (xml.find("xmlns") == std::string::npos) xml.insert(7, " xmlns=\"syncml:devinf\"");
    auto decoded = decode_devinf(xml);
    EXPECT_TRUE(decoded) << path;
    return decoded ? decoded.value() : dev_inf{};
}

TEST(engine_calendar_tasks, corpus_devinfs_that_declare_tasks_in_their_calendar) {
    // Sony Ericsson K800i: Calendar (VEVENT) and Tasks (VTODO), 1.2 CTCaps per datastore.
    auto k800i = corpus_devinf("txsyncml/txsyncml/tests/fixtures/sony-ericsson-k800i-package1.xml");
    EXPECT_FALSE(detail::devinf_stores_tasks_in(k800i, "Calendar"));
    EXPECT_TRUE(detail::devinf_stores_tasks_in(k800i, "Tasks"));
    // Ericsson (1.0, flat CTCap): EriCalDB is the one datastore that takes text/x-vcalendar, VEVENT and VTODO.
    auto ericsson = corpus_devinf("devaspot-syncml/apps/simple_sync/test/example.xml1");
    EXPECT_TRUE(detail::devinf_stores_tasks_in(ericsson, "EriCalDB"));
    EXPECT_FALSE(detail::devinf_stores_tasks_in(ericsson, "EriPBDB"));
    // Buteo's test phones (1.1 flat CTCap and 1.2 nested): one ./Calendar for VEVENT and VTODO, no task datastore.
    EXPECT_TRUE(
        detail::devinf_stores_tasks_in(corpus_devinf("buteo-syncml/tests_meego/data/devinf01.txt"), "Calendar"));
    EXPECT_TRUE(
        detail::devinf_stores_tasks_in(corpus_devinf("buteo-syncml/tests_meego/data/devinf02.txt"), "Calendar"));
    EXPECT_FALSE(
        detail::devinf_stores_tasks_in(corpus_devinf("buteo-syncml/tests_meego/data/devinf02.txt"), "Contacts"));
    // A Synthesis-engine client lists VTODO for its events datastore too, beside a task datastore of its own.
    dev_inf synthesis = combined_devinf();
    synthesis.datastores = {vcalendar_store("./events", {"VEVENT", "VTODO"}),
                            vcalendar_store("./tasks", {"VEVENT", "VTODO"})};
    EXPECT_FALSE(detail::devinf_stores_tasks_in(synthesis, "events"));
    EXPECT_TRUE(detail::devinf_stores_tasks_in(combined_devinf(), "Calendar"));
    // Funambol's Windows client: appointment holds events, task tasks.
    auto funambol = corpus_devinf("devaspot-syncml/apps/simple_sync/test/funambol_sample.xml");
    EXPECT_FALSE(detail::devinf_stores_tasks_in(funambol, "appointment"));
}

TEST(engine_calendar_tasks, the_first_component_names_the_kind) {
    EXPECT_EQ(detail::calendar_component(vcal_task("x")), matching::item_kind::task);
    EXPECT_EQ(detail::calendar_component(ical_event("u", "x")), matching::item_kind::event);
    EXPECT_EQ(
        detail::calendar_component("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:X\r\nEND:VTIMEZONE\r\n"
                                   "BEGIN:VTODO\r\nSUMMARY:y\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"),
        matching::item_kind::task);
    EXPECT_EQ(detail::calendar_component("BEGIN:VCARD\r\nEND:VCARD\r\n"), std::nullopt);
}

// A combined calendar that keeps short GUIDs (issue 36): events and tasks travel in its one Sync, so their short ids
// come from one numbering (the calendar's), and its Map of them maps each in its own datastore.
TEST(engine_calendar_tasks, a_combined_calendar_that_keeps_short_guids_gets_distinct_ids_for_events_and_tasks) {
    testing::fake_sync_store store;
    store.uuid_guids = true;
    auto other = task_client(store);
    other.sync(200, {{"x1", ical_task("task-1", "File taxes")}});
    phone caldav_like(store, "calendar-client", "text/calendar");
    caldav_like.datastore = "calendar";
    caldav_like.sync(200, {{"y1", ical_event("event-1", "Concert")}});

    auto nokia = calendar_phone(store, "IMEI:combined");
    auto info = combined_devinf();
    info.datastores[0].max_guid_size = 8;
    nokia.devinf = info;
    nokia.sync(200, {});
    auto syncs = syncs_of(nokia.package4);
    ASSERT_EQ(syncs.size(), 1u);
    std::set<std::string> ids;
    for (const auto& inner : syncs[0]->commands) {
        const auto* a = std::get_if<add>(&inner.value);
        ASSERT_NE(a, nullptr);
        for (const auto& it : a->items) {
            ASSERT_TRUE(it.source);
            EXPECT_LE(it.source->loc_uri.size(), 8u) << it.source->loc_uri;
            ids.insert(it.source->loc_uri);
        }
    }
    EXPECT_EQ(ids.size(), 2u) << "an event and a task never share a short id in the one datastore";

    // Both mapped: nothing comes again, and an edit of each arrives as a Replace with the id the phone knows.
    nokia.sync(200, {});
    EXPECT_EQ(nokia.sent("Add") + nokia.sent("Replace"), 0u);
    other.sync(200, {{"x1", ical_task("task-1", "File taxes today"), true}});
    caldav_like.sync(200, {{"y1", ical_event("event-1", "Concert moved"), true}});
    nokia.sync(200, {});
    EXPECT_EQ(nokia.sent("Replace"), 2u);
    EXPECT_EQ(nokia.sent("Add"), 0u);
    EXPECT_EQ(items_holding(nokia, "SUMMARY:File taxes today"), 1u);
    EXPECT_EQ(items_holding(nokia, "SUMMARY:Concert moved"), 1u);
}

// An iCalendar 2.0 calendar synced alone (SyncEvolution with only its calendar configured): the Synthesis engine lists
// VTODO in its CTCap, but its events store cannot take tasks; it holds none until it sends one.
TEST(engine_calendar_tasks, an_icalendar_calendar_synced_alone_is_not_taken_for_one_that_holds_tasks) {
    dev_inf info;
    info.ver_dtd = "1.2";
    info.dev_id = "syncevolution-like";
    auto ds = vcalendar_store("calendar", {"VEVENT", "VTODO"});
    ds.rx_pref = content_type_ref{"text/calendar", "2.0"};
    ds.tx_pref = content_type_ref{"text/calendar", "2.0"};
    info.datastores.push_back(ds);
    EXPECT_FALSE(detail::devinf_stores_tasks_in(info, "calendar"));
    info.datastores[0].rx_pref = content_type_ref{"text/x-vcalendar", "1.0"};
    EXPECT_TRUE(detail::devinf_stores_tasks_in(info, "calendar")) << "a vCalendar 1.0 calendar that lists VTODO";
}

}  // namespace
}  // namespace syncml::session
