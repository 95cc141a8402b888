#include <gtest/gtest.h>

#include "matching/calendar/calendar_values.hpp"
#include "matching/sif/sif_test_support.hpp"

namespace syncml::matching {
namespace {

using field_list = std::vector<std::pair<std::string, std::string>>;

// An appointment at `start` with the pattern fields `pattern` after IsRecurring=1.
std::string appointment(const std::string& start, const field_list& pattern) {
    std::string out = "<appointment><SIFVersion>1.1</SIFVersion><Subject>r</Subject><Start>" + start + "</Start><End>" +
                      start + "</End><AllDayEvent>" + (start.find('T') == std::string::npos ? "1" : "0") +
                      "</AllDayEvent><IsRecurring>1</IsRecurring>";
    for (const auto& [name, value] : pattern) out += "<" + name + ">" + value + "</" + name + ">";
    return out + "</appointment>";
}

const calendar_component& event_of(const item& value) { return std::get<calendar>(value).components.at(0); }

std::string rrule_of(const std::string& sif) {
    auto parsed = testing::sif_or_fail(sif);
    const auto& e = event_of(parsed);
    return e.rrules.empty() ? "none" : format_rrule(e.rrules[0]);
}

result<item> event_with_rule(const std::string& rule) {
    return parse_item(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:s\r\nDTSTART:20240102T080000Z\r\n"
        "DTEND:20240102T090000Z\r\nRRULE:" +
            rule + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        item_dialect::ical20);
}

struct rule_case {
    const char* what;
    std::string start;
    field_list fields;
    const char* rrule;
};

TEST(sif_recurrence, reads_each_outlook_pattern_as_its_rrule) {
    const std::vector<rule_case> cases = {
        {"every 2 days, 10 times",
         "20240102T090000Z",
         {{"RecurrenceType", "0"}, {"Interval", "2"}, {"Occurrences", "10"}},
         "FREQ=DAILY;COUNT=10;INTERVAL=2"},
        {"every weekday (Outlook's daily pattern with a mask)",
         "20240102T090000Z",
         {{"RecurrenceType", "0"}, {"Interval", "1"}, {"DayOfWeekMask", "62"}, {"NoEndDate", "1"}},
         "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"},
        {"every 3 weeks on Monday and Thursday until a date",
         "20240101T090000Z",
         {{"RecurrenceType", "1"}, {"Interval", "3"}, {"DayOfWeekMask", "18"}, {"PatternEndDate", "20240331T090000Z"}},
         "FREQ=WEEKLY;UNTIL=20240331T090000Z;INTERVAL=3;BYDAY=MO,TH"},
        {"monthly on the 15th",
         "20240115T090000Z",
         {{"RecurrenceType", "2"}, {"Interval", "1"}, {"DayOfMonth", "15"}, {"NoEndDate", "1"}},
         "FREQ=MONTHLY;BYMONTHDAY=15"},
        {"every 2 months on the last Friday, 6 times",
         "20240126T090000Z",
         {{"RecurrenceType", "3"}, {"Interval", "2"}, {"DayOfWeekMask", "32"}, {"Instance", "5"}, {"Occurrences", "6"}},
         "FREQ=MONTHLY;COUNT=6;INTERVAL=2;BYDAY=-1FR"},
        {"yearly on 31 January, interval in Outlook's months",
         "20240131",
         {{"RecurrenceType", "5"}, {"Interval", "12"}, {"MonthOfYear", "1"}, {"DayOfMonth", "31"}, {"NoEndDate", "1"}},
         "FREQ=YEARLY;BYMONTHDAY=31;BYMONTH=1"},
        {"every 2 years on the 2nd Sunday of May until a date",
         "20240512",
         {{"RecurrenceType", "6"},
          {"Interval", "2"},
          {"MonthOfYear", "5"},
          {"DayOfWeekMask", "1"},
          {"Instance", "2"},
          {"PatternEndDate", "2030-05-12"}},
         "FREQ=YEARLY;UNTIL=20300512;INTERVAL=2;BYDAY=2SU;BYMONTH=5"},
        {"an unknown pattern type", "20240102T090000Z", {{"RecurrenceType", "4"}}, "none"},
    };
    for (const auto& c : cases) EXPECT_EQ(rrule_of(appointment(c.start, c.fields)), c.rrule) << c.what;
}

TEST(sif_recurrence, moves_local_weekdays_and_the_local_end_into_the_utc_start_frame) {
    // Fridays 19:00 in Mexico City (UTC-6) are Saturdays 01:00 UTC; the pattern ends on the local 28 Nov 2008.
    auto sif = appointment("20081108T010000Z", {{"RecurrenceType", "1"},
                                                {"Interval", "1"},
                                                {"DayOfWeekMask", "32"},
                                                {"PatternStartDate", "20081107T190000"},
                                                {"PatternEndDate", "20081128T190000"}});
    EXPECT_EQ(rrule_of(sif), "FREQ=WEEKLY;UNTIL=20081129T010000Z;BYDAY=SA");

    auto with_zone_only = appointment("20081108T010000Z", {{"RecurrenceType", "2"},
                                                           {"DayOfMonth", "7"},
                                                           {"PatternEndDate", "2009-01-07"},
                                                           {"Timezone", "<BasicOffset>-0600</BasicOffset>"}});
    EXPECT_EQ(rrule_of(with_zone_only), "FREQ=MONTHLY;UNTIL=20090108T010000Z;BYMONTHDAY=8");
}

TEST(sif_recurrence, reads_exceptions_as_exdates_and_rdates_in_the_start_frame) {
    auto sif = appointment("20081108T010000Z", {{"RecurrenceType", "1"},
                                                {"DayOfWeekMask", "32"},
                                                {"PatternStartDate", "20081107T190000"},
                                                {"Exceptions",
                                                 "<ExcludeDate>2008-11-14</ExcludeDate>"
                                                 "<ExcludeDate>20081122T010000Z</ExcludeDate>"
                                                 "<IncludeDate>20081126T190000</IncludeDate><Other>x</Other>"}});
    auto parsed = testing::sif_or_fail(sif);
    const auto& e = event_of(parsed);
    ASSERT_EQ(e.exdates.size(), 2u);
    EXPECT_EQ(format_date_time(e.exdates[0]), "20081115T010000Z");
    EXPECT_EQ(format_date_time(e.exdates[1]), "20081122T010000Z");
    ASSERT_EQ(e.rdates.size(), 1u);
    EXPECT_EQ(format_date_time(e.rdates[0]), "20081127T010000Z");
}

TEST(sif_recurrence, writes_rules_back_with_days_in_the_frame_of_the_written_start) {
    // 23:30 in Berlin on Fridays is 22:30 UTC the same day in winter; 00:30 on Saturdays is 23:30 UTC on Fridays.
    auto ical = parse_item(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\n"
        "DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\n"
        "TZOFFSETTO:+0100\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\n"
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n"
        "END:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:late\r\nSUMMARY:late\r\nDTSTART;TZID=Europe/Berlin:20240106T003000\r\n"
        "DTEND;TZID=Europe/Berlin:20240106T013000\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=6;COUNT=3\r\n"
        "EXDATE;TZID=Europe/Berlin:20240206T003000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        item_dialect::ical20);
    ASSERT_TRUE(ical) << ical.error().to_string();
    auto sif = testing::written(*ical, item_dialect::sife);
    for (const char* expected :
         {"<Start>20240105T233000Z</Start>", "<End>20240106T003000Z</End>", "<RecurrenceType>2</RecurrenceType>",
          "<DayOfMonth>5</DayOfMonth>", "<Occurrences>3</Occurrences>", "<NoEndDate>0</NoEndDate>",
          "<ExcludeDate>20240205T233000Z</ExcludeDate>"}) {
        EXPECT_NE(sif.find(expected), std::string::npos) << expected << "\n" << sif;
    }
    EXPECT_EQ(rrule_of(sif), "FREQ=MONTHLY;COUNT=3;BYMONTHDAY=5");
}

TEST(sif_recurrence, keeps_daily_weekly_monthly_and_yearly_rules_through_sif) {
    for (const char* rule :
         {"FREQ=DAILY;INTERVAL=3", "FREQ=DAILY;COUNT=5", "FREQ=WEEKLY;UNTIL=20240630T080000Z;BYDAY=MO,WE",
          "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "FREQ=MONTHLY;COUNT=12;BYMONTHDAY=2", "FREQ=MONTHLY;BYDAY=3TU",
          "FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=2", "FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYDAY=-1MO"}) {
        auto ical = event_with_rule(rule);
        ASSERT_TRUE(ical) << rule;
        EXPECT_EQ(rrule_of(testing::written(*ical, item_dialect::sife)), format_rrule(event_of(*ical).rrules.at(0)))
            << rule;
    }
}

TEST(sif_recurrence, leaves_out_rules_outlook_cannot_state) {
    for (const char* rule : {"FREQ=HOURLY", "FREQ=YEARLY;BYYEARDAY=100", "FREQ=MONTHLY;BYMONTHDAY=-1",
                             "FREQ=MONTHLY;BYDAY=MO,2TU", "FREQ=MONTHLY;BYMONTH=1,7;BYMONTHDAY=3"}) {
        auto ical = event_with_rule(rule);
        ASSERT_TRUE(ical) << rule;
        auto sif = testing::written(*ical, item_dialect::sife);
        EXPECT_NE(sif.find("<IsRecurring>0</IsRecurring>"), std::string::npos) << rule << "\n" << sif;
        EXPECT_EQ(sif.find("RecurrenceType"), std::string::npos) << rule;
    }
}

TEST(sif_recurrence, bounds_hostile_counts_and_intervals) {
    auto sif = appointment("20240102T090000Z",
                           {{"RecurrenceType", "0"}, {"Interval", "2000000000"}, {"Occurrences", "2000000000"}});
    EXPECT_EQ(rrule_of(sif), "FREQ=DAILY;COUNT=999;INTERVAL=999");
    auto negative =
        appointment("20240102T090000Z", {{"RecurrenceType", "1"}, {"Interval", "-5"}, {"DayOfWeekMask", "-1"}});
    EXPECT_EQ(rrule_of(negative), "FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH,FR,SA");
}

}  // namespace
}  // namespace syncml::matching
