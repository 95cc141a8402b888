// The combined calendar decided from what a device declares or did before (issue 36): the format a phone without a
// DevInf keeps getting, the corpus DevInfs that declare tasks in their calendar, and short ids shared by both sides.
#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "session/codec/codec.hpp"
#include "session/engine/calendar_tasks.hpp"
#include "session/engine/calendar_tasks_test_support.hpp"
#include "session/engine/engine_run.hpp"
#include "session/engine/test_phone.hpp"

namespace syncml::session {
namespace {

using namespace calendar_tasks_testing;

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
