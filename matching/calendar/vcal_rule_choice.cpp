#include "matching/calendar/vcal_rule_choice.hpp"

#include <algorithm>

#include "matching/calendar/calendar_values.hpp"

namespace syncml::matching {

namespace {

constexpr int k_month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};  // February of common years

// The rule as 1.0 text, when reading that text back (as the reader does) gives the same rule. Every 12 months
// by weekday or month day reads back as the yearly rule it means (same occurrences).
std::optional<std::string> exact_text(const recurrence_rule& r, const std::optional<date_time>& start) {
    auto text = format_vcal_rule(r);
    if (!text) return std::nullopt;
    auto back = parse_vcal_rule(*text, start);
    if (back && back->until && start && start->date_only && !back->until->utc) {
        back->until = date_time{back->until->year, back->until->month, back->until->day, 0, 0, 0, true, false, {}};
    }
    const auto meant = start ? yearly_equivalent(r, *start).value_or(r) : r;
    if (!back || *back != meant) return std::nullopt;
    return text;
}

bool yearly_by_month_day(const recurrence_rule& r) {
    return r.freq == frequency::yearly && !r.by_month.empty() && !r.by_month_day.empty() && r.by_day.empty() &&
           r.by_year_day.empty() &&
           std::all_of(r.by_month.begin(), r.by_month.end(), [](int m) { return m >= 1 && m <= 12; });
}

// The same day of the year in leap and common years: counted from January 1 up to February 28, from December
// 31 (negative) after it, since March to December have the same days in every year; nullopt for February 29
// and days that not every year's month has.
std::optional<int> fixed_year_day(int month, int day) {
    const int length = k_month_days[month - 1];
    if (day == 0 || day > length || -day > length) return std::nullopt;
    if (month == 1) return day > 0 ? day : length + day + 1;
    int after = 0;
    for (int m = month + 1; m <= 12; ++m) after += k_month_days[m - 1];
    if (month == 2 && day > 0) return 31 + day;
    return day > 0 ? -(after + length - day + 1) : -(after - day);
}

// YM takes the day from DTSTART: the rule's own month day may go when it is DTSTART's, in every month named.
std::optional<recurrence_rule> as_by_month(const recurrence_rule& r, const date_time& start) {
    if (r.by_month_day != std::vector<int>{start.day}) return std::nullopt;
    for (int m : r.by_month) {
        if (start.day > k_month_days[m - 1]) return std::nullopt;
    }
    recurrence_rule out = r;
    out.by_month_day.clear();
    return out;
}

std::optional<recurrence_rule> as_by_year_day(const recurrence_rule& r) {
    recurrence_rule out = r;
    out.by_month.clear();
    out.by_month_day.clear();
    for (int m : r.by_month) {
        for (int d : r.by_month_day) {
            auto day = fixed_year_day(m, d);
            if (!day) return std::nullopt;
            out.by_year_day.push_back(*day);
        }
    }
    std::sort(out.by_year_day.begin(), out.by_year_day.end());
    out.by_year_day.erase(std::unique(out.by_year_day.begin(), out.by_year_day.end()), out.by_year_day.end());
    return out;
}

// Every 12 months from DTSTART only ever reaches DTSTART's month: a BYMONTH naming it changes nothing.
std::optional<recurrence_rule> without_month_of_start(const recurrence_rule& r, const date_time& start) {
    if (r.freq != frequency::monthly || r.interval % 12 != 0 ||
        std::find(r.by_month.begin(), r.by_month.end(), start.month) == r.by_month.end()) {
        return std::nullopt;
    }
    recurrence_rule out = r;
    out.by_month.clear();
    return out;
}

// 1.0 weeks start on Monday; another WKST changes nothing when every week counts or when no day of the rule (nor
// DTSTART's) is one that the two weeks put apart: a Sunday, for WKST=SU.
std::optional<recurrence_rule> without_week_start(const recurrence_rule& r, const date_time& start) {
    if (r.freq != frequency::weekly || !r.week_start_set) return std::nullopt;
    bool sunday = weekday_of(start.year, start.month, start.day) == 0;
    for (const auto& d : r.by_day) sunday = sunday || d.weekday == 0;
    if (r.interval != 1 && (r.week_start != 0 || sunday)) return std::nullopt;
    recurrence_rule out = r;
    out.week_start = recurrence_rule{}.week_start;
    out.week_start_set = false;
    return out;
}

// Every day on some weekdays is every week on those days.
std::optional<recurrence_rule> as_weekly(const recurrence_rule& r) {
    if (r.freq != frequency::daily || r.interval != 1 || r.by_day.empty() || !r.by_month_day.empty() ||
        !r.by_month.empty() || !r.by_year_day.empty()) {
        return std::nullopt;
    }
    recurrence_rule out = r;
    out.freq = frequency::weekly;
    out.week_start = recurrence_rule{}.week_start;
    out.week_start_set = false;
    return out;
}

// Rules with other parts than the original but the same occurrences from `start`, in the order a phone shows
// them best; the first that 1.0 can say wins.
std::optional<std::string> same_occurrences(const recurrence_rule& r, const date_time& start) {
    std::vector<std::optional<recurrence_rule>> candidates;
    if (yearly_by_month_day(r)) {
        candidates.push_back(as_by_month(r, start));
        candidates.push_back(as_by_year_day(r));
    }
    candidates.push_back(without_month_of_start(r, start));
    candidates.push_back(without_week_start(r, start));
    candidates.push_back(as_weekly(r));
    for (const auto& candidate : candidates) {
        if (auto text = candidate ? format_vcal_rule(*candidate) : std::nullopt) return text;
    }
    return std::nullopt;
}

}  // namespace

std::optional<vcal_rule_choice> choose_vcal_rule(const recurrence_rule& rule, const std::optional<date_time>& start) {
    if (auto text = exact_text(rule, start)) return vcal_rule_choice{*text, true};
    if (!start) return std::nullopt;
    if (auto text = same_occurrences(rule, *start)) return vcal_rule_choice{*text, false};
    return std::nullopt;
}

std::optional<recurrence_rule> vcal_reading(const recurrence_rule& rule, const std::optional<date_time>& start) {
    auto choice = choose_vcal_rule(rule, start);
    return choice ? parse_vcal_rule(choice->text, start) : std::nullopt;
}

void restore_hinted_vcal_rule(std::vector<recurrence_rule>& rules, std::size_t real_count,
                              const std::optional<date_time>& start) {
    if (real_count == 0 || rules.size() <= real_count) return;
    auto choice = choose_vcal_rule(rules[real_count], start);
    if (!choice || choice->exact || vcal_reading(rules[real_count], start) != rules.front()) return;
    rules.front() = rules[real_count];
    rules.erase(rules.begin() + static_cast<std::ptrdiff_t>(real_count));
}

}  // namespace syncml::matching
