// Calendar and memo merge: events with recurrence and exceptions, times written differently, devices that
// cannot store descriptions or exceptions, truncated memos.
#include <gtest/gtest.h>

#include "matching/convert/item_format.hpp"
#include "matching/merge/merge_items.hpp"

namespace syncml::matching {
namespace {

const char* k_berlin =
    "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:DAYLIGHT\r\nDTSTART:19810329T020000\r\n"
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n"
    "BEGIN:STANDARD\r\nDTSTART:19961027T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n"
    "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n";

calendar ical(std::string_view body) {
    auto r = parse_item(std::string("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n") + k_berlin +
                            std::string(body) + "END:VCALENDAR\r\n",
                        item_dialect::ical20);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    return r ? std::get<calendar>(*r) : calendar{};
}

// A weekly meeting with one moved occurrence, as the server holds it.
calendar server_series() {
    return ical(
        "BEGIN:VEVENT\r\nUID:series-1\r\nDTSTART;TZID=Europe/Berlin:20240701T100000\r\n"
        "DTEND;TZID=Europe/Berlin:20240701T110000\r\nRRULE:FREQ=WEEKLY;COUNT=10\r\nEXDATE:20240715T080000Z\r\n"
        "SUMMARY:Jour fixe\r\nDESCRIPTION:Agenda in the wiki\r\nLOCATION:Room 4\r\n"
        "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Reminder\r\nEND:VALARM\r\nEND:VEVENT\r\n"
        "BEGIN:VEVENT\r\nUID:series-1\r\nRECURRENCE-ID;TZID=Europe/Berlin:20240708T100000\r\n"
        "DTSTART;TZID=Europe/Berlin:20240708T140000\r\nDTEND;TZID=Europe/Berlin:20240708T150000\r\n"
        "SUMMARY:Jour fixe (moved)\r\nEND:VEVENT\r\n");
}

// What a vCalendar 1.0 phone sends back: UTC times, no exceptions, no description, no location.
calendar phone_series() {
    return ical(
        "BEGIN:VEVENT\r\nDTSTART:20240701T080000Z\r\nDTEND:20240701T090000Z\r\nRRULE:FREQ=WEEKLY;COUNT=10\r\n"
        "EXDATE:20240722T080000Z\r\nSUMMARY:Jour fixe\r\n"
        "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Reminder\r\nEND:VALARM\r\nEND:VEVENT\r\n");
}

device_capabilities vcal_phone() {
    device_capabilities caps;
    for (const char* p : {"DTSTART", "DTEND", "RRULE", "EXDATE", "SUMMARY", "AALARM", "UID"}) caps.add_property(p);
    return caps;
}

const calendar& merged_calendar(const merge_result& r) { return std::get<calendar>(r.merged); }

TEST(merge_calendar, keeps_exceptions_description_and_location_a_vcal_phone_cannot_store) {
    auto r = merge(item{server_series()}, item{phone_series()}, vcal_phone());
    const calendar& m = merged_calendar(r);
    ASSERT_EQ(m.components.size(), 2u);
    const auto& master = m.components[0];
    EXPECT_EQ(master.uid, "series-1");
    EXPECT_EQ(master.description, "Agenda in the wiki");
    EXPECT_EQ(master.location, "Room 4");
    EXPECT_EQ(master.start, server_series().components[0].start);  // same instant: the TZID form stays
    EXPECT_EQ(master.alarms.size(), 1u);
    ASSERT_EQ(master.exdates.size(), 2u);  // an occurrence deleted on either side stays deleted
    EXPECT_EQ(m.components[1], server_series().components[1]);
    EXPECT_TRUE(r.stored_changed);
    EXPECT_TRUE(r.device_needs_update);  // it can store the server's EXDATE
}

TEST(merge_calendar, sees_the_same_instant_in_utc_and_in_a_tzid_as_no_change) {
    calendar server = server_series();
    server.components.resize(1);
    calendar phone = phone_series();
    phone.components[0].exdates = server.components[0].exdates;
    phone.components[0].uid = "series-1";
    auto r = merge(item{server}, item{phone}, vcal_phone());
    EXPECT_EQ(merged_calendar(r), server);
    EXPECT_FALSE(r.stored_changed);
    EXPECT_FALSE(r.device_needs_update);
}

// A phone that drops our X- hints sends back the 1.0 rule it was given for a yearly rule in another month (YD
// with fixed days of the year): the same occurrences, so no change either way.
TEST(merge_calendar, sees_the_vcal_form_of_a_yearly_rule_without_its_hint_as_the_same_rule) {
    auto parsed = parse_item(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:yearly-1\r\n"
        "DTSTART:20240510T080000Z\r\nDTEND:20240510T090000Z\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=20\r\n"
        "SUMMARY:Spring\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        item_dialect::ical20);
    ASSERT_TRUE(parsed.has_value());
    const calendar& server = std::get<calendar>(*parsed);
    auto vcal = serialize_item(*parsed, item_dialect::vcal10);
    ASSERT_TRUE(vcal.has_value());
    std::string phone_text;  // without the X- hint lines and their soft line breaks
    bool in_hint = false;
    for (std::size_t at = 0; at < vcal->size();) {
        auto end = vcal->find("\r\n", at);
        auto line = vcal->substr(at, end + 2 - at);
        bool continued = in_hint || line.rfind("X-SYNCML-", 0) == 0;
        if (!continued) phone_text += line;
        in_hint = continued && line.size() > 2 && line[line.size() - 3] == '=';
        at = end + 2;
    }
    ASSERT_NE(phone_text.find("RRULE:YD"), std::string::npos) << phone_text;
    ASSERT_EQ(phone_text.find("X-SYNCML"), std::string::npos) << phone_text;
    auto phone = parse_item(phone_text, item_dialect::vcal10);
    ASSERT_TRUE(phone.has_value()) << phone_text;
    ASSERT_NE(std::get<calendar>(*phone).components.at(0).rrules.at(0), server.components.at(0).rrules.at(0));
    auto r = merge(*parsed, *phone, vcal_phone());
    EXPECT_EQ(merged_calendar(r).components.at(0).rrules, server.components.at(0).rrules);
    EXPECT_FALSE(r.stored_changed) << *serialize_item(r.merged, item_dialect::ical20) << "\n---\n" << phone_text;
}

TEST(merge_calendar, adds_an_exception_the_device_created_and_keeps_the_servers_tzid) {
    calendar phone = server_series();
    phone.components.resize(1);
    calendar_component moved = server_series().components[1];
    moved.recurrence_id->day = 22;
    moved.start->day = 22;
    moved.end->day = 22;
    phone.components.push_back(moved);
    auto r = merge(item{server_series()}, item{phone}, device_capabilities{});
    ASSERT_EQ(merged_calendar(r).components.size(), 3u);
    EXPECT_EQ(merged_calendar(r).components[2], moved);
}

TEST(merge_calendar, keeps_a_summary_the_device_truncated) {
    device_capabilities caps = vcal_phone();
    caps.properties["SUMMARY"].max_size = 4;
    calendar phone = server_series();
    phone.components[0].summary = "Jour";
    auto r = merge(item{server_series()}, item{phone}, caps);
    EXPECT_EQ(merged_calendar(r).components[0].summary, "Jour fixe");
    EXPECT_FALSE(r.stored_changed);
}

TEST(merge_calendar, server_wins_drops_device_changes_and_updates_the_device) {
    calendar phone = server_series();
    phone.components[0].summary = "Weekly";
    auto r = merge(item{server_series()}, item{phone}, vcal_phone(), conflict_policy::server_wins);
    EXPECT_EQ(merged_calendar(r), server_series());
    EXPECT_TRUE(r.device_needs_update);
}

TEST(merge_calendar, newest_wins_reads_last_modified) {
    calendar server = server_series();
    server.components[0].last_modified = date_time{2024, 1, 1, 0, 0, 0, false, true, ""};
    calendar phone = server_series();
    phone.components[0].summary = "Weekly";
    phone.components[0].last_modified = date_time{2030, 1, 1, 0, 0, 0, false, true, ""};
    auto r = merge(item{server}, item{phone}, device_capabilities{}, conflict_policy::newest_wins);
    EXPECT_EQ(merged_calendar(r).components[0].summary, "Weekly");
    server.components[0].last_modified = date_time{2031, 1, 1, 0, 0, 0, false, true, ""};
    auto older = merge(item{server}, item{phone}, device_capabilities{}, conflict_policy::newest_wins);
    EXPECT_EQ(merged_calendar(older).components[0].summary, "Jour fixe");
}

TEST(merge_calendar, tasks_keep_priority_and_take_completion) {
    calendar server =
        ical("BEGIN:VTODO\r\nUID:t1\r\nSUMMARY:Taxes\r\nPRIORITY:1\r\nDUE;VALUE=DATE:20240531\r\nEND:VTODO\r\n");
    calendar phone = ical(
        "BEGIN:VTODO\r\nSUMMARY:Taxes\r\nDUE;VALUE=DATE:20240531\r\nSTATUS:COMPLETED\r\n"
        "COMPLETED:20240520T100000Z\r\nEND:VTODO\r\n");
    auto r = merge(item{server}, item{phone}, device_capabilities{});
    const auto& t = merged_calendar(r).components[0];
    EXPECT_EQ(t.priority, 1);
    EXPECT_EQ(t.status, "COMPLETED");
    EXPECT_TRUE(t.completed.has_value());
    EXPECT_EQ(t.uid, "t1");
}

TEST(merge_memo, keeps_a_body_truncated_to_max_size_and_unions_categories) {
    memo server{"Ideas", "Ideas\nA long list of ideas that a small phone cannot keep", {"Work"}, {}, {}, {}, {}};
    memo phone{"Ideas", "Ideas\nA long list", {"Private"}, {}, {}, {}, {}};
    device_capabilities caps;
    caps.add_property("SUMMARY");
    caps.add_property("BODY").max_size = 17;
    caps.add_property("CATEGORIES");
    auto r = merge(item{server}, item{phone}, caps);
    const memo& m = std::get<memo>(r.merged);
    EXPECT_EQ(m.body, server.body);
    EXPECT_EQ(m.categories, (std::vector<std::string>{"Work", "Private"}));
    EXPECT_TRUE(r.stored_changed);
}

}  // namespace
}  // namespace syncml::matching
