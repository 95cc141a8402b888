#include <gtest/gtest.h>

#include "matching/calendar/calendar_values.hpp"
#include "matching/sif/sif_test_support.hpp"

namespace syncml::matching {
namespace {

using testing::sif_or_fail;
using testing::written;

// After Funambol's SIF-E documentation: a weekly meeting with a reminder and a skipped week.
constexpr std::string_view k_meeting = R"(<?xml version="1.0" encoding="UTF-8"?>
<appointment>
<SIFVersion>1.1</SIFVersion>
<Subject>Team meeting &lt;weekly&gt;</Subject>
<Body>Agenda:
1. status</Body>
<Location>Room 4 — Geb&#228;ude B</Location>
<Categories>Business;Meetings</Categories>
<AllDayEvent>0</AllDayEvent>
<Start>20081103T150000Z</Start>
<End>20081103T160000Z</End>
<BusyStatus>3</BusyStatus>
<Importance>2</Importance>
<Sensitivity>2</Sensitivity>
<MeetingStatus>0</MeetingStatus>
<ReminderSet>1</ReminderSet>
<ReminderMinutesBeforeStart>10</ReminderMinutesBeforeStart>
<ReminderSoundFile>C:\reminder.wav</ReminderSoundFile>
<IsRecurring>1</IsRecurring>
<RecurrenceType>1</RecurrenceType>
<Interval>1</Interval>
<DayOfWeekMask>2</DayOfWeekMask>
<Instance>0</Instance>
<DayOfMonth>0</DayOfMonth>
<MonthOfYear>0</MonthOfYear>
<NoEndDate>0</NoEndDate>
<Occurrences>4</Occurrences>
<PatternStartDate>20081103T090000</PatternStartDate>
<PatternEndDate>20081124T090000</PatternEndDate>
<Exceptions><ExcludeDate>20081110T150000Z</ExcludeDate><IncludeDate/></Exceptions>
<Timezone><BasicOffset>-0600</BasicOffset><DayLight><DSTOffset>-0500</DSTOffset><DSTStart>20080406T020000</DSTStart>
<DSTEnd>20081026T020000</DSTEnd><StandardName/><DSTName/></DayLight></Timezone>
<Mileage>12 km</Mileage>
</appointment>)";

const calendar_component& event_of(const item& value) { return std::get<calendar>(value).components.at(0); }

TEST(sif_event, maps_subject_location_times_and_the_outlook_flags) {
    auto parsed = sif_or_fail(k_meeting);
    const auto& e = event_of(parsed);
    EXPECT_EQ(e.kind, item_kind::event);
    EXPECT_EQ(e.summary, "Team meeting <weekly>");
    EXPECT_EQ(e.description, "Agenda:\n1. status");
    EXPECT_EQ(e.location, "Room 4 \xE2\x80\x94 Geb\xC3\xA4ude B");
    EXPECT_EQ(e.categories, (std::vector<std::string>{"Business", "Meetings"}));
    ASSERT_TRUE(e.start && e.end);
    EXPECT_EQ(format_date_time(*e.start), "20081103T150000Z");
    EXPECT_EQ(format_date_time(*e.end), "20081103T160000Z");
    EXPECT_EQ(e.class_, "PRIVATE");
    EXPECT_EQ(e.priority, 1);
    ASSERT_EQ(e.alarms.size(), 1u);
    EXPECT_EQ(e.alarms[0].trigger_duration, "-PT10M");
    ASSERT_EQ(e.rrules.size(), 1u);
    EXPECT_EQ(format_rrule(e.rrules[0]), "FREQ=WEEKLY;COUNT=4;BYDAY=MO");
    ASSERT_EQ(e.exdates.size(), 1u);
    EXPECT_EQ(format_date_time(e.exdates[0]), "20081110T150000Z");
    auto ical = written(parsed, item_dialect::ical20);
    EXPECT_NE(ical.find("X-MICROSOFT-CDO-BUSYSTATUS:OOF\r\n"), std::string::npos) << ical;
    EXPECT_NE(ical.find("X-FUNAMBOL-MILEAGE:12 km\r\n"), std::string::npos) << ical;
}

TEST(sif_event, reads_an_all_day_event_whose_end_is_its_last_day) {
    auto one_day = sif_or_fail(testing::sif_document("appointment", {{"Subject", "Holiday"},
                                                                     {"AllDayEvent", "1"},
                                                                     {"Start", "2008-12-25"},
                                                                     {"End", "2008-12-25"},
                                                                     {"BusyStatus", "0"}}));
    const auto& e = event_of(one_day);
    EXPECT_EQ(format_date_time(*e.start), "20081225");
    EXPECT_EQ(format_date_time(*e.end), "20081226") << "iCalendar's DTEND is the day after";
    EXPECT_EQ(e.transparency, "TRANSPARENT");
    auto sif = written(one_day, item_dialect::sife);
    EXPECT_NE(sif.find("<Start>2008-12-25</Start>\n<End>2008-12-25</End>"), std::string::npos) << sif;
    EXPECT_NE(sif.find("<AllDayEvent>1</AllDayEvent>"), std::string::npos) << sif;

    // A device that states all-day events in times: midnight to midnight, or to 23:59 of the last day.
    for (const char* end : {"20081227T000000", "20081226T235900"}) {
        auto two_days = sif_or_fail(
            testing::sif_document("appointment", {{"AllDayEvent", "1"}, {"Start", "20081225T000000"}, {"End", end}}));
        EXPECT_EQ(format_date_time(*event_of(two_days).end), "20081227") << end;
    }
}

TEST(sif_event, writes_zoned_times_in_utc_and_floating_times_as_they_are) {
    auto ical = parse_item(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Fixed\r\nBEGIN:STANDARD\r\nDTSTART:"
        "19700101T000000\r\n"
        "TZOFFSETFROM:+0530\r\nTZOFFSETTO:+0530\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nSUMMARY:z\r\n"
        "DTSTART;TZID=Fixed:20240301T100000\r\nDURATION:PT90M\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\n"
        "DESCRIPTION:x\r\nTRIGGER;VALUE=DATE-TIME:20240301T041500Z\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        item_dialect::ical20);
    ASSERT_TRUE(ical) << ical.error().to_string();
    auto sif = written(*ical, item_dialect::sife);
    for (const char* expected : {"<Start>20240301T043000Z</Start>", "<End>20240301T060000Z</End>",
                                 "<ReminderSet>1</ReminderSet>", "<ReminderMinutesBeforeStart>15<"}) {
        EXPECT_NE(sif.find(expected), std::string::npos) << expected << "\n" << sif;
    }
    auto floating = parse_item(
        "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nDTSTART:20240301T100000\r\n"
        "DTEND:20240301T110000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        item_dialect::vcal10);
    ASSERT_TRUE(floating);
    EXPECT_NE(written(*floating, item_dialect::sife).find("<Start>20240301T100000</Start>"), std::string::npos);
}

TEST(sif_event, keeps_every_mapped_field_through_icalendar_and_vcalendar) {
    testing::expect_sif_survives(k_meeting, item_dialect::sife, item_dialect::ical20);
    testing::expect_sif_survives(k_meeting, item_dialect::sife, item_dialect::vcal10);
    auto all_day = testing::sif_document("appointment", {{"Subject", "Trip"},
                                                         {"AllDayEvent", "1"},
                                                         {"Start", "2024-05-01"},
                                                         {"End", "2024-05-03"},
                                                         {"IsRecurring", "1"},
                                                         {"RecurrenceType", "5"},
                                                         {"MonthOfYear", "5"},
                                                         {"DayOfMonth", "1"},
                                                         {"PatternEndDate", "2030-05-01"}});
    testing::expect_sif_survives(all_day, item_dialect::sife, item_dialect::ical20);
    testing::expect_sif_survives(all_day, item_dialect::sife, item_dialect::vcal10);
}

TEST(sif_event, refuses_an_appointment_without_a_readable_start) {
    for (const char* start : {"", "tomorrow", "2008-13-45"}) {
        auto r = parse_sif(testing::sif_document("appointment", {{"Subject", "x"}, {"Start", start}}));
        ASSERT_FALSE(r) << start;
        EXPECT_EQ(r.error().code, item_errc::invalid_value);
        EXPECT_NE(r.error().message.find("Start"), std::string::npos) << r.error().message;
    }
}

TEST(sif_event, writes_only_events_as_appointments) {
    auto task =
        parse_item("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nSUMMARY:t\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                   item_dialect::ical20);
    ASSERT_TRUE(task);
    auto r = serialize_item(*task, item_dialect::sife);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, item_errc::unsupported);
    EXPECT_FALSE(serialize_item(sif_or_fail(k_meeting), item_dialect::sifc));
}

}  // namespace
}  // namespace syncml::matching
