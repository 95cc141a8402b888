#include "dav/query/free_busy.hpp"

#include <gtest/gtest.h>

#include "dav/query/query_test_support.hpp"

namespace syncml::dav::query {
namespace {

using namespace testing;

time_range range(const std::string& start, const std::string& end) { return {parse_utc(start), parse_utc(end)}; }

TEST(free_busy, busy_time_of_opaque_events_and_their_instances_clipped_to_the_range) {
    std::vector<busy_period> busy;
    const auto r = range("20250107T000000Z", "20250115T000000Z");
    add_busy_periods(vcalendar(vevent("w",
                                      "DTSTART:20250107T090000Z\r\nDTEND:20250107T100000Z\r\n"
                                      "RRULE:FREQ=WEEKLY\r\n")),
                     r, busy);
    add_busy_periods(vcalendar(vevent("t", "DTSTART:20250108T090000Z\r\nDURATION:PT1H\r\nTRANSP:TRANSPARENT\r\n")), r,
                     busy);
    add_busy_periods(vcalendar(vevent("c", "DTSTART:20250108T090000Z\r\nDURATION:PT1H\r\nSTATUS:CANCELLED\r\n")), r,
                     busy);
    add_busy_periods(vcalendar(vevent("m", "DTSTART:20250109T090000Z\r\nDURATION:PT1H\r\nSTATUS:TENTATIVE\r\n")), r,
                     busy);
    add_busy_periods(vcalendar(vevent("l", "DTSTART:20250114T230000Z\r\nDURATION:PT2H\r\n")), r, busy);
    const std::vector<busy_period> want{
        {*parse_utc("20250107T090000Z"), *parse_utc("20250107T100000Z"), busy_kind::busy},
        {*parse_utc("20250109T090000Z"), *parse_utc("20250109T100000Z"), busy_kind::tentative},
        {*parse_utc("20250114T090000Z"), *parse_utc("20250114T100000Z"), busy_kind::busy},
        {*parse_utc("20250114T230000Z"), *parse_utc("20250115T000000Z"), busy_kind::busy},
    };
    std::sort(busy.begin(), busy.end(), [](const busy_period& a, const busy_period& b) { return a.start < b.start; });
    EXPECT_EQ(busy, want);
}

TEST(free_busy, one_vfreebusy_with_merged_periods) {
    const auto r = range("20250107T000000Z", "20250108T000000Z");
    const auto text =
        free_busy_calendar({{*parse_utc("20250107T090000Z"), *parse_utc("20250107T100000Z")},
                            {*parse_utc("20250107T093000Z"), *parse_utc("20250107T110000Z")},
                            {*parse_utc("20250107T120000Z"), *parse_utc("20250107T130000Z"), busy_kind::tentative}},
                           r, *parse_utc("20250101T000000Z"));
    EXPECT_NE(text.find("BEGIN:VFREEBUSY"), std::string::npos) << text;
    EXPECT_NE(text.find("DTSTART:20250107T000000Z"), std::string::npos) << text;
    EXPECT_NE(text.find("DTEND:20250108T000000Z"), std::string::npos) << text;
    EXPECT_NE(text.find("FREEBUSY:20250107T090000Z/20250107T110000Z"), std::string::npos) << text;
    EXPECT_NE(text.find("FREEBUSY;FBTYPE=BUSY-TENTATIVE:20250107T120000Z/20250107T130000Z"), std::string::npos) << text;
}

}  // namespace
}  // namespace syncml::dav::query
