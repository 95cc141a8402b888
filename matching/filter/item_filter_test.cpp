// Record filters evaluated against parsed contacts, events, tasks and memos: each operator, each kind of
// property, date windows under an injected clock, and the filter types.
#include "matching/filter/item_filter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <vector>

#include "matching/calendar/calendar_values.hpp"
#include "matching/convert/item_format.hpp"
#include "matching/convert/item_test_support.hpp"
#include "matching/filter/filter_cgi.hpp"

namespace syncml::matching {
namespace {

using clock_point = std::chrono::system_clock::time_point;

clock_point day(int y, int m, int d) { return clock_point(std::chrono::seconds(days_from_civil(y, m, d) * 86400)); }

item parse(std::string_view text, item_dialect dialect) { return testing::parse_or_fail(text, dialect); }

item vcard(std::string_view body) {
    return parse("BEGIN:VCARD\r\nVERSION:3.0\r\n" + std::string(body) + "END:VCARD\r\n", item_dialect::vcard30);
}

item ical(std::string_view component, std::string_view extra = "") {
    return parse("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + std::string(extra) +
                     std::string(component) + "END:VCALENDAR\r\n",
                 item_dialect::ical20);
}

item event(std::string_view props) {
    return ical("BEGIN:VEVENT\r\nUID:e1\r\n" + std::string(props) + "END:VEVENT\r\n");
}
item task(std::string_view props) { return ical("BEGIN:VTODO\r\nUID:t1\r\n" + std::string(props) + "END:VTODO\r\n"); }

bool holds(std::string_view cgi, const item& value, clock_point now = day(2026, 6, 1)) {
    auto f = parse_filter_cgi(cgi);
    EXPECT_TRUE(f) << cgi << ": " << (f ? "" : f.error().message);
    return f && matches(f->record, value, now);
}

// Each filter in `cases` holds for `value` or not, as given.
void expect_filters(const item& value, std::initializer_list<std::pair<std::string_view, bool>> cases) {
    for (auto [cgi, expected] : cases) EXPECT_EQ(holds(cgi, value), expected) << cgi;
}

const item& anna() {
    static const item k_anna = vcard(
        "N:M\xC3\xBCller;Anna;Maria;;\r\nFN:Anna M\xC3\xBCller\r\nORG:Example GmbH;Sales\r\n"
        "TEL;TYPE=CELL:+49 171 1234567\r\nTEL;TYPE=HOME:+49 30 7654321\r\nEMAIL:anna@example.org\r\n"
        "ADR;TYPE=WORK:;;Hauptstr. 1;Berlin;;10115;Germany\r\nCATEGORIES:Work,Friends\r\n"
        "REV:20260115T120000Z\r\nX-SPOUSE:Bob\r\n");
    return k_anna;
}

TEST(record_filter, compares_contact_text_properties_with_each_operator) {
    expect_filters(anna(), {
                               {"FN&EQ;Anna M\xC3\xBCller", true},
                               {"FN&EQ;anna m\xC3\xBCller", false},
                               {"FN&iEQ;ANNA M\xC3\x9CLLER", true},
                               {"FN&NE;Bob", true},
                               {"FN&NE;Anna M\xC3\xBCller", false},
                               {"FN&LT;Bob", true},
                               {"FN&GT;Bob", false},
                               {"FN&GE;Anna M\xC3\xBCller", true},
                               {"FN&LE;Anna M\xC3\xBCller", true},
                               {"FN&CON;M\xC3\xBCll", true},
                               {"FN&CON;m\xC3\xBCll", false},
                               {"FN&iCON;m\xC3\xBCll", true},
                               {"FN&NCON;Bob", true},
                               {"FN&iNCON;anna", false},
                           });
}

TEST(record_filter, treats_multi_valued_properties_as_any_for_positive_and_none_for_negative_operators) {
    EXPECT_TRUE(holds("CATEGORIES&EQ;Work", anna()));
    EXPECT_TRUE(holds("CATEGORIES&iEQ;friends", anna()));
    EXPECT_FALSE(holds("CATEGORIES&EQ;Family", anna()));
    // Not equal means "not in that category", although another category differs.
    EXPECT_FALSE(holds("CATEGORIES&NE;Work", anna()));
    EXPECT_TRUE(holds("CATEGORIES&NE;Family", anna()));
    EXPECT_FALSE(holds("CATEGORIES&NCON;ork", anna()));
    EXPECT_TRUE(holds("CATEGORIES&NE;Work", vcard("FN:Bob\r\n")));
}

TEST(record_filter, reads_structured_parts_and_parameters) {
    expect_filters(anna(), {
                               {"N.FAMILY&EQ;M\xC3\xBCller", true},
                               {"N.2&EQ;Anna", true},
                               {"N.GIVEN&EQ;M\xC3\xBCller", false},
                               {"N&EQ;M\xC3\xBCller;Anna;Maria;;", true},
                               {"ORG.NAME&EQ;Example GmbH", true},
                               {"ORG.UNIT&EQ;Sales", true},
                               {"ORG&iCON;gmbh", true},
                               {"ADR.LOCALITY&EQ;Berlin", true},
                               {"ADR[TYPE=WORK].CODE&EQ;10115", true},
                               {"ADR[TYPE=HOME].LOCALITY&EQ;Berlin", false},
                               {"TEL[TYPE=CELL]&CON;171", true},
                               {"TEL[TYPE=HOME]&CON;171", false},
                               {"TEL[TYPE=cell]&CON;171", true},
                               {"EMAIL&iEQ;ANNA@example.org", true},
                               {"X-SPOUSE&EQ;Bob", true},
                           });
}

TEST(record_filter, compares_null_as_absent_or_empty) {
    expect_filters(anna(), {
                               {"PHOTO&EQ;&NULL;", true},
                               {"PHOTO&NE;&NULL;", false},
                               {"NOTE&EQ;", true},
                               {"EMAIL&NE;&NULL;", true},
                               {"EMAIL&CON;&NULL;", false},
                           });
}

TEST(record_filter, compares_dates_as_instants) {
    expect_filters(anna(), {
                               {"LAST-MODIFIED&GE;20260101T000000Z", true},
                               {"REV&LT;2026-02-01", true},
                               {"modified&EQ;20260115T120000Z", true},
                               {"LAST-MODIFIED&GT;20260115T120000Z", false},
                           });
    // 09:00 in Berlin (winter) is 08:00 UTC.
    item berlin =
        ical("BEGIN:VEVENT\r\nUID:b\r\nDTSTART;TZID=Europe/Berlin:20260115T090000\r\nSUMMARY:Standup\r\nEND:VEVENT\r\n",
             "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
             "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
             "BEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n"
             "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n");
    EXPECT_TRUE(holds("DTSTART&EQ;20260115T080000Z", berlin));
    EXPECT_FALSE(holds("DTSTART&GT;20260115T080000Z", berlin));
    EXPECT_TRUE(holds("DTSTART&CON;20260115", berlin));
}

TEST(record_filter, compares_numbers_numerically) {
    item urgent = task("SUMMARY:Pay\r\nPRIORITY:1\r\nPERCENT-COMPLETE:50\r\n");
    EXPECT_TRUE(holds("PRIORITY&LE;2", urgent));
    EXPECT_FALSE(holds("PRIORITY&GT;2", urgent));
    EXPECT_TRUE(holds("PERCENT-COMPLETE&LT;100", urgent));
    EXPECT_FALSE(holds("PERCENT-COMPLETE&LT;9", urgent));  // as text "50" < "9"; as numbers not
    EXPECT_TRUE(holds("PRIORITY&EQ;&NULL;", task("SUMMARY:Later\r\n")));
}

TEST(record_filter, evaluates_memos_and_calendar_text) {
    item note = parse("Shopping\nmilk\neggs", item_dialect::plain_text);
    EXPECT_TRUE(holds("SUMMARY&EQ;Shopping", note));
    EXPECT_TRUE(holds("BODY&CON;eggs", note));
    item meeting = event("DTSTART:20260115T100000Z\r\nSUMMARY:Budget\r\nLOCATION:Room 4\r\nCATEGORIES:WORK\r\n");
    EXPECT_TRUE(holds("SUMMARY&iCON;budget&AND;LOCATION&CON;4", meeting));
    EXPECT_TRUE(holds("CATEGORIES&EQ;WORK", meeting));
    EXPECT_FALSE(holds("CATEGORIES&EQ;WORK&AND;SUMMARY&EQ;Lunch", meeting));
    EXPECT_TRUE(holds("CATEGORIES&EQ;HOME&OR;SUMMARY&EQ;Budget", meeting));
    EXPECT_TRUE(holds("(CATEGORIES&EQ;HOME|SUMMARY&EQ;Budget)&LOCATION&CON;Room", meeting));
    EXPECT_FALSE(holds("(CATEGORIES&EQ;HOME|SUMMARY&EQ;Lunch)&LOCATION&CON;Room", meeting));
}

TEST(record_filter, treats_a_node_pointing_forward_as_false_instead_of_looping) {
    record_filter f;
    f.where.nodes.push_back(filter_node{.kind = node_kind::any_of, .term = {}, .children = {0}});
    f.where.root = 0;
    EXPECT_FALSE(matches(f, anna(), day(2026, 1, 1)));
    f.where.root = 5;
    EXPECT_FALSE(matches(f, anna(), day(2026, 1, 1)));
}

// ---- date windows ----

record_filter window_days(std::int64_t from, std::int64_t to) {
    record_filter f;
    f.windows.push_back(date_window{.field = window_field::span,
                                    .from = window_bound{.relative = true, .seconds = 0, .days = from},
                                    .to = window_bound{.relative = true, .seconds = 0, .days = to}});
    return f;
}

TEST(date_window, holds_events_that_overlap_it_and_follows_the_clock) {
    auto window = window_days(-30, 365);
    item e = event("DTSTART:20260301T100000Z\r\nDTEND:20260301T110000Z\r\nSUMMARY:Dentist\r\n");
    EXPECT_TRUE(matches(window, e, day(2026, 3, 1)));
    EXPECT_TRUE(matches(window, e, day(2026, 3, 30)));  // 29 days later: still inside
    EXPECT_FALSE(matches(window, e, day(2026, 4, 1)));  // 31 days later: moved out
    EXPECT_FALSE(matches(window, e, day(2025, 2, 1)));  // more than a year ahead: not yet in
    EXPECT_TRUE(matches(window, e, day(2025, 3, 2)));   // 364 days ahead: moved in
}

TEST(date_window, holds_a_long_event_that_spans_it) {
    auto window = window_days(0, 1);
    item trip = event("DTSTART;VALUE=DATE:20260101\r\nDTEND;VALUE=DATE:20260201\r\nSUMMARY:Trip\r\n");
    EXPECT_TRUE(matches(window, trip, day(2026, 1, 15)));
    EXPECT_FALSE(matches(window, trip, day(2026, 2, 1)));  // DTEND is exclusive
    item all_day = event("DTSTART;VALUE=DATE:20260110\r\nSUMMARY:Holiday\r\n");
    EXPECT_TRUE(matches(window_days(-1, 0), all_day, day(2026, 1, 10) + std::chrono::hours(23)));
}

TEST(date_window, counts_recurring_events_by_their_whole_span) {
    auto window = window_days(-30, 365);
    auto now = day(2026, 6, 1);
    item weekly_forever = event("DTSTART:20160104T090000Z\r\nDTEND:20160104T100000Z\r\nRRULE:FREQ=WEEKLY\r\n");
    EXPECT_TRUE(matches(window, weekly_forever, now));
    item ended = event("DTSTART:20160104T090000Z\r\nRRULE:FREQ=WEEKLY;UNTIL=20251231T000000Z\r\n");
    EXPECT_FALSE(matches(window, ended, now));
    item still_running = event("DTSTART:20160104T090000Z\r\nRRULE:FREQ=WEEKLY;UNTIL=20260520T000000Z\r\n");
    EXPECT_TRUE(matches(window, still_running, now));
    item ten_days = event("DTSTART:20250101T090000Z\r\nRRULE:FREQ=DAILY;COUNT=10\r\n");
    EXPECT_FALSE(matches(window, ten_days, now));
    item future_series = event("DTSTART:20270701T090000Z\r\nRRULE:FREQ=DAILY;COUNT=10\r\n");
    EXPECT_FALSE(matches(window, future_series, now));  // starts after the window's end
}

TEST(date_window, reads_vcalendar_10_rules_from_phones) {
    auto window = window_days(-30, 365);
    auto now = day(2026, 6, 1);
    auto vcal = [](std::string_view rule) {
        return parse(
            "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nDTSTART:20160104T090000Z\r\n"
            "DTEND:20160104T100000Z\r\nRRULE:" +
                std::string(rule) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            item_dialect::vcal10);
    };
    EXPECT_TRUE(matches(window, vcal("W1 MO #0"), now));                 // forever
    EXPECT_FALSE(matches(window, vcal("D1 #10"), now));                  // ten days in 2016
    EXPECT_FALSE(matches(window, vcal("W1 MO 20201231T000000Z"), now));  // ended in 2020
    EXPECT_TRUE(matches(window, vcal("MD1 4 20260515T000000Z"), now));   // until last month
}

// The acceptance case at the model level: 2000 events over 10 years (every 44 hours, one to three hours
// long, every tenth one a weekly series of 8) and a -30/+365 day window hold exactly the events that overlap it.
TEST(date_window, selects_exactly_the_overlapping_events_of_a_ten_year_calendar) {
    auto now = day(2026, 6, 1);
    auto window = window_days(-30, 365);
    std::int64_t from = days_from_civil(2026, 6, 1) * 86400 - 30 * 86400;
    std::int64_t to = days_from_civil(2026, 6, 1) * 86400 + 365 * 86400;
    std::int64_t first = days_from_civil(2018, 1, 1) * 86400;
    int expected = 0;
    std::vector<item> events;
    for (int i = 0; i < 2000; ++i) {
        std::int64_t begin = first + std::int64_t{i} * 44 * 3600;
        std::int64_t length = (1 + i % 3) * 3600;
        bool series = i % 10 == 0;
        std::int64_t end = begin + length + (series ? 7 * 7 * 86400 : 0);
        if (begin < to && end > from) ++expected;
        auto stamp = [](std::int64_t t) { return format_date_time(from_epoch_seconds(t, true, "")); };
        events.push_back(event("DTSTART:" + stamp(begin) + "\r\nDTEND:" + stamp(begin + length) + "\r\n" +
                               (series ? "RRULE:FREQ=WEEKLY;UNTIL=" + stamp(begin + 7 * 7 * 86400) + "\r\n" : "")));
    }
    auto started = std::chrono::steady_clock::now();
    auto inside = std::count_if(events.begin(), events.end(), [&](const item& e) { return matches(window, e, now); });
    auto elapsed = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(inside, expected);
    EXPECT_GT(expected, 150);
    std::cerr << inside << " of 2000 events inside, matched in "
              << std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count() << " us\n";
}

TEST(date_window, places_tasks_by_due_then_start_and_keeps_undated_items) {
    auto window = window_days(-30, 30);
    auto now = day(2026, 6, 1);
    EXPECT_TRUE(matches(window, task("DUE:20260610T000000Z\r\nDTSTART:20200101T000000Z\r\n"), now));
    EXPECT_FALSE(matches(window, task("DUE:20270101T000000Z\r\n"), now));
    EXPECT_TRUE(matches(window, task("DTSTART:20260520T000000Z\r\n"), now));
    EXPECT_TRUE(matches(window, task("SUMMARY:Someday\r\n"), now));
    EXPECT_TRUE(matches(window, anna(), now));
    EXPECT_TRUE(matches(window, parse("memo", item_dialect::plain_text), now));
}

TEST(date_window, takes_absolute_bounds_from_since_and_before) {
    auto f = parse_filter_cgi("SINCE&EQ;20260101T000000Z&AND;BEFORE&EQ;20260201T000000Z");
    ASSERT_TRUE(f);
    auto now = day(2030, 1, 1);  // absolute bounds do not move
    EXPECT_TRUE(matches(f->record, event("DTSTART:20260115T100000Z\r\n"), now));
    EXPECT_FALSE(matches(f->record, event("DTSTART:20260215T100000Z\r\n"), now));
    EXPECT_FALSE(matches(f->record, event("DTSTART:20251215T100000Z\r\n"), now));
}

TEST(date_window, filters_by_last_modified) {
    record_filter f;
    f.windows.push_back(date_window{.field = window_field::last_modified,
                                    .from = window_bound{.relative = true, .seconds = 0, .days = -7},
                                    .to = std::nullopt});
    EXPECT_TRUE(matches(f, anna(), day(2026, 1, 20)));
    EXPECT_FALSE(matches(f, anna(), day(2026, 2, 20)));
    EXPECT_TRUE(matches(f, event("DTSTART:20260115T100000Z\r\nLAST-MODIFIED:20260218T000000Z\r\n"), day(2026, 2, 20)));
    EXPECT_TRUE(matches(f, vcard("FN:Undated\r\n"), day(2026, 2, 20)));
}

TEST(date_window, combines_with_the_expression) {
    auto f = parse_filter_cgi("CATEGORIES&EQ;WORK");
    ASSERT_TRUE(f);
    f->record.windows = window_days(-30, 365).windows;
    auto now = day(2026, 1, 1);
    EXPECT_TRUE(matches(f->record, event("DTSTART:20260115T100000Z\r\nCATEGORIES:WORK\r\n"), now));
    EXPECT_FALSE(matches(f->record, event("DTSTART:20260115T100000Z\r\nCATEGORIES:HOME\r\n"), now));
    EXPECT_FALSE(matches(f->record, event("DTSTART:20280115T100000Z\r\nCATEGORIES:WORK\r\n"), now));
}

TEST(filter_type, reads_inclusive_and_exclusive_with_exclusive_as_default) {
    EXPECT_EQ(parse_filter_type("INCLUSIVE"), filter_semantics::inclusive);
    EXPECT_EQ(parse_filter_type(" inclusive\n"), filter_semantics::inclusive);
    EXPECT_EQ(parse_filter_type("EXCLUSIVE"), filter_semantics::exclusive);
    EXPECT_EQ(parse_filter_type(""), filter_semantics::exclusive);
    EXPECT_FALSE(parse_filter_type("SOMETIMES"));
}

}  // namespace
}  // namespace syncml::matching
