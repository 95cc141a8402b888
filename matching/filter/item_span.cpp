#include "matching/filter/item_span.hpp"

#include <algorithm>

#include "matching/calendar/calendar_values.hpp"
#include "matching/match/normalize_time.hpp"

namespace syncml::matching {
namespace {

constexpr std::int64_t k_day = 86400;

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? k_unbounded_end : std::numeric_limits<std::int64_t>::min();
    return sum;
}

// The longest a period of the rule's frequency can be: months and years are taken at their longest so the bound
// never falls short.
std::int64_t period_seconds(frequency freq) {
    switch (freq) {
        case frequency::secondly:
            return 1;
        case frequency::minutely:
            return 60;
        case frequency::hourly:
            return 3600;
        case frequency::daily:
            return k_day;
        case frequency::weekly:
            return 7 * k_day;
        case frequency::monthly:
            return 31 * k_day;
        case frequency::yearly:
            return 366 * k_day;
    }
    return 366 * k_day;
}

bool ordinals_within(const std::vector<weekday_num>& days, int limit) {
    return std::all_of(days.begin(), days.end(),
                       [&](const weekday_num& d) { return d.ordinal >= -limit && d.ordinal <= limit; });
}

// How many periods of the rule's frequency are sure to contain at least one occurrence: 1 when every period does,
// 7 for a daily rule narrowed to some weekdays (any 7 consecutive periods hold each weekday unless the interval
// is a multiple of 7), 0 when periods may stay empty for good (BYSETPOS, BYMONTHDAY=31 with BYMONTH=2, a filter
// on a sub-daily rule), so the end cannot be bounded without expanding the rule.
std::int64_t periods_per_occurrence(const recurrence_rule& r, const date_time& start) {
    // Without day parts, monthly and yearly rules repeat DTSTART's day of the month, which months without that
    // day (and years without February 29) skip.
    bool implicit_day = r.by_day.empty() && r.by_month_day.empty();
    if (implicit_day && (r.freq == frequency::monthly || r.freq == frequency::yearly) && start.day > 28) return 0;
    if (!r.by_set_pos.empty() || !r.by_week_no.empty() || !r.by_year_day.empty()) return 0;
    bool sub_daily = r.freq < frequency::daily;
    if (sub_daily && (!r.by_hour.empty() || !r.by_minute.empty() || !r.by_second.empty() || !r.by_day.empty() ||
                      !r.by_month_day.empty()))
        return 0;
    if (!r.by_month.empty() && r.freq != frequency::yearly) return 0;
    if (!r.by_day.empty() && !r.by_month_day.empty()) return 0;  // Friday the 13th: some months have none
    bool short_days =
        std::all_of(r.by_month_day.begin(), r.by_month_day.end(), [](int d) { return d != 0 && d >= -28 && d <= 28; });
    if (!short_days) return 0;
    if (!r.by_month_day.empty() && (r.freq == frequency::daily || r.freq == frequency::weekly)) return 0;
    if (r.freq == frequency::daily && !r.by_day.empty()) return r.interval % 7 == 0 ? 0 : 7;
    if (r.freq == frequency::monthly && !ordinals_within(r.by_day, 4)) return 0;
    if (r.freq == frequency::yearly && !ordinals_within(r.by_day, r.by_month.empty() ? 52 : 4)) return 0;
    return 1;
}

std::optional<std::int64_t> count_bound(const recurrence_rule& r, const date_time& start_time, std::int64_t start) {
    if (*r.count <= 1) return start;
    std::int64_t periods = periods_per_occurrence(r, start_time);
    if (periods == 0) return std::nullopt;
    // DTSTART is the first occurrence; each further one lies at the latest in the next period that is sure to
    // hold one, and a period ends at most one period length after the DTSTART-relative boundary.
    std::int64_t steps = 0, span = 0;
    if (__builtin_mul_overflow(static_cast<std::int64_t>(*r.count), periods * std::max(r.interval, 1), &steps) ||
        __builtin_mul_overflow(steps + 1, period_seconds(r.freq), &span))
        return std::nullopt;
    return saturating_add(start, span);
}

}  // namespace

std::int64_t instant_seconds(const date_time& value, const std::vector<timezone_def>& timezones) {
    std::int64_t local = wall_clock_seconds(value);
    if (value.date_only || value.utc || value.tzid.empty()) return local;
    auto zone =
        std::find_if(timezones.begin(), timezones.end(), [&](const timezone_def& tz) { return tz.tzid == value.tzid; });
    if (zone == timezones.end()) return local;
    return local - utc_offset_at(value, *zone).value_or(0);
}

std::optional<std::int64_t> last_start_bound(const recurrence_rule& rule, const date_time& start,
                                             const std::vector<timezone_def>& timezones) {
    std::optional<std::int64_t> bound;
    if (rule.until) {
        // A DATE UNTIL includes occurrences during that day.
        bound = instant_seconds(*rule.until, timezones) + (rule.until->date_only ? k_day : 0);
    }
    if (rule.count) {
        auto by_count = count_bound(rule, start, instant_seconds(start, timezones));
        if (by_count) bound = bound ? std::min(*bound, *by_count) : *by_count;
    }
    return bound;
}

std::optional<time_span> component_span(const calendar_component& c, const std::vector<timezone_def>& timezones) {
    if (c.kind == item_kind::task) {
        const auto& date = c.due ? c.due : c.start;
        if (!date) return std::nullopt;
        std::int64_t at = instant_seconds(*date, timezones);
        return time_span{at, at};
    }
    if (!c.start) return std::nullopt;
    std::int64_t begin = instant_seconds(*c.start, timezones);
    std::int64_t length = 0;
    if (c.end) {
        length = std::max<std::int64_t>(0, instant_seconds(*c.end, timezones) - begin);
    } else if (auto duration = c.duration.empty() ? std::nullopt : parse_duration(c.duration)) {
        length = std::max<std::int64_t>(0, *duration);
    } else if (c.start->date_only && c.kind == item_kind::event) {
        length = k_day;
    }
    std::int64_t last_start = begin;
    for (const auto& rule : c.rrules) {
        auto bound = last_start_bound(rule, *c.start, timezones);
        if (!bound) return time_span{begin, k_unbounded_end};
        last_start = std::max(last_start, *bound);
    }
    for (const auto& rdate : c.rdates) last_start = std::max(last_start, instant_seconds(rdate, timezones));
    return time_span{begin, saturating_add(last_start, length)};
}

}  // namespace syncml::matching
