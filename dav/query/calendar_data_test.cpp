#include "dav/query/calendar_data.hpp"

#include <gtest/gtest.h>

#include "dav/query/query_test_support.hpp"

namespace syncml::dav::query {
namespace {

using namespace testing;

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

calendar_data_request expand(const std::string& start, const std::string& end) {
    return {.kind = calendar_data_request::mode::expand, .range = {parse_utc(start), parse_utc(end)}};
}

// python-caldav's evr: a yearly all-day event.
const std::string k_yearly = vcalendar(vevent("yearly",
                                              "DTSTART;VALUE=DATE:19971102\r\nSUMMARY:Anniversary\r\n"
                                              "RRULE:FREQ=YEARLY\r\n"));

TEST(calendar_data, expand_gives_the_instances_in_the_range_with_recurrence_ids) {
    const auto one = rewrite_calendar_data(k_yearly, expand("20081101T170000Z", "20081103T170000Z"));
    ASSERT_TRUE(one);
    EXPECT_EQ(count(*one, "BEGIN:VEVENT"), 1u) << *one;
    EXPECT_EQ(count(*one, "DTSTART;VALUE=DATE:20081102"), 1u) << *one;
    EXPECT_EQ(count(*one, "RECURRENCE-ID;VALUE=DATE:20081102"), 1u) << *one;
    EXPECT_EQ(count(*one, "RRULE"), 0u) << *one;
    const auto two = rewrite_calendar_data(k_yearly, expand("20081101T170000Z", "20091103T170000Z"));
    ASSERT_TRUE(two);
    EXPECT_EQ(count(*two, "BEGIN:VEVENT"), 2u) << *two;
}

TEST(calendar_data, expand_takes_overridden_instances_from_their_components_in_utc) {
    // python-caldav's evr2, with the times in Berlin and no VTIMEZONE.
    const auto object = vcalendar(
        vevent("bi",
               "DTSTART;TZID=Europe/Berlin:20240411T143000\r\nDTEND;TZID=Europe/Berlin:20240412T143000\r\n"
               "RRULE:FREQ=WEEKLY;INTERVAL=2\r\nSUMMARY:Test\r\n") +
        vevent("bi",
               "RECURRENCE-ID;TZID=Europe/Berlin:20240425T143000\r\nDTSTART;TZID=Europe/Berlin:20240425T153000"
               "\r\nDTEND;TZID=Europe/Berlin:20240426T143000\r\nSUMMARY:Test (edited)\r\n"));
    const auto out = rewrite_calendar_data(object, expand("20240331T000000Z", "20240504T000000Z"));
    ASSERT_TRUE(out);
    EXPECT_EQ(count(*out, "BEGIN:VEVENT"), 2u) << *out;
    const auto first = out->find("RECURRENCE-ID:20240411T123000Z"),
               second = out->find("RECURRENCE-ID:20240425T123000Z");
    ASSERT_NE(first, std::string::npos) << *out;
    ASSERT_NE(second, std::string::npos) << *out;
    EXPECT_LT(first, second) << "by start";
    EXPECT_NE(out->find("DTSTART:20240425T133000Z"), std::string::npos) << *out;
    EXPECT_NE(out->find("SUMMARY:Test (edited)"), std::string::npos) << *out;
    EXPECT_EQ(count(*out, "TZID"), 0u) << *out;
    EXPECT_EQ(count(*out, "RRULE"), 0u) << *out;
}

TEST(calendar_data, expand_leaves_out_exdates_and_shifts_the_end) {
    const auto object = vcalendar(vevent("w",
                                         "DTSTART:20250107T090000Z\r\nDTEND:20250107T100000Z\r\n"
                                         "RRULE:FREQ=WEEKLY;COUNT=4\r\nEXDATE:20250114T090000Z\r\n"));
    const auto out = rewrite_calendar_data(object, expand("20250101T000000Z", "20250201T000000Z"));
    ASSERT_TRUE(out);
    EXPECT_EQ(count(*out, "BEGIN:VEVENT"), 3u) << *out;
    EXPECT_EQ(count(*out, "20250114"), 0u) << *out;
    EXPECT_NE(out->find("DTEND:20250128T100000Z"), std::string::npos) << *out;
}

TEST(calendar_data, expand_keeps_a_single_event_in_range_in_utc) {
    const auto object = vcalendar(vevent("s", "DTSTART;TZID=Europe/Berlin:20250310T090000\r\nDURATION:PT1H\r\n"));
    const auto out = rewrite_calendar_data(object, expand("20250310T000000Z", "20250311T000000Z"));
    ASSERT_TRUE(out);
    EXPECT_NE(out->find("DTSTART:20250310T080000Z"), std::string::npos) << *out;
    EXPECT_EQ(count(*out, "RECURRENCE-ID"), 0u) << *out;
}

TEST(calendar_data, limit_recurrence_set_keeps_the_master_and_the_overrides_in_range) {
    const auto object =
        vcalendar(vevent("o", "DTSTART:20250107T090000Z\r\nDTEND:20250107T100000Z\r\nRRULE:FREQ=WEEKLY\r\n") +
                  vevent("o", "RECURRENCE-ID:20250114T090000Z\r\nDTSTART:20250114T110000Z\r\nSUMMARY:in\r\n") +
                  vevent("o", "RECURRENCE-ID:20250610T090000Z\r\nDTSTART:20250610T110000Z\r\nSUMMARY:out\r\n"));
    const auto out =
        rewrite_calendar_data(object, {.kind = calendar_data_request::mode::limit_recurrence_set,
                                       .range = {parse_utc("20250101T000000Z"), parse_utc("20250201T000000Z")}});
    ASSERT_TRUE(out);
    EXPECT_EQ(count(*out, "BEGIN:VEVENT"), 2u) << *out;
    EXPECT_NE(out->find("RRULE:FREQ=WEEKLY"), std::string::npos) << *out;
    EXPECT_NE(out->find("SUMMARY:in"), std::string::npos) << *out;
    EXPECT_EQ(out->find("SUMMARY:out"), std::string::npos) << *out;
}

TEST(calendar_data, reads_the_request_of_calendar_data) {
    const auto prop =
        xml("<D:prop xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><C:calendar-data>"
            "<C:expand start=\"20250101T000000Z\" end=\"20250201T000000Z\"/></C:calendar-data></D:prop>");
    const auto read = read_calendar_data_request(&prop);
    EXPECT_EQ(read.error, "");
    EXPECT_EQ(read.request.kind, calendar_data_request::mode::expand);
    EXPECT_EQ(read.request.range.start, parse_utc("20250101T000000Z"));
    const auto open =
        xml("<D:prop xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><C:calendar-data>"
            "<C:expand start=\"20250101T000000Z\"/></C:calendar-data></D:prop>");
    EXPECT_NE(read_calendar_data_request(&open).error, "") << "expand needs both bounds";
    const auto plain =
        xml("<D:prop xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><C:calendar-data/>"
            "</D:prop>");
    EXPECT_EQ(read_calendar_data_request(&plain).request.kind, calendar_data_request::mode::as_stored);
    EXPECT_FALSE(rewrite_calendar_data(k_yearly, {}));
}

}  // namespace
}  // namespace syncml::dav::query
