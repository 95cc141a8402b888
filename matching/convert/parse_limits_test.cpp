// Hostile items (issue 15): whatever the nesting, line count, parameter count or folding of an item a device sends,
// parsing refuses it or parses it in linear time; it never overflows the stack. Assertions are on results and
// limits; the attack sizes are those that crashed or pinned a worker before the limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/content/content_line.hpp"
#include "matching/convert/item_format.hpp"

namespace syncml::matching {
namespace {

constexpr std::size_t k_megabyte = 1 << 20;

std::string repeat(std::string_view text, std::size_t times) {
    std::string out;
    out.reserve(text.size() * times);
    for (std::size_t i = 0; i < times; ++i) out += text;
    return out;
}

std::string event(std::string_view body) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20240101T100000Z\r\n" +
           std::string(body) + "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

std::string card(std::string_view body) {
    return "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;John\r\n" + std::string(body) + "END:VCARD\r\n";
}

// The error's message when `data` is refused, "parsed" otherwise.
std::string outcome(std::string_view data, item_dialect dialect) {
    auto parsed = parse_item(data, dialect);
    return parsed ? "parsed" : parsed.error().message;
}

bool mentions(const std::string& text, std::string_view word) { return text.find(word) != std::string::npos; }

const property* find_extra(const std::vector<property>& extra, std::string_view name) {
    auto it = std::find_if(extra.begin(), extra.end(), [&](const property& p) { return p.name == name; });
    return it == extra.end() ? nullptr : &*it;
}

TEST(parse_limits, the_450000_nested_begin_lines_that_crashed_the_server_are_refused) {
    std::string data = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + repeat("BEGIN:VEVENT\r\n", 450000);
    EXPECT_NE(outcome(data, item_dialect::ical20), "parsed");
    EXPECT_NE(outcome(data, item_dialect::vcal10), "parsed");
}

TEST(parse_limits, components_nested_deeper_than_the_cap_are_refused_within_the_line_cap) {
    const parse_limits limits;
    std::string ok =
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nBEGIN:VALARM\r\n" + repeat("BEGIN:X\r\n", limits.max_depth - 3);
    EXPECT_TRUE(parse_calendars(ok, calendar_version::ical20));
    std::string deep = ok + "BEGIN:X\r\n";
    auto parsed = parse_calendars(deep, calendar_version::ical20);
    ASSERT_FALSE(parsed);
    EXPECT_TRUE(mentions(parsed.error().message, "nested")) << parsed.error().message;
    // Thousands of open components and stray ENDs: each END used to scan the whole stack of open ones.
    std::string stray_ends = "BEGIN:VCALENDAR\r\n" + repeat("BEGIN:A\r\n", 4000) + repeat("END:B\r\n", 5000);
    EXPECT_FALSE(parse_calendars(stray_ends, calendar_version::ical20));
}

TEST(parse_limits, nested_vcards_deeper_than_the_cap_are_refused) {
    std::string data = repeat("BEGIN:VCARD\r\n", parse_limits{}.max_depth + 1) + "FN:x\r\n";
    EXPECT_TRUE(mentions(outcome(data, item_dialect::vcard21), "nested"));
}

TEST(parse_limits, stray_end_lines_are_skipped) {
    auto parsed = parse_item(event(repeat("END:X\r\n", 5000) + "SUMMARY:after\r\n"), item_dialect::ical20);
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    EXPECT_EQ(std::get<calendar>(*parsed).components.at(0).summary, "after");
    auto contact_item = parse_item(card(repeat("END:X\r\n", 5000) + "FN:after\r\n"), item_dialect::vcard21);
    ASSERT_TRUE(contact_item) << contact_item.error().to_string();
    EXPECT_EQ(std::get<contact>(*contact_item).formatted_name, "after");
}

TEST(parse_limits, more_content_lines_than_the_cap_are_refused) {
    const std::size_t cap = parse_limits{}.max_lines;
    EXPECT_EQ(outcome(event(repeat("X-A:1\r\n", cap - 10)), item_dialect::ical20), "parsed");
    EXPECT_TRUE(mentions(outcome(event(repeat("X-A:1\r\n", cap)), item_dialect::ical20), "content lines"));
    EXPECT_TRUE(mentions(outcome(card(repeat("TEL:1\r\n", cap)), item_dialect::vcard21), "content lines"));
    // A megabyte of the shortest lines, and a megabyte of separate cards.
    EXPECT_NE(outcome(event(repeat("X:\r\n", k_megabyte / 4)), item_dialect::ical20), "parsed");
    EXPECT_NE(outcome(repeat("BEGIN:VCARD\r\nFN:x\r\nEND:VCARD\r\n", k_megabyte / 30), item_dialect::vcard21),
              "parsed");
    // Whole exports pass with limits of their own.
    parse_limits export_limits{.max_lines = 2 * cap};
    EXPECT_TRUE(read_content_lines(event(repeat("X-A:1\r\n", cap)), export_limits));
}

TEST(parse_limits, blank_lines_do_not_count_as_content_lines) {
    auto parsed = parse_item(event(repeat("\r\n", k_megabyte / 2) + "SUMMARY:x\r\n"), item_dialect::ical20);
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    EXPECT_EQ(std::get<calendar>(*parsed).components.at(0).summary, "x");
}

TEST(parse_limits, thousands_of_type_parameters_are_refused) {
    EXPECT_TRUE(mentions(outcome(card("TEL" + repeat(";HOME", 5000) + ":1\r\n"), item_dialect::vcard21), "parameters"));
    EXPECT_TRUE(mentions(outcome(card("TEL;TYPE=HOME" + repeat(",WORK", 5000) + ":1\r\n"), item_dialect::vcard30),
                         "parameters"));
    // Distinct parameters first made every later TYPE scan all of them.
    std::string mixed = "TEL";
    for (int i = 0; i < 2000; ++i) mixed += ";X-P" + std::to_string(i) + "=1";
    EXPECT_TRUE(mentions(outcome(card(mixed + repeat(";HOME", 2000) + ":1\r\n"), item_dialect::vcard21), "parameters"));
    EXPECT_TRUE(
        mentions(outcome(event("X-A" + repeat(";A", k_megabyte / 2) + ":1\r\n"), item_dialect::ical20), "parameters"));
}

TEST(parse_limits, a_line_may_have_as_many_parameter_values_as_the_cap) {
    const std::size_t cap = parse_limits{}.max_params_per_line;
    auto parsed = parse_item(card("TEL" + repeat(";HOME", cap - 1) + ";VOICE:1\r\n"), item_dialect::vcard21);
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    const auto& phones = std::get<contact>(*parsed).phones;
    ASSERT_EQ(phones.size(), 1u);
    EXPECT_EQ(phones[0].types.size(), cap);
    EXPECT_EQ(phones[0].types.back(), "VOICE");
    EXPECT_NE(outcome(card("TEL" + repeat(";HOME", cap) + ";VOICE:1\r\n"), item_dialect::vcard21), "parsed");
}

TEST(parse_limits, the_parameters_of_the_whole_item_are_capped) {
    const parse_limits limits;
    std::string line = "X-A" + repeat(";P=1", limits.max_params_per_line - 1) + ":1\r\n";
    std::size_t lines = limits.max_params / (limits.max_params_per_line - 1);
    EXPECT_TRUE(read_content_lines(repeat(line, lines)));
    auto over = read_content_lines(repeat(line, lines + 1));
    ASSERT_FALSE(over);
    EXPECT_TRUE(mentions(over.error().message, "parameters"));
}

TEST(parse_limits, a_megabyte_of_folded_header_parses_in_one_pass) {
    const std::size_t folds = k_megabyte / 4;
    for (auto dialect : {item_dialect::ical20, item_dialect::vcal10}) {
        auto parsed = parse_item(event("X-A;P=\r\n" + repeat(" a\r\n", folds) + " :v\r\n"), dialect);
        ASSERT_TRUE(parsed) << parsed.error().to_string();
        const property* p = find_extra(std::get<calendar>(*parsed).components.at(0).extra, "X-A");
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(p->value, "v");
        ASSERT_EQ(p->params.size(), 1u);
        ASSERT_EQ(p->params[0].values.size(), 1u);
        EXPECT_TRUE(p->params[0].values[0] == std::string(folds, 'a'));
    }
    auto contact_item = parse_item(card("TEL;X-P=\r\n" + repeat(" 1\r\n", folds) + " :+1\r\n"), item_dialect::vcard21);
    ASSERT_TRUE(contact_item) << contact_item.error().to_string();
    EXPECT_EQ(std::get<contact>(*contact_item).phones.at(0).extra_params.at(0).values.at(0).size(), folds);
}

TEST(parse_limits, a_header_folded_through_empty_fold_lines_parses) {
    // The fuzzer's find: a fold line of a single space adds nothing to the header being scanned.
    auto lines = read_content_lines("X-A;P=a\r\n \r\n \r\n ;Q=\"b:\"\r\n \r\n :v\r\nX-B:w\r\n");
    ASSERT_TRUE(lines) << lines.error().to_string();
    ASSERT_EQ(lines->size(), 2u);
    const content_line& a = lines->front();
    EXPECT_EQ(a.value, "v");
    ASSERT_EQ(a.params.size(), 2u);
    EXPECT_EQ(a.params[0].values, std::vector<std::string>{"a"});
    EXPECT_EQ(a.params[1].values, std::vector<std::string>{"b:"});
    EXPECT_EQ(lines->back().value, "w");
    auto unterminated = read_content_lines("X-A;P=a\r\n \r\n ");
    ASSERT_TRUE(unterminated) << unterminated.error().to_string();
    EXPECT_EQ(unterminated->front().name, "X-A");
}

TEST(parse_limits, a_megabyte_of_folded_value_and_of_soft_line_breaks_parses) {
    const std::size_t folds = k_megabyte / 4;
    auto parsed = parse_item(event("SUMMARY:\r\n" + repeat(" a\r\n", folds)), item_dialect::ical20);
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    // EXPECT_TRUE: a failing EXPECT_EQ would print the megabyte.
    EXPECT_TRUE(std::get<calendar>(*parsed).components.at(0).summary == std::string(folds, 'a'));
    auto note =
        parse_item(card("NOTE;ENCODING=QUOTED-PRINTABLE:" + repeat("a=\r\n", folds) + "b\r\n"), item_dialect::vcard21);
    ASSERT_TRUE(note) << note.error().to_string();
    EXPECT_TRUE(std::get<contact>(*note).note == std::string(folds, 'a') + "b");
    auto breaks = parse_item(card("NOTE;ENCODING=QUOTED-PRINTABLE:" + repeat("=\r\n", k_megabyte / 3) + "b\r\n"),
                             item_dialect::vcard21);
    ASSERT_TRUE(breaks) << breaks.error().to_string();
    EXPECT_EQ(std::get<contact>(*breaks).note, "b");
}

TEST(parse_limits, each_vcalendar_hint_is_read_once) {
    // Every hint used to replay all earlier ones: 5000 of them cost 12 million property reads.
    const std::size_t hints = 5000;
    std::string data = "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nDTSTART:20240101T100000Z\r\n";
    data += repeat("X-SYNCML-ICAL-EXDATE:20240201T100000Z\r\n", hints);
    data += "X-SYNCML-ICAL-SUMMARY:first\r\nX-SYNCML-ICAL-SUMMARY:second\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    auto parsed = parse_item(data, item_dialect::vcal10);
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    const calendar_component& c = std::get<calendar>(*parsed).components.at(0);
    EXPECT_EQ(c.exdates.size(), hints);
    EXPECT_EQ(c.summary, "first");
    // The second SUMMARY filled nothing: it stays as an extra property, under its iCalendar name.
    const property* second = find_extra(c.extra, "SUMMARY");
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->value, "second");
}

TEST(parse_limits, a_megabyte_of_list_separators_makes_a_bounded_list) {
    auto parsed = parse_item(
        card("CATEGORIES:" + std::string(k_megabyte, ',') + "\r\nADR:" + std::string(k_megabyte, ';') + "\r\n"),
        item_dialect::vcard30);
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    const contact& c = std::get<contact>(*parsed);
    EXPECT_EQ(c.categories.size(), k_max_list_parts);
    ASSERT_EQ(c.addresses.size(), 1u);
    EXPECT_EQ(c.addresses[0].country.size(), k_megabyte - 6);  // the parts past the cap, separators kept
    auto event_item = parse_item(event("CATEGORIES:" + std::string(k_megabyte, ',') + "\r\n"), item_dialect::ical20);
    ASSERT_TRUE(event_item) << event_item.error().to_string();
    EXPECT_EQ(std::get<calendar>(*event_item).components.at(0).categories.size(), k_max_list_parts);
    EXPECT_EQ(split_escaped("a;b\\;c;d", ';', 2), (std::vector<std::string>{"a", "b\\;c;d"}));
}

TEST(parse_limits, a_rule_of_a_megabyte_stays_text) {
    std::string days = "MO";
    for (std::size_t i = 0; i < k_megabyte / 3; ++i) days += ",MO";
    EXPECT_FALSE(parse_rrule("FREQ=YEARLY;BYDAY=" + days));
    EXPECT_FALSE(parse_vcal_rule("MD1 " + repeat("1 ", k_megabyte / 2) + "#5"));
    auto parsed = parse_item(event("RRULE:FREQ=YEARLY;BYDAY=" + days + "\r\n"), item_dialect::ical20);
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    const calendar_component& c = std::get<calendar>(*parsed).components.at(0);
    EXPECT_TRUE(c.rrules.empty());
    ASSERT_NE(find_extra(c.extra, "RRULE"), nullptr);
    EXPECT_TRUE(parse_rrule("FREQ=YEARLY;BYYEARDAY=" + repeat("100,", 365) + "100"));
}

TEST(parse_limits, a_zone_of_many_rules_over_a_thousand_years_gives_a_bounded_vcalendar) {
    timezone_def tz{"Z", {}, {}};
    for (int i = 0; i < 20; ++i) {
        tz_observance standard{false, date_time{1970, 10, 25, 3, 0, 0, false, false, {}}, "+0200", "+0100",
                               "CET", parse_rrule("FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"),   {},      {}};
        tz_observance daylight{true,   date_time{1970, 3, 29, 2, 0, 0, false, false, {}}, "+0100", "+0200",
                               "CEST", parse_rrule("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"),   {},      {}};
        tz.observances.push_back(standard);
        tz.observances.push_back(daylight);
    }
    auto lines = timezone_to_vcal(tz, 1000, 2000);
    std::size_t daylight_lines =
        std::count_if(lines.begin(), lines.end(), [](auto& l) { return l.first == "DAYLIGHT"; });
    EXPECT_GT(daylight_lines, 0u);
    EXPECT_LE(daylight_lines, 200u);
    // A real zone still gets a DAYLIGHT line for each year of the item.
    timezone_def berlin{"Europe/Berlin", {tz.observances[0], tz.observances[1]}, {}};
    auto real = timezone_to_vcal(berlin, 2024, 2025);
    ASSERT_EQ(real.size(), 3u);
    EXPECT_EQ(real[1].second, "TRUE;+02:00;20240331T010000Z;20241027T010000Z;CET;CEST");
    EXPECT_EQ(real[2].second, "TRUE;+02:00;20250330T010000Z;20251026T010000Z;CET;CEST");
}

}  // namespace
}  // namespace syncml::matching
