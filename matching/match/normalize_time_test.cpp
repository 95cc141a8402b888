#include "matching/match/normalize_time.hpp"

#include <gtest/gtest.h>

#include "matching/convert/item_test_support.hpp"

namespace syncml::matching {
namespace {

using testing::wall_time;

// Europe/Berlin as RFC 5545 writes it: CET/CEST with the EU rules since 1996.
timezone_def berlin() {
    timezone_def tz;
    tz.tzid = "Europe/Berlin";
    tz_observance summer;
    summer.daylight = true;
    summer.start = wall_time(1981, 3, 29, 2);
    summer.offset_from = "+0100";
    summer.offset_to = "+0200";
    recurrence_rule r;
    r.freq = frequency::yearly;
    r.by_month = {3};
    r.by_day = {{-1, 0}};
    summer.rule = r;
    tz_observance winter;
    winter.start = wall_time(1996, 10, 27, 3);
    winter.offset_from = "+0200";
    winter.offset_to = "+0100";
    r.by_month = {10};
    winter.rule = r;
    tz.observances = {summer, winter};
    return tz;
}

TEST(normalized_time, converts_local_time_with_a_vtimezone_to_utc_in_winter_and_summer) {
    date_time winter = wall_time(2024, 1, 31, 8, 30);
    winter.tzid = "Europe/Berlin";
    date_time summer = wall_time(2024, 7, 1, 8, 30);
    summer.tzid = "Europe/Berlin";
    EXPECT_EQ(normalized_time(winter, {berlin()}), "20240131T073000Z");
    EXPECT_EQ(normalized_time(summer, {berlin()}), "20240701T063000Z");
}

TEST(normalized_time, finds_the_last_sunday_transitions) {
    date_time before = wall_time(2024, 3, 31, 1, 59);
    date_time after = wall_time(2024, 3, 31, 3, 0);
    EXPECT_EQ(utc_offset_at(before, berlin()), 3600);
    EXPECT_EQ(utc_offset_at(after, berlin()), 7200);
    EXPECT_EQ(utc_offset_at(wall_time(2024, 10, 27, 3, 1), berlin()), 3600);
    EXPECT_EQ(utc_offset_at(wall_time(2024, 10, 26, 23), berlin()), 7200);
}

TEST(normalized_time, crosses_day_and_year_boundaries) {
    date_time t = wall_time(2024, 1, 1, 0, 30);
    t.tzid = "Europe/Berlin";
    EXPECT_EQ(normalized_time(t, {berlin()}), "20231231T233000Z");
}

TEST(normalized_time, keeps_dates_floating_times_and_unknown_zones_apart) {
    date_time d = wall_time(2024, 2, 29);
    d.date_only = true;
    d.tzid = "Europe/Berlin";
    EXPECT_EQ(normalized_time(d, {berlin()}), "D20240229");
    EXPECT_EQ(normalized_time(wall_time(2024, 2, 29, 10), {}), "20240229T100000");
    date_time utc = wall_time(2024, 2, 29, 10);
    utc.utc = true;
    EXPECT_EQ(normalized_time(utc, {}), "20240229T100000Z");
    date_time unknown = wall_time(2024, 2, 29, 10);
    unknown.tzid = "America/New_York";
    EXPECT_EQ(normalized_time(unknown, {berlin()}), "20240229T100000 America/New_York");
}

TEST(normalized_time, uses_fixed_offset_zones_without_rules) {
    timezone_def tz;
    tz.tzid = "vcal-+0530";
    tz_observance std;
    std.start = wall_time(1970, 1, 1);
    std.offset_from = std.offset_to = "+0530";
    tz.observances = {std};
    date_time t = wall_time(2024, 5, 1, 12);
    t.tzid = tz.tzid;
    EXPECT_EQ(normalized_time(t, {tz}), "20240501T063000Z");
}

TEST(wall_clock_seconds, counts_from_the_epoch) {
    EXPECT_EQ(wall_clock_seconds(wall_time(1970, 1, 1)), 0);
    EXPECT_EQ(wall_clock_seconds(wall_time(2000, 3, 1, 1, 2, 3)), 951868800 + 3723);
}

}  // namespace
}  // namespace syncml::matching
