// Yearly rules whose months or days are not DTSTART's: the phone gets a real 1.0 rule with the same occurrences
// (YM without the month day, YD with fixed days of the year) and the RRULE hint brings the original back.
#include "matching/calendar/vcal_rule_choice.hpp"

#include <gtest/gtest.h>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_test_support.hpp"
#include "matching/calendar/calendar_values.hpp"

namespace syncml::matching {
namespace {

using testing::event_on;
using testing::has_line;
using testing::parse_one;

// The iCalendar event with `rrule` written for a phone; the original must come back from that text.
std::string to_phone(std::string_view start, std::string_view rrule) {
    const auto cal =
        parse_one(event_on("2.0", start, "RRULE:" + std::string(rrule) + "\r\n"), calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal) << vcal;
    return vcal;
}

TEST(vcal_rule_choice, yearly_in_another_month_on_dtstarts_day_travels_as_ym_with_a_hint) {
    const auto vcal = to_phone("20260510T090000", "FREQ=YEARLY;COUNT=4;BYMONTH=3;BYMONTHDAY=10");
    EXPECT_TRUE(has_line(vcal, "RRULE:YM1 3 #4")) << vcal;
    EXPECT_TRUE(has_line(vcal, "X-SYNCML-ICAL-RRULE:FREQ=YEARLY;COUNT=4;BYMONTHDAY=10;BYMONTH=3")) << vcal;
}

TEST(vcal_rule_choice, several_months_on_dtstarts_day_travel_as_one_ym_rule) {
    const auto vcal = to_phone("20260510T090000", "FREQ=YEARLY;INTERVAL=2;BYMONTH=5,11;BYMONTHDAY=10");
    EXPECT_TRUE(has_line(vcal, "RRULE:YM2 5 11 #0")) << vcal;
}

TEST(vcal_rule_choice, another_day_in_another_month_travels_as_fixed_days_of_the_year) {
    // March 20 is the 287th day from the end in every year; January 15 the 15th from the start.
    auto vcal = to_phone("20260510T090000", "FREQ=YEARLY;UNTIL=20300101T000000;BYMONTH=3;BYMONTHDAY=20");
    EXPECT_TRUE(has_line(vcal, "RRULE:YD1 287- 20300101T000000")) << vcal;
    vcal = to_phone("20260510T090000", "FREQ=YEARLY;BYMONTH=1,2;BYMONTHDAY=15,-1");
    EXPECT_TRUE(has_line(vcal, "RRULE:YD1 307- 15 31 46 #0")) << vcal;
}

TEST(vcal_rule_choice, days_that_move_between_years_stay_a_hint) {
    // February 29 exists in leap years only; day 60 would be March 1 in the others.
    const auto vcal = to_phone("20260510T090000", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29");
    EXPECT_EQ(vcal.find("\r\nRRULE:"), std::string::npos) << vcal;
    EXPECT_TRUE(has_line(vcal, "X-SYNCML-ICAL-RRULE:FREQ=YEARLY;BYMONTHDAY=29;BYMONTH=2")) << vcal;
    EXPECT_FALSE(choose_vcal_rule(*parse_rrule("FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31"),
                                  date_time{2026, 5, 10, 9, 0, 0, false, false, {}}));
}

TEST(vcal_rule_choice, the_exact_forms_need_no_hint) {
    const date_time may_10{2026, 5, 10, 9, 0, 0, false, false, {}};
    auto choice = choose_vcal_rule(*parse_rrule("FREQ=YEARLY;BYMONTH=3,9"), may_10);
    ASSERT_TRUE(choice);
    EXPECT_EQ(choice->text, "YM1 3 9 #0");
    EXPECT_TRUE(choice->exact);
    choice = choose_vcal_rule(*parse_rrule("FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=20"), may_10);
    ASSERT_TRUE(choice);
    EXPECT_EQ(choice->text, "MD12 20 #0");
    EXPECT_TRUE(choice->exact);
}

TEST(vcal_rule_choice, parts_that_change_nothing_from_dtstart_are_left_out_for_the_phone) {
    const date_time tue_dec_1{2026, 12, 1, 10, 0, 0, false, false, {}};
    auto text = [&](std::string_view rrule, const date_time& start) {
        auto choice = choose_vcal_rule(*parse_rrule(rrule), start);
        EXPECT_TRUE(!choice || !choice->exact) << rrule;
        return choice ? choice->text : std::string("none");
    };
    EXPECT_EQ(text("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;WKST=SU", tue_dec_1), "W2 TU TH #0");
    // Every other week from Sunday or from Monday puts a Sunday in different weeks.
    EXPECT_EQ(text("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU", tue_dec_1), "none");
    EXPECT_EQ(text("FREQ=WEEKLY;BYDAY=TU,SU;WKST=SU", tue_dec_1), "W1 TU SU #0");
    EXPECT_EQ(text("FREQ=DAILY;COUNT=10;BYDAY=MO,TU,WE,TH,FR", tue_dec_1), "W1 MO TU WE TH FR #10");
    EXPECT_EQ(text("FREQ=DAILY;INTERVAL=2;BYDAY=MO,TU", tue_dec_1), "none");
    EXPECT_EQ(text("FREQ=MONTHLY;INTERVAL=12;BYDAY=1TU;BYMONTH=12", tue_dec_1), "MP12 1+ TU #0");
    EXPECT_EQ(text("FREQ=MONTHLY;INTERVAL=12;BYDAY=1TU;BYMONTH=11", tue_dec_1), "none");
    const auto vcal = to_phone("20261201T100000", "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=1;BYMONTH=12");
    EXPECT_TRUE(has_line(vcal, "RRULE:MD12 1 #0")) << vcal;
}

TEST(vcal_rule_choice, the_phones_reading_of_a_rule_is_what_it_sends_back_without_the_hint) {
    const date_time may_10{2026, 5, 10, 9, 0, 0, false, false, {}};
    auto reading = vcal_reading(*parse_rrule("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=20"), may_10);
    ASSERT_TRUE(reading);
    EXPECT_EQ(format_rrule(*reading), "FREQ=YEARLY;BYYEARDAY=-287");
    reading = vcal_reading(*parse_rrule("FREQ=YEARLY;COUNT=2;BYMONTH=3,9"), may_10);
    ASSERT_TRUE(reading);
    EXPECT_EQ(format_rrule(*reading), "FREQ=YEARLY;COUNT=2;BYMONTH=3,9");
    EXPECT_FALSE(vcal_reading(*parse_rrule("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"), may_10));
}

TEST(vcal_rule_choice, a_hint_without_its_1_0_rule_still_reads_as_before) {
    // What earlier versions wrote: the hint alone, or an exact first rule and a hinted second one.
    const auto alone =
        parse_one(event_on("1.0", "20260510T090000", "X-SYNCML-ICAL-RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=10\r\n"),
                  calendar_version::vcal10);
    ASSERT_EQ(alone.components.at(0).rrules.size(), 1u);
    EXPECT_EQ(format_rrule(alone.components[0].rrules[0]), "FREQ=YEARLY;BYMONTHDAY=10;BYMONTH=3");
    const auto second = parse_one(
        event_on("1.0", "20260510T090000", "RRULE:YM1 3 #0\r\nX-SYNCML-ICAL-RRULE:FREQ=YEARLY;BYMONTH=5;BYDAY=2SU\r\n"),
        calendar_version::vcal10);
    ASSERT_EQ(second.components.at(0).rrules.size(), 2u);
    EXPECT_EQ(format_rrule(second.components[0].rrules[0]), "FREQ=YEARLY;BYMONTH=3");
}

TEST(vcal_rule_choice, a_rule_the_phone_changed_is_not_overridden_by_the_old_hint) {
    const auto cal =
        parse_one(event_on("1.0", "20260510T090000",
                           "RRULE:YM1 4 #0\r\nX-SYNCML-ICAL-RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=10\r\n"),
                  calendar_version::vcal10);
    ASSERT_FALSE(cal.components.at(0).rrules.empty());
    EXPECT_EQ(format_rrule(cal.components[0].rrules[0]), "FREQ=YEARLY;BYMONTH=4");
}

}  // namespace
}  // namespace syncml::matching
