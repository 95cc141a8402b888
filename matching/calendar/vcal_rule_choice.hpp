#pragma once
// Which vCalendar 1.0 rule a phone gets for an RFC 5545 rule, given the event's DTSTART. The 1.0 grammar takes
// the day of a YM rule and the month of MP12/MD12 from DTSTART, so a yearly rule in other months or on other days
// has no exact 1.0 form; often another 1.0 rule (YM without its day, YD with fixed days of the year) gives the
// same occurrences, and the phone can show that one while an RRULE hint keeps the original.

#include <optional>
#include <string>
#include <vector>

#include "matching/model/item.hpp"

namespace syncml::matching {

struct vcal_rule_choice {
    std::string text;    // the 1.0 rule
    bool exact = false;  // reading `text` back gives the rule itself; otherwise only its occurrences
};

// nullopt when no 1.0 rule gives the rule's occurrences (the rule then travels as a hint only).
std::optional<vcal_rule_choice> choose_vcal_rule(const recurrence_rule& rule, const std::optional<date_time>& start);

// The rule a 1.0 phone reads from what `choose_vcal_rule` wrote (without the hint): equal to `rule` for exact
// forms, same occurrences otherwise; nullopt when `rule` travels as a hint only. Merge can take a phone's copy
// with this rule as unchanged.
std::optional<recurrence_rule> vcal_reading(const recurrence_rule& rule, const std::optional<date_time>& start);

// The reader's side: `rules` holds the `real_count` rules read from 1.0 RRULE lines, then the hinted ones. A hint
// right after the real rules whose inexact 1.0 form is the first real rule stands for it and takes its place;
// when the phone changed the 1.0 rule, it is no longer that form and the hint stays a rule of its own.
void restore_hinted_vcal_rule(std::vector<recurrence_rule>& rules, std::size_t real_count,
                              const std::optional<date_time>& start);

}  // namespace syncml::matching
