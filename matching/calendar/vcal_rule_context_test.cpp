// vCalendar 1.0 rules whose meaning depends on DTSTART: yearly-by-weekday rules travel as MP12 (every 12
// months in DTSTART's month) and come back as RRULE FREQ=YEARLY;BYMONTH; a YD rule without a day list means
// DTSTART's day of the year. Both directions, and both round trips, keep the rule.
#include <gtest/gtest.h>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_test_support.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/convert/corpus_test_support.hpp"

namespace syncml::matching {
namespace {

using testing::has_line;
using testing::parse_one;

std::string event(std::string_view version, std::string_view start, std::string_view rule) {
    return testing::event_on(version, start, "RRULE:" + std::string(rule) + "\r\n");
}

const recurrence_rule& only_rule(const calendar& cal) {
    EXPECT_EQ(cal.components.at(0).rrules.size(), 1u);
    return cal.components.at(0).rrules.at(0);
}

TEST(vcal_rule_context, mp12_reads_as_a_yearly_rule_in_the_month_of_dtstart) {
    const auto cal = parse_one(event("1.0", "20260510T090000", "MP12 2+ SU #0"), calendar_version::vcal10);
    EXPECT_EQ(format_rrule(only_rule(cal)), "FREQ=YEARLY;BYDAY=2SU;BYMONTH=5");
    const auto ical = write_calendar(cal, calendar_version::ical20);
    EXPECT_TRUE(has_line(ical, "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=5")) << ical;
    // 1.0 -> 2.0 -> 1.0 gives the phone its rule back.
    const auto vcal = write_calendar(parse_one(ical, calendar_version::ical20), calendar_version::vcal10);
    EXPECT_TRUE(has_line(vcal, "RRULE:MP12 2+ SU #0")) << vcal;
    EXPECT_EQ(vcal.find("X-SYNCML-ICAL-RRULE"), std::string::npos) << vcal;
}

TEST(vcal_rule_context, yearly_by_weekday_from_icalendar_travels_as_mp12_and_comes_back) {
    const auto cal =
        parse_one(event("2.0", "20260329T020000", "FREQ=YEARLY;INTERVAL=2;UNTIL=20360101T000000;BYMONTH=3;BYDAY=-1SU"),
                  calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(has_line(vcal, "RRULE:MP24 1- SU 20360101T000000")) << vcal;
    EXPECT_EQ(vcal.find("X-SYNCML-ICAL-RRULE"), std::string::npos) << vcal;
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal);
}

TEST(vcal_rule_context, yearly_by_month_day_travels_as_md12) {
    const auto cal = parse_one(event("2.0", "20261224T180000", "FREQ=YEARLY;COUNT=3;BYMONTH=12;BYMONTHDAY=24"),
                               calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(has_line(vcal, "RRULE:MD12 24 #3")) << vcal;
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal);
}

TEST(vcal_rule_context, a_yearly_rule_in_another_month_than_dtstart_stays_a_hint) {
    // MP12 would repeat in DTSTART's month (May), not in March: only the exact hint can carry it.
    const auto cal =
        parse_one(event("2.0", "20260510T090000", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"), calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_EQ(vcal.find("RRULE:MP12"), std::string::npos) << vcal;
    EXPECT_NE(vcal.find("X-SYNCML-ICAL-RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"), std::string::npos) << vcal;
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal);
}

TEST(vcal_rule_context, every_12_months_from_icalendar_still_reaches_the_phone) {
    // Same occurrences as the yearly rule; the phone gets MP12 rather than a hint it cannot read.
    const auto cal =
        parse_one(event("2.0", "20261126T100000", "FREQ=MONTHLY;INTERVAL=12;BYDAY=4TH"), calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(has_line(vcal, "RRULE:MP12 4+ TH #0")) << vcal;
    EXPECT_EQ(format_rrule(only_rule(parse_one(vcal, calendar_version::vcal10))), "FREQ=YEARLY;BYDAY=4TH;BYMONTH=11");
}

TEST(vcal_rule_context, a_bare_yd_rule_repeats_the_day_of_the_year_of_dtstart) {
    // 2028 is a leap year: day 141 is May 20 there, where FREQ=YEARLY alone would stay on May 21.
    const auto cal = parse_one(event("1.0", "20260521T090000", "YD1 #3"), calendar_version::vcal10);
    EXPECT_EQ(format_rrule(only_rule(cal)), "FREQ=YEARLY;COUNT=3;BYYEARDAY=141");
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(has_line(vcal, "RRULE:YD1 141 #3")) << vcal;
}

TEST(vcal_rule_context, corpus_yd_rules_survive_both_round_trips) {
    const auto data = testing::read_file(testing::corpus_dir() /
                                         "kde-kcalendarcore/autotests/data/vCalendar/KOrganizer_vCalTestCase11.vcs");
    auto cals = parse_calendars(data, calendar_version::vcal10);
    ASSERT_TRUE(cals);
    int checked = 0;
    for (const auto& cal : *cals) {
        for (const auto& c : cal.components) {
            if (c.rrules.empty() || c.rrules[0].by_year_day.empty()) continue;
            EXPECT_EQ(format_rrule(c.rrules[0]), "FREQ=YEARLY;COUNT=17;BYYEARDAY=141");
            calendar one = cal;
            one.components = {c};
            const auto ical = write_calendar(one, calendar_version::ical20);
            const auto via_ical = parse_one(ical, calendar_version::ical20);
            EXPECT_EQ(via_ical.components.at(0).rrules, c.rrules);
            const auto vcal = write_calendar(via_ical, calendar_version::vcal10);
            EXPECT_TRUE(has_line(vcal, "RRULE:YD1 141 #17")) << vcal;
            EXPECT_EQ(parse_one(vcal, calendar_version::vcal10).components.at(0).rrules, c.rrules);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 1);
}

}  // namespace
}  // namespace syncml::matching
