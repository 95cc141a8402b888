// Times in a second VTIMEZONE: vCalendar 1.0 has one zone per calendar (TZ/DAYLIGHT), so such times go out
// in UTC, the instant the phone must show, with an X-SYNCML-ICAL- hint that restores the original TZID.
#include <gtest/gtest.h>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_test_support.hpp"
#include "matching/convert/corpus_test_support.hpp"

namespace syncml::matching {
namespace {

using testing::has_line;
using testing::parse_one;

TEST(vcal_second_zone, kcalendarcore_conference_in_the_second_zone_goes_out_in_utc) {
    // Berlin is the first VTIMEZONE (it becomes TZ/DAYLIGHT); the event is in Europe/Prague, CET in November.
    const auto ical =
        testing::read_file(testing::corpus_dir() / "kde-kcalendarcore/autotests/data/test_conference.ics");
    const auto cal = parse_one(ical, calendar_version::ical20);
    ASSERT_EQ(cal.timezones.size(), 2u);
    ASSERT_EQ(cal.components.at(0).start->tzid, "Europe/Prague");
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(has_line(vcal, "DTSTART:20201116T140000Z")) << vcal;
    EXPECT_TRUE(has_line(vcal, "DTEND:20201116T150000Z")) << vcal;
    EXPECT_TRUE(has_line(vcal, "X-SYNCML-ICAL-DTSTART;TZID=Europe/Prague:20201116T150000")) << vcal;
    // 2.0 -> 1.0 -> 2.0 restores the zone; 1.0 -> 2.0 -> 1.0 gives the same 1.0 text.
    const auto back = parse_one(vcal, calendar_version::vcal10);
    EXPECT_TRUE(back.components == cal.components);
    EXPECT_TRUE(back.timezones == cal.timezones);
    EXPECT_EQ(write_calendar(parse_one(write_calendar(back, calendar_version::ical20), calendar_version::ical20),
                             calendar_version::vcal10),
              vcal);
}

const std::string k_flight =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
    "BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
    "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
    "BEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\n"
    "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"
    "BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\nBEGIN:STANDARD\r\nDTSTART:19701101T020000\r\n"
    "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nEND:STANDARD\r\n"
    "BEGIN:DAYLIGHT\r\nDTSTART:19700308T020000\r\nRRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\r\n"
    "TZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"
    "BEGIN:VEVENT\r\nUID:flight\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:CDG-JFK\r\n"
    "DTSTART;TZID=Europe/Paris:20260715T103000\r\nDTEND;TZID=America/New_York:20260715T130000\r\n"
    "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:boarding\r\nTRIGGER:-PT1H\r\nEND:VALARM\r\n"
    "END:VEVENT\r\nEND:VCALENDAR\r\n";

TEST(vcal_second_zone, an_end_in_another_zone_than_the_start_goes_out_in_utc) {
    const auto cal = parse_one(k_flight, calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(has_line(vcal, "DTSTART:20260715T103000")) << vcal;  // the calendar's own zone stays local
    EXPECT_TRUE(has_line(vcal, "DTEND:20260715T170000Z")) << vcal;   // 13:00 EDT
    EXPECT_TRUE(has_line(vcal, "X-SYNCML-ICAL-DTEND;TZID=America/New_York:20260715T130000")) << vcal;
    EXPECT_TRUE(has_line(vcal, "DALARM:20260715T093000;;0;boarding")) << vcal;
    EXPECT_EQ(vcal.find("X-SYNCML-ICAL-VALARM"), std::string::npos) << vcal;
    const auto back = parse_one(vcal, calendar_version::vcal10);
    EXPECT_TRUE(back.components == cal.components) << write_calendar(back, calendar_version::ical20);
    EXPECT_TRUE(back.timezones == cal.timezones);
}

TEST(vcal_second_zone, an_alarm_relative_to_a_start_in_the_second_zone_fires_at_the_right_instant) {
    auto cal = parse_one(k_flight, calendar_version::ical20);
    std::swap(cal.timezones[0], cal.timezones[1]);  // New York first: the Paris start is now the foreign time
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(has_line(vcal, "DTSTART:20260715T083000Z")) << vcal;
    EXPECT_TRUE(has_line(vcal, "DALARM:20260715T073000Z;;0;boarding")) << vcal;
    const auto back = parse_one(vcal, calendar_version::vcal10);
    EXPECT_TRUE(back.components == cal.components) << write_calendar(back, calendar_version::ical20);
}

}  // namespace
}  // namespace syncml::matching
