// The recurrence fields of SIF appointments and tasks: Outlook's RecurrencePattern and Exceptions as RRULE, EXDATE
// and RDATE, and back. RecurrenceType: 0 daily, 1 weekly, 2 monthly (DayOfMonth), 3 monthly on the Instance-th
// weekday, 5 yearly (MonthOfYear, DayOfMonth), 6 yearly on the Instance-th weekday; Instance 5 is the last;
// DayOfWeekMask has Sunday as 1 up to Saturday as 64.
#include <algorithm>

#include "matching/calendar/calendar_values.hpp"
#include "matching/sif/sif_calendar.hpp"

namespace syncml::matching {
namespace {

enum class sif_type { daily = 0, weekly = 1, monthly = 2, month_nth = 3, yearly = 5, year_nth = 6 };

constexpr int k_every_day = 127;

// Outlook's own limits, checked so that a hostile count or interval never reaches the expansion as a huge number.
constexpr int k_max_interval = 999;
constexpr int k_max_occurrences = 999;

int rotated(int weekday, int shift) { return ((weekday + shift) % 7 + 7) % 7; }

std::vector<weekday_num> days_of_mask(int mask, int ordinal, int shift) {
    std::vector<weekday_num> out;
    for (int day = 0; day < 7; ++day) {
        if (mask & (1 << day)) out.push_back(weekday_num{ordinal, rotated(day, shift)});
    }
    return out;
}

// A month day moved across a month's end: the day before the 1st is the last, the day after the 31st the 1st.
int shifted_month_day(int day, int shift) {
    day += shift;
    return day < 1 ? -1 : day > 31 ? 1 : day;
}

// The pattern's frequency and days (SIF's RecurrenceType with its mask, instance, day and month); false for a type
// or a pattern of days the rule cannot express.
bool read_pattern(const sif_fields& f, const sif_frame& frame, int type, recurrence_rule& r) {
    const int mask = f.number("DayOfWeekMask").value_or(0) & k_every_day;
    const int instance = f.number("Instance").value_or(1);
    const int ordinal = instance >= 5 ? -1 : std::max(1, instance);
    const int month_day = f.number("DayOfMonth").value_or(0);
    const int shift = frame.day_shift;
    const bool yearly = type == static_cast<int>(sif_type::yearly) || type == static_cast<int>(sif_type::year_nth);
    switch (static_cast<sif_type>(type)) {
        case sif_type::daily:
            r.freq = mask != 0 && mask != k_every_day ? frequency::weekly : frequency::daily;
            if (r.freq == frequency::weekly) r.by_day = days_of_mask(mask, 0, shift);
            return true;
        case sif_type::weekly:
            r.freq = frequency::weekly;
            r.by_day = days_of_mask(mask, 0, shift);
            return true;
        case sif_type::monthly:
        case sif_type::yearly:
            r.freq = yearly ? frequency::yearly : frequency::monthly;
            if (month_day >= 1 && month_day <= 31) r.by_month_day.push_back(shifted_month_day(month_day, shift));
            return true;
        case sif_type::month_nth:
        case sif_type::year_nth:
            r.freq = yearly ? frequency::yearly : frequency::monthly;
            r.by_day = days_of_mask(mask, ordinal, shift);
            return !r.by_day.empty();
        default:
            return false;
    }
}

std::optional<recurrence_rule> read_rule(const sif_fields& f, const sif_frame& frame) {
    auto type = f.number("RecurrenceType");
    if (!type) return std::nullopt;
    recurrence_rule r;
    r.interval = std::clamp(f.number("Interval").value_or(1), 1, k_max_interval);
    const bool yearly = *type == static_cast<int>(sif_type::yearly) || *type == static_cast<int>(sif_type::year_nth);
    // Outlook counts a yearly pattern's interval in months.
    if (yearly && r.interval >= 12 && r.interval % 12 == 0) r.interval /= 12;
    if (!read_pattern(f, frame, *type, r)) return std::nullopt;
    const int month = f.number("MonthOfYear").value_or(0);
    if (yearly && month >= 1 && month <= 12) r.by_month.push_back(month);
    if (f.flag("NoEndDate")) return r;
    if (auto count = f.number("Occurrences"); count && *count > 0) {
        r.count = std::min(*count, k_max_occurrences);
    } else if (auto end = read_sif_time(f.trimmed("PatternEndDate"))) {
        // A UTC end is the last occurrence's start; a local one is its date (older clients give midnight).
        if (!end->utc) *end = date_time{end->year, end->month, end->day, 0, 0, 0, true, false, {}};
        r.until = in_start_frame(*end, frame);
    }
    return r;
}

void read_exceptions(const sif_fields& f, const sif_frame& frame, calendar_component& out) {
    const auto* group = f.find("Exceptions");
    if (!group) return;
    for (const auto& e : group->children) {
        const bool exclude = e.name == "ExcludeDate";
        if (!exclude && e.name != "IncludeDate") continue;
        auto value = read_sif_time(e.trimmed_text());
        if (value) (exclude ? out.exdates : out.rdates).push_back(in_start_frame(*value, frame));
    }
}

// What a RecurrencePattern holds; nullopt for a rule it cannot state (hourly, BYYEARDAY, several months, ...).
struct sif_pattern {
    sif_type type = sif_type::daily;
    int interval = 1, mask = 0, instance = 0, month_day = 0, month = 0;
};

bool plain_days(const recurrence_rule& r) {
    return std::all_of(r.by_day.begin(), r.by_day.end(), [](const weekday_num& d) { return d.ordinal == 0; });
}

// The Instance of BYDAY=2TU or BYDAY=TU;BYSETPOS=2; 0 when Outlook has none (every Tuesday, the 3rd last).
int instance_of(const recurrence_rule& r) {
    int ordinal = r.by_day.front().ordinal;
    if (ordinal == 0 && r.by_set_pos.size() == 1) ordinal = r.by_set_pos.front();
    for (const auto& d : r.by_day) {
        if (d.ordinal != r.by_day.front().ordinal) return 0;
    }
    if (ordinal == -1) return 5;
    return ordinal >= 1 && ordinal <= 4 ? ordinal : 0;
}

int mask_of(const std::vector<weekday_num>& days, int shift) {
    int mask = 0;
    for (const auto& d : days) mask |= 1 << rotated(d.weekday, shift);
    return mask;
}

std::optional<sif_pattern> pattern_of(const recurrence_rule& r, const date_time& start, int shift) {
    if (!r.by_hour.empty() || !r.by_minute.empty() || !r.by_second.empty() || !r.by_year_day.empty() ||
        !r.by_week_no.empty() || r.by_month.size() > 1 || r.by_month_day.size() > 1 ||
        (!r.by_day.empty() && !r.by_month_day.empty()) || (!r.by_set_pos.empty() && r.by_day.empty()) ||
        start.month < 1)
        return std::nullopt;
    sif_pattern p;
    p.interval = r.interval;
    p.month = r.by_month.empty() ? start.month : r.by_month.front();
    p.month_day = r.by_month_day.empty() ? start.day : shifted_month_day(r.by_month_day.front(), shift);
    if (p.month_day < 1) return std::nullopt;  // the last day of the month: Outlook has no such month day
    const bool by_weekday = !r.by_day.empty();
    switch (r.freq) {
        case frequency::daily:
        case frequency::weekly:
            if (!plain_days(r) || (r.freq == frequency::daily && by_weekday && r.interval != 1)) return std::nullopt;
            p.type = r.freq == frequency::daily && !by_weekday ? sif_type::daily : sif_type::weekly;
            if (p.type == sif_type::weekly)
                p.mask = by_weekday ? mask_of(r.by_day, shift) : 1 << weekday_of(start.year, start.month, start.day);
            return p;
        case frequency::monthly:
        case frequency::yearly:
            p.type = r.freq == frequency::monthly ? (by_weekday ? sif_type::month_nth : sif_type::monthly)
                                                  : (by_weekday ? sif_type::year_nth : sif_type::yearly);
            if (!by_weekday) return p;
            p.instance = instance_of(r);
            p.mask = mask_of(r.by_day, shift);
            if (p.instance == 0) return std::nullopt;
            return p;
        default:
            return std::nullopt;
    }
}

void write_pattern(sif_writer& out, const sif_pattern& p, const recurrence_rule& r,
                   const std::vector<timezone_def>& timezones, const date_time& start) {
    out.field("RecurrenceType", static_cast<int>(p.type));
    out.field("Interval", p.interval);
    const bool yearly = p.type == sif_type::yearly || p.type == sif_type::year_nth;
    out.field("MonthOfYear", yearly ? p.month : 0);
    out.field("DayOfMonth", p.type == sif_type::monthly || p.type == sif_type::yearly ? p.month_day : 0);
    out.field("DayOfWeekMask", p.mask);
    out.field("Instance", p.instance);
    out.field("PatternStartDate", sif_time_text(start));
    out.flag("NoEndDate", !r.count && !r.until);
    out.field("PatternEndDate", r.until ? sif_time_text(in_utc_where_known(*r.until, timezones)) : std::string());
    out.field("Occurrences", r.count ? std::to_string(*r.count) : std::string());
}

void write_exceptions(sif_writer& out, const calendar_component& c, const std::vector<timezone_def>& timezones) {
    out.open("Exceptions");
    for (const auto& d : c.exdates) out.field("ExcludeDate", sif_time_text(in_utc_where_known(d, timezones)));
    for (const auto& d : c.rdates) out.field("IncludeDate", sif_time_text(in_utc_where_known(d, timezones)));
    out.close("Exceptions");
}

}  // namespace

void read_sif_recurrence(const sif_fields& fields, const sif_frame& frame, calendar_component& out) {
    if (!fields.flag("IsRecurring")) return;
    auto rule = read_rule(fields, frame);
    if (!rule) return;
    out.rrules.push_back(std::move(*rule));
    read_exceptions(fields, frame, out);
}

void write_sif_recurrence(sif_writer& out, const calendar_component& c, const std::vector<timezone_def>& timezones,
                          const date_time& start, int shift) {
    auto pattern = c.rrules.empty() ? std::nullopt : pattern_of(c.rrules.front(), start, shift);
    out.flag("IsRecurring", pattern.has_value());
    if (!pattern) return;
    write_pattern(out, *pattern, c.rrules.front(), timezones, start);
    write_exceptions(out, c, timezones);
}

}  // namespace syncml::matching
