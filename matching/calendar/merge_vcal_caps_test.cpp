// A vCalendar 1.0 phone's copy merged into the stored iCalendar copy: its CTCap uses 1.0 names (DCREATED; one
// property per alarm action), so what it can store and what it says must be read in those names. The device
// texts are what SyncEvolution 2.0 sends back for a vCalendar 1.0 store.
#include <gtest/gtest.h>

#include "matching/convert/item_format.hpp"
#include "matching/merge/merge_items.hpp"

namespace syncml::matching {
namespace {

// SyncEvolution's vCalendar 1.0 profile: AALARM and DALARM, no PALARM or MALARM.
device_capabilities vcal_phone() {
    device_capabilities caps;
    for (const char* p : {"TZ", "DAYLIGHT", "LAST-MODIFIED", "DCREATED", "UID", "SEQUENCE", "CLASS", "SUMMARY",
                          "DESCRIPTION", "LOCATION", "DTSTART", "DTEND", "ATTENDEE", "AALARM", "DALARM"}) {
        caps.add_property(p);
    }
    return caps;
}

// An event of the iCalendar phone with a display and an e-mail reminder.
const std::string k_stored =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:e-1\r\n"
    "DTSTAMP:20240101T000000Z\r\nSUMMARY:Yoga\r\nDTSTART:20240701T100000Z\r\nDTEND:20240701T110000Z\r\n"
    "BEGIN:VALARM\r\nACTION:EMAIL\r\nTRIGGER:-PT1H\r\nSUMMARY:Yoga soon\r\nDESCRIPTION:Yoga in an hour\r\n"
    "ATTENDEE:mailto:ann@example.com\r\nEND:VALARM\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\n"
    "DESCRIPTION:Yoga\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

std::string phone_copy(const std::string& lines) {
    return "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nTZ:+00:00\r\nDAYLIGHT:FALSE\r\nBEGIN:VEVENT\r\nUID:e-1\r\n"
           "SUMMARY:Yoga\r\nDTSTART:20240701T100000Z\r\nDTEND:20240701T110000Z\r\n" +
           lines + "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

// The phone stored the display reminder (as AALARM and DALARM) and could not store the e-mail one.
const std::string k_display_only = "AALARM:20240701T094500Z;;0;Yoga\r\nDALARM:20240701T094500Z;;0;Yoga\r\n";

std::vector<std::string> actions(const item& value) {
    std::vector<std::string> out;
    for (const auto& a : std::get<calendar>(value).components.at(0).alarms)
        out.push_back(a.action + a.trigger_duration);
    return out;
}

TEST(merge_vcal_caps, an_alarm_the_vcal_phone_cannot_store_survives_its_copy_in_a_slow_sync) {
    auto stored = parse_item(k_stored, item_dialect::ical20);
    auto incoming = parse_item(phone_copy(k_display_only), item_dialect::vcal10);
    ASSERT_TRUE(stored && incoming);
    auto r = merge(*stored, *incoming, vcal_phone());
    EXPECT_FALSE(r.stored_changed) << *serialize_item(r.merged, item_dialect::ical20);
    EXPECT_EQ(actions(r.merged), (std::vector<std::string>{"EMAIL-PT1H", "DISPLAY-PT15M"}));
}

TEST(merge_vcal_caps, an_alarm_the_vcal_phone_cannot_store_survives_its_changed_reminder) {
    auto stored = parse_item(k_stored, item_dialect::ical20);
    auto incoming = parse_item(phone_copy("DALARM:20240701T093000Z;;0;Yoga\r\n"), item_dialect::vcal10);
    ASSERT_TRUE(stored && incoming);
    for (auto mode : {merge_mode::slow_sync, merge_mode::update}) {
        auto r = merge(*stored, *incoming, vcal_phone(), conflict_policy::merge, mode);
        EXPECT_TRUE(r.stored_changed);
        EXPECT_EQ(actions(r.merged), (std::vector<std::string>{"DISPLAY-PT30M", "EMAIL-PT1H"}))
            << *serialize_item(r.merged, item_dialect::ical20);
    }
}

TEST(merge_vcal_caps, a_phone_that_lists_malarm_can_remove_the_email_alarm) {
    auto stored = parse_item(k_stored, item_dialect::ical20);
    auto incoming = parse_item(phone_copy(k_display_only), item_dialect::vcal10);
    ASSERT_TRUE(stored && incoming);
    auto caps = vcal_phone();
    caps.add_property("MALARM");
    auto r = merge(*stored, *incoming, caps, conflict_policy::merge, merge_mode::update);
    EXPECT_EQ(actions(r.merged), (std::vector<std::string>{"DISPLAY-PT15M"}));
}

TEST(merge_vcal_caps, the_phones_dcreated_is_a_property_it_can_store) {
    auto stored = parse_item(k_stored, item_dialect::ical20);
    auto incoming = parse_item(phone_copy(k_display_only + "DCREATED:20231201T080000Z\r\n"), item_dialect::vcal10);
    ASSERT_TRUE(stored && incoming);
    auto r = merge(*stored, *incoming, vcal_phone());
    const auto& created = std::get<calendar>(r.merged).components.at(0).created;
    ASSERT_TRUE(created.has_value()) << *serialize_item(r.merged, item_dialect::ical20);
    EXPECT_EQ(created->year, 2023);
    // Left out of a Replace by a phone that lists DCREATED, it was removed there.
    auto cleared = merge(r.merged, *stored, vcal_phone(), conflict_policy::merge, merge_mode::update);
    EXPECT_FALSE(std::get<calendar>(cleared.merged).components.at(0).created.has_value());
}

TEST(merge_vcal_caps, a_vnote_dcreated_is_a_property_it_can_store) {
    auto stored = parse_item("BEGIN:VNOTE\r\nVERSION:1.1\r\nBODY:Milk\r\nEND:VNOTE\r\n", item_dialect::vnote11);
    auto incoming = parse_item("BEGIN:VNOTE\r\nVERSION:1.1\r\nBODY:Milk\r\nDCREATED:20231201T080000Z\r\nEND:VNOTE\r\n",
                               item_dialect::vnote11);
    ASSERT_TRUE(stored && incoming);
    device_capabilities caps;
    for (const char* p : {"BODY", "DCREATED", "LAST-MODIFIED"}) caps.add_property(p);
    auto r = merge(*stored, *incoming, caps);
    EXPECT_TRUE(std::get<memo>(r.merged).created.has_value());
}

}  // namespace
}  // namespace syncml::matching
