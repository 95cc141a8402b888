#include "dav/query/calendar_match.hpp"

#include <gtest/gtest.h>

#include "dav/query/query_test_support.hpp"

namespace syncml::dav::query {
namespace {

using namespace testing;

// Whether `object` has a component `component` overlapping [start, end).
bool in_range(const std::string& object, const std::string& start, const std::string& end,
              const std::string& component = "VEVENT") {
    return calendar_matches(calendar_filter_of(comp_xml(component, range_xml(start, end))), object);
}

bool matches(const std::string& inner, const std::string& object) {
    return calendar_matches(calendar_filter_of(inner), object);
}

std::string event(const std::string& uid, const std::string& start, const std::string& end,
                  const std::string& extra = "") {
    return vcalendar(vevent(uid, "DTSTART:" + start + "\r\nDTEND:" + end + "\r\n" + extra + "SUMMARY:" + uid + "\r\n"));
}

const std::string k_berlin_vtimezone =
    "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
    "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\n"
    "BEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n";

TEST(calendar_match, an_event_overlaps_a_range_that_begins_before_it_ends_and_ends_after_it_begins) {
    const auto ev = event("e", "20250310T090000Z", "20250310T100000Z");
    EXPECT_TRUE(in_range(ev, "20250310T000000Z", "20250311T000000Z"));
    EXPECT_FALSE(in_range(ev, "20250311T000000Z", "20250312T000000Z"));
    EXPECT_FALSE(in_range(ev, "20250310T100000Z", "")) << "the range starts when it ends";
    EXPECT_TRUE(in_range(ev, "20250310T095959Z", ""));
    EXPECT_FALSE(in_range(ev, "", "20250310T090000Z")) << "the range ends when it starts";
}

TEST(calendar_match, an_event_without_end_is_a_point_or_a_day) {
    const auto point = vcalendar(vevent("p", "DTSTART:20250310T090000Z\r\n"));
    EXPECT_TRUE(in_range(point, "20250310T090000Z", "20250310T090001Z"));
    EXPECT_FALSE(in_range(point, "20250310T080000Z", "20250310T090000Z"));
    const auto day = vcalendar(vevent("d", "DTSTART;VALUE=DATE:20250310\r\n"));
    EXPECT_TRUE(in_range(day, "20250310T230000Z", "20250311T000000Z"));
    EXPECT_FALSE(in_range(day, "20250311T000000Z", "20250312T000000Z"));
    const auto with_duration = vcalendar(vevent("u", "DTSTART:20250310T090000Z\r\nDURATION:PT2H\r\n"));
    EXPECT_TRUE(in_range(with_duration, "20250310T105900Z", "20250310T120000Z"));
    EXPECT_FALSE(in_range(with_duration, "20250310T110000Z", "20250310T120000Z"));
}

// The bug of issue 38: the hand-written span of a recurring event (its first start to its last end) held every day
// in between, a Wednesday among them.
TEST(calendar_match, a_wednesday_does_not_hold_a_weekly_tuesday_event) {
    const auto tuesdays = event("t", "20250107T090000Z", "20250107T100000Z", "RRULE:FREQ=WEEKLY;COUNT=10\r\n");
    EXPECT_FALSE(in_range(tuesdays, "20250115T000000Z", "20250116T000000Z")) << "Wednesday 15 January";
    EXPECT_TRUE(in_range(tuesdays, "20250114T000000Z", "20250115T000000Z")) << "Tuesday 14 January";
    EXPECT_TRUE(in_range(tuesdays, "20250311T000000Z", "20250312T000000Z")) << "the tenth, 11 March";
    EXPECT_FALSE(in_range(tuesdays, "20250318T000000Z", "20250319T000000Z")) << "an eleventh";
    EXPECT_FALSE(in_range(tuesdays, "20241201T000000Z", "20250107T090000Z"));
    const auto forever = event("f", "20250107T090000Z", "20250107T100000Z", "RRULE:FREQ=WEEKLY\r\n");
    EXPECT_TRUE(in_range(forever, "20450103T000000Z", "20450104T000000Z")) << "a Tuesday 20 years on";
    EXPECT_FALSE(in_range(forever, "20450104T000000Z", "20450105T000000Z")) << "the Wednesday after";
    EXPECT_TRUE(in_range(forever, "20450104T000000Z", "")) << "open end";
}

TEST(calendar_match, exdate_removes_an_instance_and_rdate_adds_one) {
    const auto ev = event("x", "20250107T090000Z", "20250107T100000Z",
                          "RRULE:FREQ=WEEKLY;COUNT=5\r\nEXDATE:20250114T090000Z\r\nRDATE:20250115T090000Z\r\n");
    EXPECT_FALSE(in_range(ev, "20250114T000000Z", "20250115T000000Z"));
    EXPECT_TRUE(in_range(ev, "20250115T000000Z", "20250116T000000Z"));
    EXPECT_TRUE(in_range(ev, "20250121T000000Z", "20250122T000000Z"));
    const auto days = vcalendar(
        vevent("d", "DTSTART;VALUE=DATE:20250107\r\nRRULE:FREQ=DAILY;COUNT=5\r\nEXDATE;VALUE=DATE:20250109\r\n"));
    EXPECT_FALSE(in_range(days, "20250109T000000Z", "20250110T000000Z"));
    EXPECT_TRUE(in_range(days, "20250110T000000Z", "20250111T000000Z"));
}

TEST(calendar_match, an_overridden_instance_is_judged_by_its_override) {
    const auto ev = vcalendar(
        vevent(
            "o",
            "DTSTART:20250107T090000Z\r\nDTEND:20250107T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\nSUMMARY:standup\r\n") +
        vevent("o",
               "RECURRENCE-ID:20250114T090000Z\r\nDTSTART:20250116T150000Z\r\nDTEND:20250116T160000Z\r\n"
               "SUMMARY:relocated\r\n"));
    EXPECT_FALSE(in_range(ev, "20250114T000000Z", "20250115T000000Z")) << "the instance moved away";
    EXPECT_TRUE(in_range(ev, "20250116T000000Z", "20250117T000000Z")) << "to Thursday";
    const auto moved = comp_xml("VEVENT", range_xml("20250116T000000Z", "20250117T000000Z") +
                                              "<C:prop-filter name=\"SUMMARY\"><C:text-match>relocated</C:text-match>"
                                              "</C:prop-filter>");
    EXPECT_TRUE(matches(moved, ev));
    const auto master_summary = comp_xml("VEVENT", range_xml("20250116T000000Z", "20250117T000000Z") +
                                                       "<C:prop-filter name=\"SUMMARY\"><C:text-match collation="
                                                       "\"i;octet\">standup</C:text-match></C:prop-filter>");
    EXPECT_FALSE(matches(master_summary, ev)) << "the master has no instance that Thursday";
}

TEST(calendar_match, reads_times_in_the_items_vtimezone) {
    const auto zoned = vcalendar(k_berlin_vtimezone + vevent("z",
                                                             "DTSTART;TZID=Europe/Berlin:20250310T090000\r\n"
                                                             "DTEND;TZID=Europe/Berlin:20250310T100000\r\n"));
    EXPECT_TRUE(in_range(zoned, "20250310T080000Z", "20250310T080100Z")) << "09:00 CET";
    EXPECT_FALSE(in_range(zoned, "20250310T090000Z", "20250310T100000Z"));
    EXPECT_FALSE(in_range(zoned, "20250311T000000Z", "20250312T000000Z")) << "the VTIMEZONE is no component";
}

TEST(calendar_match, resolves_a_tzid_without_vtimezone_from_the_system_database) {
    // Mondays at 09:00 in Berlin: 08:00 UTC in winter, 07:00 UTC from the end of March.
    const auto weekly = vcalendar(vevent("b",
                                         "DTSTART;TZID=Europe/Berlin:20250310T090000\r\n"
                                         "DTEND;TZID=Europe/Berlin:20250310T100000\r\nRRULE:FREQ=WEEKLY\r\n"));
    EXPECT_TRUE(in_range(weekly, "20250310T080000Z", "20250310T080100Z"));
    EXPECT_FALSE(in_range(weekly, "20250310T090000Z", "20250310T091000Z")) << "not read as UTC";
    EXPECT_TRUE(in_range(weekly, "20250407T070000Z", "20250407T070100Z")) << "summer time";
    EXPECT_FALSE(in_range(weekly, "20250407T080000Z", "20250407T081000Z"));
    const auto prefixed = vcalendar(vevent("m",
                                           "DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20250310T090000\r\n"
                                           "DURATION:PT1H\r\n"));
    EXPECT_TRUE(in_range(prefixed, "20250310T130000Z", "20250310T130100Z")) << "09:00 EDT";
}

TEST(calendar_match, keeps_items_it_cannot_read) {
    EXPECT_TRUE(in_range("not a calendar", "20250310T000000Z", "20250311T000000Z"));
    EXPECT_FALSE(in_range(vcalendar(vevent("u", "SUMMARY:s\r\n")), "20250310T000000Z", "20250311T000000Z"))
        << "a VEVENT without DTSTART overlaps nothing";
}

TEST(calendar_match, comp_filter_names_the_component) {
    const auto ev = event("e", "20250310T090000Z", "20250310T100000Z");
    const auto todo = vcalendar(vtodo("t", "SUMMARY:t\r\n"));
    EXPECT_TRUE(matches(comp_xml("VEVENT", ""), ev));
    EXPECT_FALSE(matches(comp_xml("VTODO", ""), ev));
    EXPECT_TRUE(matches(comp_xml("VTODO", ""), todo));
    EXPECT_TRUE(matches(comp_xml("VTODO", "<C:is-not-defined/>"), ev));
    EXPECT_FALSE(matches(comp_xml("VEVENT", "<C:is-not-defined/>"), ev));
    EXPECT_TRUE(matches("", ev)) << "VCALENDAR alone holds every object";
}

TEST(calendar_match, prop_filter_tests_presence_text_and_parameters) {
    const auto ev = event("e", "20250310T090000Z", "20250310T100000Z",
                          "CATEGORIES:ANNIVERSARY,PERSONAL\r\nCLASS:CONFIDENTIAL\r\n"
                          "ATTENDEE;PARTSTAT=ACCEPTED;CN=\"Ann Example\":mailto:ann@example.org\r\n");
    const auto prop = [](const std::string& name, const std::string& inner) {
        return comp_xml("VEVENT", "<C:prop-filter name=\"" + name + "\">" + inner + "</C:prop-filter>");
    };
    EXPECT_TRUE(matches(prop("CLASS", ""), ev));
    EXPECT_FALSE(matches(prop("LOCATION", ""), ev));
    EXPECT_TRUE(matches(prop("LOCATION", "<C:is-not-defined/>"), ev));
    EXPECT_FALSE(matches(prop("CLASS", "<C:is-not-defined/>"), ev));
    EXPECT_TRUE(matches(prop("UID", "<C:text-match>E</C:text-match>"), ev)) << "i;ascii-casemap by default";
    EXPECT_FALSE(matches(prop("UID", "<C:text-match collation=\"i;octet\">E</C:text-match>"), ev));
    EXPECT_TRUE(matches(prop("CATEGORIES", "<C:text-match collation=\"i;octet\">PERSON</C:text-match>"), ev));
    EXPECT_FALSE(matches(prop("CATEGORIES", "<C:text-match collation=\"i;octet\">personal</C:text-match>"), ev));
    EXPECT_TRUE(matches(prop("CLASS", "<C:text-match negate-condition=\"yes\">PUBLIC</C:text-match>"), ev));
    EXPECT_FALSE(matches(prop("CLASS", "<C:text-match negate-condition=\"yes\">conf</C:text-match>"), ev));
    EXPECT_TRUE(matches(prop("ATTENDEE",
                             "<C:param-filter name=\"PARTSTAT\"><C:text-match>accepted</C:text-match>"
                             "</C:param-filter>"),
                        ev));
    EXPECT_FALSE(matches(prop("ATTENDEE",
                              "<C:param-filter name=\"PARTSTAT\"><C:text-match>declined</C:text-match>"
                              "</C:param-filter>"),
                         ev));
    EXPECT_TRUE(matches(prop("ATTENDEE", "<C:param-filter name=\"ROLE\"><C:is-not-defined/></C:param-filter>"), ev));
    EXPECT_TRUE(matches(prop("ATTENDEE",
                             "<C:param-filter name=\"CN\"><C:text-match>ann ex</C:text-match>"
                             "</C:param-filter>"),
                        ev));
}

TEST(calendar_match, time_range_in_a_prop_filter_tests_a_date_property) {
    const auto todo = vcalendar(vtodo("t", "COMPLETED:20250312T101500Z\r\nDUE;VALUE=DATE:20250315\r\n"));
    const auto prop = [](const std::string& name, const std::string& start, const std::string& end) {
        return comp_xml("VTODO", "<C:prop-filter name=\"" + name + "\">" + range_xml(start, end) + "</C:prop-filter>");
    };
    EXPECT_TRUE(matches(prop("COMPLETED", "20250312T000000Z", "20250313T000000Z"), todo));
    EXPECT_FALSE(matches(prop("COMPLETED", "20250312T101501Z", "20250313T000000Z"), todo));
    EXPECT_TRUE(matches(prop("DUE", "20250315T120000Z", "20250315T130000Z"), todo)) << "the day of a DATE";
    EXPECT_FALSE(matches(prop("DUE", "20250316T000000Z", "20250317T000000Z"), todo));
    EXPECT_FALSE(matches(prop("SUMMARY", "20250101T000000Z", "20260101T000000Z"), todo));
}

TEST(calendar_match, nested_filters_must_all_hold_on_one_component) {
    const auto two = vcalendar(vevent("a", "DTSTART:20250310T090000Z\r\nSUMMARY:alpha\r\n") +
                               vevent("b", "DTSTART:20250410T090000Z\r\nSUMMARY:beta\r\n"));
    const auto both = [](const std::string& summary, const std::string& start, const std::string& end) {
        return comp_xml("VEVENT", range_xml(start, end) + "<C:prop-filter name=\"SUMMARY\"><C:text-match>" + summary +
                                      "</C:text-match></C:prop-filter>");
    };
    EXPECT_TRUE(matches(both("alpha", "20250310T000000Z", "20250311T000000Z"), two));
    EXPECT_FALSE(matches(both("beta", "20250310T000000Z", "20250311T000000Z"), two));
    EXPECT_TRUE(matches(both("beta", "20250410T000000Z", "20250411T000000Z"), two));
}

TEST(calendar_match, a_time_range_or_prop_filter_straight_in_vcalendar_speaks_of_its_components) {
    const auto ev = event("e", "20250310T090000Z", "20250310T100000Z");
    EXPECT_TRUE(matches(range_xml("20250310T000000Z", "20250311T000000Z"), ev));
    EXPECT_FALSE(matches(range_xml("20250311T000000Z", "20250312T000000Z"), ev));
    EXPECT_TRUE(matches("<C:prop-filter name=\"SUMMARY\"><C:text-match>e</C:text-match></C:prop-filter>", ev));
    EXPECT_TRUE(matches("<C:prop-filter name=\"VERSION\"><C:text-match>2.0</C:text-match></C:prop-filter>", ev));
    EXPECT_FALSE(matches("<C:prop-filter name=\"SUMMARY\"><C:text-match>zz</C:text-match></C:prop-filter>", ev));
}

// ---- VTODO (RFC 4791 9.9) ----

TEST(calendar_match, todo_with_start_and_due_overlaps_between_them) {
    const auto todo = vcalendar(vtodo("t", "DTSTART:20250310T090000Z\r\nDUE:20250312T090000Z\r\n"));
    EXPECT_TRUE(in_range(todo, "20250311T000000Z", "20250311T010000Z", "VTODO"));
    EXPECT_TRUE(in_range(todo, "20250312T080000Z", "20250313T000000Z", "VTODO"));
    EXPECT_FALSE(in_range(todo, "20250312T090000Z", "20250313T000000Z", "VTODO")) << "start < DUE";
    EXPECT_FALSE(in_range(todo, "20250301T000000Z", "20250310T090000Z", "VTODO")) << "end > DTSTART";
}

TEST(calendar_match, todo_with_start_and_duration) {
    const auto todo = vcalendar(vtodo("t", "DTSTART:20250310T090000Z\r\nDURATION:P1D\r\n"));
    EXPECT_TRUE(in_range(todo, "20250311T090000Z", "20250312T000000Z", "VTODO")) << "start <= DTSTART+DURATION";
    EXPECT_FALSE(in_range(todo, "20250311T090001Z", "20250312T000000Z", "VTODO"));
}

TEST(calendar_match, todo_with_start_only_is_the_start) {
    const auto todo = vcalendar(vtodo("t", "DTSTART:20250310T090000Z\r\n"));
    EXPECT_TRUE(in_range(todo, "20250310T090000Z", "20250310T090001Z", "VTODO"));
    EXPECT_FALSE(in_range(todo, "20250310T090001Z", "20250320T000000Z", "VTODO")) << "no infinite duration";
}

TEST(calendar_match, todo_with_due_only_is_the_due_date) {
    const auto todo = vcalendar(vtodo("t", "DUE:20250312T090000Z\r\n"));
    EXPECT_TRUE(in_range(todo, "20250312T000000Z", "20250312T090000Z", "VTODO")) << "end >= DUE";
    EXPECT_FALSE(in_range(todo, "20250312T090000Z", "20250313T000000Z", "VTODO")) << "start < DUE";
    EXPECT_FALSE(in_range(todo, "20250301T000000Z", "20250302T000000Z", "VTODO"));
}

TEST(calendar_match, undated_todos_by_completed_and_created) {
    const auto both = vcalendar(vtodo("t", "CREATED:20250301T000000Z\r\nCOMPLETED:20250305T000000Z\r\n"));
    EXPECT_TRUE(in_range(both, "20250302T000000Z", "20250303T000000Z", "VTODO"));
    EXPECT_FALSE(in_range(both, "20250306T000000Z", "20250307T000000Z", "VTODO"));
    const auto completed = vcalendar(vtodo("t", "COMPLETED:20250305T000000Z\r\n"));
    EXPECT_TRUE(in_range(completed, "20250305T000000Z", "20250305T000000Z", "VTODO"));
    EXPECT_FALSE(in_range(completed, "20250304T000000Z", "20250304T120000Z", "VTODO"));
    const auto created = vcalendar(vtodo("t", "CREATED:20250301T000000Z\r\n"));
    EXPECT_TRUE(in_range(created, "20250401T000000Z", "20250402T000000Z", "VTODO"));
    EXPECT_FALSE(in_range(created, "20250201T000000Z", "20250301T000000Z", "VTODO"));
    const auto none = vcalendar(vtodo("t", "SUMMARY:whenever\r\n"));
    EXPECT_TRUE(in_range(none, "19000101T000000Z", "19000102T000000Z", "VTODO"));
}

TEST(calendar_match, a_recurring_todo_moves_its_due_date_with_each_instance) {
    const auto todo = vcalendar(vtodo("t",
                                      "DTSTART:20250106T090000Z\r\nDUE:20250106T170000Z\r\n"
                                      "RRULE:FREQ=WEEKLY;BYDAY=MO\r\n"));
    EXPECT_TRUE(in_range(todo, "20250407T120000Z", "20250407T130000Z", "VTODO"));
    EXPECT_FALSE(in_range(todo, "20250408T120000Z", "20250408T130000Z", "VTODO"));
}

// ---- VJOURNAL, VFREEBUSY ----

TEST(calendar_match, journals_by_their_start) {
    const auto day = vcalendar("BEGIN:VJOURNAL\r\nUID:j\r\nDTSTART;VALUE=DATE:20250310\r\nEND:VJOURNAL\r\n");
    EXPECT_TRUE(in_range(day, "20250310T230000Z", "20250311T000000Z", "VJOURNAL"));
    EXPECT_FALSE(in_range(day, "20250311T000000Z", "20250312T000000Z", "VJOURNAL"));
    const auto undated = vcalendar("BEGIN:VJOURNAL\r\nUID:j\r\nSUMMARY:x\r\nEND:VJOURNAL\r\n");
    EXPECT_FALSE(in_range(undated, "19000101T000000Z", "21000101T000000Z", "VJOURNAL"));
}

TEST(calendar_match, freebusy_by_its_periods) {
    const auto fb = vcalendar(
        "BEGIN:VFREEBUSY\r\nUID:f\r\nFREEBUSY:20250310T090000Z/20250310T100000Z\r\n"
        "END:VFREEBUSY\r\n");
    EXPECT_TRUE(in_range(fb, "20250310T093000Z", "20250310T094000Z", "VFREEBUSY"));
    EXPECT_FALSE(in_range(fb, "20250310T100000Z", "20250310T110000Z", "VFREEBUSY"));
}

// ---- VALARM ----

bool alarm_in_range(const std::string& object, const std::string& start, const std::string& end,
                    const std::string& parent = "VEVENT") {
    return matches(comp_xml(parent, comp_xml("VALARM", range_xml(start, end))), object);
}

std::string with_alarm(const std::string& lines, const std::string& alarm) {
    return vcalendar(
        vevent("a", lines + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:soon\r\n" + alarm + "END:VALARM\r\n"));
}

TEST(calendar_match, an_alarm_fires_relative_to_its_event) {
    const auto ev = with_alarm("DTSTART:20250310T090000Z\r\nDTEND:20250310T100000Z\r\n", "TRIGGER:-PT15M\r\n");
    EXPECT_TRUE(alarm_in_range(ev, "20250310T084500Z", "20250310T084600Z"));
    EXPECT_FALSE(alarm_in_range(ev, "20250310T090000Z", "20250310T100000Z")) << "the event, not its alarm";
    const auto at_end =
        with_alarm("DTSTART:20250310T090000Z\r\nDTEND:20250310T100000Z\r\n", "TRIGGER;RELATED=END:PT5M\r\n");
    EXPECT_TRUE(alarm_in_range(at_end, "20250310T100500Z", "20250310T100600Z"));
    const auto absolute = with_alarm("DTSTART:20250310T090000Z\r\n", "TRIGGER;VALUE=DATE-TIME:20250301T120000Z\r\n");
    EXPECT_TRUE(alarm_in_range(absolute, "20250301T000000Z", "20250302T000000Z"));
    EXPECT_FALSE(alarm_in_range(absolute, "20250310T000000Z", "20250311T000000Z"));
}

TEST(calendar_match, an_alarm_repeats) {
    const auto ev = with_alarm("DTSTART:20250310T090000Z\r\n", "TRIGGER:-PT30M\r\nREPEAT:2\r\nDURATION:PT10M\r\n");
    EXPECT_TRUE(alarm_in_range(ev, "20250310T085000Z", "20250310T085100Z")) << "the second repetition";
    EXPECT_FALSE(alarm_in_range(ev, "20250310T085100Z", "20250310T090000Z"));
}

TEST(calendar_match, an_alarm_of_a_recurring_event_fires_for_every_instance) {
    const auto ev =
        with_alarm("DTSTART:20250107T090000Z\r\nDTEND:20250107T100000Z\r\nRRULE:FREQ=WEEKLY\r\n", "TRIGGER:-P1D\r\n");
    EXPECT_TRUE(alarm_in_range(ev, "20250901T000000Z", "20250902T000000Z")) << "the Monday before Tuesday 2 September";
    EXPECT_FALSE(alarm_in_range(ev, "20250902T000000Z", "20250903T000000Z"));
}

TEST(calendar_match, an_alarm_of_a_todo_relative_to_its_due_date) {
    const auto todo = vcalendar(vtodo("t",
                                      "DTSTART:20250310T090000Z\r\nDUE:20250312T090000Z\r\n"
                                      "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=END:-PT1H\r\n"
                                      "END:VALARM\r\n"));
    EXPECT_TRUE(alarm_in_range(todo, "20250312T080000Z", "20250312T080100Z", "VTODO"));
    EXPECT_FALSE(alarm_in_range(todo, "20250310T080000Z", "20250310T080100Z", "VTODO"));
}

}  // namespace
}  // namespace syncml::dav::query
