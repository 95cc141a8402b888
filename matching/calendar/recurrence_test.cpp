// Recurrence conversion checked against occurrences: libical expands the original RRULE and the rule after a
// trip through the vCalendar 1.0 grammar; both must give the same dates.
#include <gtest/gtest.h>

#include <memory>

#ifdef SYNCML_HAVE_LIBICAL
#include <libical/ical.h>
// icalvcal.h lacks the C linkage guard that vcc.h has.
extern "C" {
#include <libical/icalvcal.h>
}
#include <libical/vcc.h>
#endif

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/calendar/vcal_rule_choice.hpp"
#include "matching/convert/corpus_test_support.hpp"
#include "matching/convert/item_format.hpp"

namespace syncml::matching {
namespace {

TEST(vcal_rule, parses_the_issue_examples) {
    auto daily = parse_vcal_rule("D1 #10");
    ASSERT_TRUE(daily);
    EXPECT_EQ(format_rrule(*daily), "FREQ=DAILY;COUNT=10");
    auto weekly = parse_vcal_rule("W2 MO TU 20261231T000000Z");
    ASSERT_TRUE(weekly);
    EXPECT_EQ(format_rrule(*weekly), "FREQ=WEEKLY;UNTIL=20261231T000000Z;INTERVAL=2;BYDAY=MO,TU");
    auto monthly = parse_vcal_rule("MD1 1 15 #0");
    ASSERT_TRUE(monthly);
    EXPECT_EQ(format_rrule(*monthly), "FREQ=MONTHLY;BYMONTHDAY=1,15");
    auto yearly = parse_vcal_rule("YM1 6 #5");
    ASSERT_TRUE(yearly);
    EXPECT_EQ(format_rrule(*yearly), "FREQ=YEARLY;COUNT=5;BYMONTH=6");
    auto by_position = parse_vcal_rule("MP1 1+ MO 2- FR #3");
    ASSERT_TRUE(by_position);
    EXPECT_EQ(format_rrule(*by_position), "FREQ=MONTHLY;COUNT=3;BYDAY=1MO,-2FR");
    auto last_day = parse_vcal_rule("MD1 LD #0");
    ASSERT_TRUE(last_day);
    EXPECT_EQ(format_rrule(*last_day), "FREQ=MONTHLY;BYMONTHDAY=-1");
}

TEST(vcal_rule, defaults_to_two_occurrences_without_duration) {
    auto rule = parse_vcal_rule("W1 TH");
    ASSERT_TRUE(rule);
    EXPECT_EQ(rule->count, 2);
}

TEST(vcal_rule, rejects_garbage) {
    EXPECT_FALSE(parse_vcal_rule(""));
    EXPECT_FALSE(parse_vcal_rule("Q1 #3"));
    EXPECT_FALSE(parse_vcal_rule("W1 XX #3"));
    EXPECT_FALSE(parse_vcal_rule("D1 #-1"));
}

TEST(vcal_rule, formats_what_1_0_can_say_and_refuses_the_rest) {
    auto rule = parse_rrule("FREQ=MONTHLY;INTERVAL=3;BYDAY=-2FR;COUNT=17");
    ASSERT_TRUE(rule);
    EXPECT_EQ(format_vcal_rule(*rule), "MP3 2- FR #17");
    rule = parse_rrule("FREQ=YEARLY;BYDAY=SU;BYSETPOS=-1;BYMONTH=10");
    ASSERT_TRUE(rule);
    EXPECT_FALSE(format_vcal_rule(*rule));
    rule = parse_rrule("FREQ=DAILY");
    ASSERT_TRUE(rule);
    EXPECT_EQ(format_vcal_rule(*rule), "D1 #0");
}

#ifdef SYNCML_HAVE_LIBICAL

std::vector<std::string> expand(const std::string& rrule, const date_time& start, int limit) {
    std::vector<std::string> out;
    icalrecurrencetype recur = icalrecurrencetype_from_string(rrule.c_str());
    icaltimetype dtstart = icaltime_from_string(format_date_time(start).c_str());
    icalrecur_iterator* it = icalrecur_iterator_new(recur, dtstart);
    if (it == nullptr) return out;
    for (int i = 0; i < limit; ++i) {
        icaltimetype next = icalrecur_iterator_next(it);
        if (icaltime_is_null_time(next)) break;
        out.emplace_back(icaltime_as_ical_string(next));
    }
    icalrecur_iterator_free(it);
    return out;
}

// Every single-rule event of the corpus whose rule 1.0 can express: the rule after ical20 -> vcal10 -> ical20
// expands to the same 60 first occurrences as the original.
TEST(recurrence_conversion, vcal_round_trip_keeps_libical_occurrences) {
    int checked = 0, inexpressible = 0;
    for (const auto& path : testing::corpus_files({".ics", ".vcs"})) {
        std::string name = testing::corpus_name(path);
        if (name.find("invalid") != std::string::npos) continue;
        std::string data = testing::read_file(path);
        auto parsed = parse_item(data, detect_dialect(data).value_or(item_dialect::ical20));
        const auto* cal = parsed ? std::get_if<calendar>(&*parsed) : nullptr;
        if (cal == nullptr) continue;
        for (const auto& c : cal->components) {
            if (c.rrules.size() != 1 || !c.start || !c.start->tzid.empty()) continue;
            if (!format_vcal_rule(c.rrules[0])) {
                ++inexpressible;
                continue;
            }
            calendar one;
            one.components.push_back(c);
            one.components[0].alarms.clear();
            auto back = parse_calendars(write_calendar(one, calendar_version::vcal10), calendar_version::vcal10);
            ASSERT_TRUE(back) << name;
            ASSERT_EQ(back->front().components.size(), 1u) << name;
            const auto& rules = back->front().components[0].rrules;
            ASSERT_EQ(rules.size(), 1u) << name;
            auto expected = expand(format_rrule(c.rrules[0]), *c.start, 60);
            auto actual = expand(format_rrule(rules[0]), *back->front().components[0].start, 60);
            EXPECT_EQ(expected, actual) << name << ": " << format_rrule(c.rrules[0]) << " became "
                                        << *format_vcal_rule(c.rrules[0]);
            ++checked;
        }
    }
    std::cerr << checked << " rules checked through vCalendar 1.0, " << inexpressible << " not expressible in 1.0\n";
    EXPECT_GT(checked, 150);
}

// The rule a phone reads: the 1.0 RRULE of our text without the hint (folded, or QP with soft breaks) that
// restores the original.
std::optional<recurrence_rule> phone_rule(const calendar_component& c) {
    calendar one;
    one.components.push_back(c);
    std::string vcal = write_calendar(one, calendar_version::vcal10), seen;
    bool in_hint = false;
    std::string seen_end;
    for (std::size_t at = 0, end = 0; at < vcal.size(); at = end + 2) {
        end = vcal.find("\r\n", at);
        std::string line = vcal.substr(at, end - at);
        bool continued = line.starts_with(' ') || (!seen_end.empty() && seen_end.back() == '=');  // folded, QP
        seen_end = line;
        in_hint = line.starts_with("X-SYNCML-ICAL-RRULE") || (in_hint && continued);
        if (!in_hint) seen += line + "\r\n";
    }
    auto back = parse_calendars(seen, calendar_version::vcal10);
    if (!back || back->front().components.size() != 1 || back->front().components[0].rrules.size() != 1)
        return std::nullopt;
    return back->front().components[0].rrules[0];
}

// Yearly rules in other months or on other days than DTSTART reach the phone as a 1.0 rule (YM, YD) that
// libical expands to the original's occurrences; so do rules with parts that change nothing from DTSTART (BYMONTH
// of every 12 months, a WKST no week of the rule depends on) and every day on weekdays.
TEST(recurrence_conversion, yearly_rules_off_dtstart_reach_the_phone_with_their_occurrences) {
    const std::pair<const char*, const char*> cases[] = {
        {"20260510T090000", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=10"},
        {"20260510T090000", "FREQ=YEARLY;COUNT=10;BYMONTH=2,8;BYMONTHDAY=10"},
        {"20260510T090000", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=20"},
        {"20250101T000000", "FREQ=YEARLY;INTERVAL=3;BYMONTH=2;BYMONTHDAY=-1"},
        {"20260510T090000", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=-1,1"},
        {"20260510T090000", "FREQ=YEARLY;COUNT=7;BYMONTH=1,3,12;BYMONTHDAY=31"},
        {"20260510", "FREQ=YEARLY;UNTIL=20451231;BYMONTH=2,10;BYMONTHDAY=3,-3"},
        {"20261126T100000", "FREQ=MONTHLY;INTERVAL=12;BYDAY=4TH;BYMONTH=11"},
        {"20261226", "FREQ=MONTHLY;INTERVAL=24;COUNT=5;BYMONTHDAY=26;BYMONTH=6,12"},
        {"20261201T100000", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;WKST=SU"},
        {"20261206T100000", "FREQ=WEEKLY;BYDAY=SU,WE;WKST=TH"},
        {"20261201T100000", "FREQ=DAILY;COUNT=30;BYDAY=MO,TU,WE,TH,FR"},
    };
    for (const auto& [start, rule] : cases) {
        calendar_component c;
        c.kind = item_kind::event;
        c.start = parse_date_time(start);
        c.rrules.push_back(*parse_rrule(rule));
        auto phone = phone_rule(c);
        ASSERT_TRUE(phone) << rule;
        EXPECT_NE(*phone, c.rrules[0]) << rule;  // not the same rule: only the hint restores that
        auto expected = expand(rule, *c.start, 60);
        EXPECT_GT(expected.size(), 3u) << rule;
        EXPECT_EQ(expand(format_rrule(*phone), *c.start, 60), expected) << rule << " became " << format_rrule(*phone);
    }
}

// The corpus rules that used to travel as a hint only and now reach the phone as a real 1.0 rule: same
// occurrences for libical, and the original back after the trip.
TEST(recurrence_conversion, corpus_rules_that_needed_a_hint_now_reach_the_phone) {
    int hinted = 0, now_real = 0;
    for (const auto& path : testing::corpus_files({".ics", ".vcs"})) {
        std::string name = testing::corpus_name(path);
        if (name.find("invalid") != std::string::npos) continue;
        std::string data = testing::read_file(path);
        auto parsed = parse_item(data, detect_dialect(data).value_or(item_dialect::ical20));
        const auto* cal = parsed ? std::get_if<calendar>(&*parsed) : nullptr;
        if (cal == nullptr) continue;
        for (const auto& c : cal->components) {
            if (c.rrules.size() != 1 || !c.start) continue;
            auto choice = choose_vcal_rule(c.rrules[0], c.start);
            if (choice && choice->exact) continue;
            ++hinted;
            if (!choice) continue;
            ++now_real;
            auto phone = parse_vcal_rule(choice->text, c.start);
            ASSERT_TRUE(phone) << name;
            EXPECT_EQ(expand(format_rrule(*phone), *c.start, 60), expand(format_rrule(c.rrules[0]), *c.start, 60))
                << name << ": " << format_rrule(c.rrules[0]) << " became " << choice->text;
            calendar one = *cal;
            one.components = {c};
            auto back = parse_calendars(write_calendar(one, calendar_version::vcal10), calendar_version::vcal10);
            ASSERT_TRUE(back) << name;
            EXPECT_EQ(back->front().components.at(0).rrules, c.rrules) << name;
        }
    }
    std::cerr << now_real << " of " << hinted << " corpus rules with no exact 1.0 form now reach the phone as a "
              << "1.0 rule with the same occurrences\n";
    EXPECT_GT(now_real, 0);
}

// libicalvcal's reading of our vCalendar 1.0 text: an independent parser of the 1.0 recurrence grammar.
std::optional<std::string> libicalvcal_rrule(const std::string& vcal) {
    VObject* object = Parse_MIME(vcal.c_str(), static_cast<unsigned long>(vcal.size()));
    if (object == nullptr) return std::nullopt;
    icalcomponent* cal = icalvcal_convert(object);
    cleanVObject(object);
    if (cal == nullptr) return std::nullopt;
    std::optional<std::string> out;
    icalcomponent* event = icalcomponent_get_first_real_component(cal);
    icalproperty* rrule = event ? icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY) : nullptr;
    if (rrule != nullptr)
        out = icalrecurrencetype_as_string(&*std::make_unique<icalrecurrencetype>(icalproperty_get_rrule(rrule)));
    icalcomponent_free(cal);
    return out;
}

// Our 1.0 rule text, read by libicalvcal and expanded by libical, gives the original rule's occurrences.
TEST(recurrence_conversion, libicalvcal_reads_our_vcal_rules_like_the_originals) {
    int checked = 0, differ = 0, unreadable = 0;
    std::string first_difference;
    for (const auto& path : testing::corpus_files({".ics"})) {
        std::string name = testing::corpus_name(path);
        if (name.find("invalid") != std::string::npos) continue;
        std::string data = testing::read_file(path);
        auto parsed = parse_item(data, item_dialect::ical20);
        const auto* cal = parsed ? std::get_if<calendar>(&*parsed) : nullptr;
        if (cal == nullptr) continue;
        for (const auto& c : cal->components) {
            if (c.rrules.size() != 1 || !c.start || !c.start->tzid.empty() || c.start->date_only) continue;
            auto text = format_vcal_rule(c.rrules[0]);
            if (!text) continue;
            calendar one;
            one.components.push_back(c);
            one.components[0].alarms.clear();
            auto theirs = libicalvcal_rrule(write_calendar(one, calendar_version::vcal10));
            if (!theirs) {
                ++unreadable;  // libicalvcal's 1.0 parser gives up on several ordinals in one MP rule
                continue;
            }
            auto expected = expand(format_rrule(c.rrules[0]), *c.start, 40);
            auto actual = expand(*theirs, *c.start, 40);
            if (expected != actual) {
                ++differ;
                if (first_difference.empty()) first_difference = name + ": " + *text + " read as " + *theirs;
            }
            ++checked;
        }
    }
    std::cerr << checked << " vCalendar 1.0 rules checked with libicalvcal, " << differ << " differ, " << unreadable
              << " unreadable for libicalvcal\n";
    EXPECT_GT(checked, 40);
    EXPECT_EQ(differ, 0) << first_difference;
}

// The vCalendar 1.0 rules of the corpus (syncevolution, kcalendarcore, horde, syncgw) expand as their own
// descriptions say; spot checks with counts written in the test data.
TEST(recurrence_conversion, syncevolution_vcal_rules_expand_as_described) {
    auto data = testing::read_file(testing::corpus_dir() / "syncevolution/test/testcases/vcal10.ics");
    auto cals = parse_calendars(data, calendar_version::vcal10);
    ASSERT_TRUE(cals);
    int checked = 0;
    for (const auto& cal : *cals) {
        for (const auto& c : cal.components) {
            if (c.rrules.empty()) continue;
            auto occurrences = expand(format_rrule(c.rrules[0]), *c.start, 100);
            if (c.summary == "recurrence weekly, limited") {
                // "recurrs four times due its end date": W1 TH 20060427T000000Z from Thu 2006-04-06.
                EXPECT_EQ(occurrences.size(), 3u);  // 04-06, 04-13, 04-20: 04-27 17:00 is after UNTIL 00:00
                ++checked;
            } else if (c.summary == "recurrence monthly, 6th day, limited") {
                EXPECT_EQ(occurrences,
                          (std::vector<std::string>{"20060406T173000Z", "20060506T173000Z", "20060606T173000Z"}));
                ++checked;
            } else if (c.summary == "recurrence, yearly, two times") {
                EXPECT_EQ(occurrences, (std::vector<std::string>{"20060406T180000Z", "20070406T180000Z"}));
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 3);
}

#endif

}  // namespace
}  // namespace syncml::matching
