#include "matching/match/normalize_time.hpp"

#include <cstdio>
#include <cstdlib>

namespace syncml::matching {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (era-based civil calendar arithmetic).
long long days_from_civil(int y, int m, int d) {
    y -= m <= 2 ? 1 : 0;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153LL * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void civil_from_seconds(long long secs, date_time& out) {
    long long days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
    long long rem = secs - days * 86400;
    long long z = days + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    out.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    out.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    out.year = static_cast<int>(yoe + era * 400 + (out.month <= 2 ? 1 : 0));
    out.hour = static_cast<int>(rem / 3600);
    out.minute = static_cast<int>(rem % 3600 / 60);
    out.second = static_cast<int>(rem % 60);
}

int weekday_of(int y, int m, int d) {  // 0 = Sunday
    long long days = days_from_civil(y, m, d);
    return static_cast<int>(((days % 7) + 7 + 4) % 7);
}

int days_in_month(int y, int m) {
    return static_cast<int>(days_from_civil(m == 12 ? y + 1 : y, m % 12 + 1, 1) - days_from_civil(y, m, 1));
}

std::optional<int> parse_offset(const std::string& text) {
    if (text.size() < 5 || (text[0] != '+' && text[0] != '-')) return std::nullopt;
    int value = std::atoi(text.substr(1, 2).c_str()) * 3600 + std::atoi(text.substr(3, 2).c_str()) * 60;
    if (text.size() >= 7) value += std::atoi(text.substr(5, 2).c_str());
    return text[0] == '-' ? -value : value;
}

// Day of month of a yearly rule's onset in `month`, or 0 when the rule has a shape this code does not follow.
int onset_day(const recurrence_rule& rule, int year, int month) {
    if (!rule.by_day.empty()) {
        const auto& wd = rule.by_day.front();
        int last = days_in_month(year, month);
        if (wd.ordinal > 0) {
            int day = 1 + (wd.weekday - weekday_of(year, month, 1) + 7) % 7 + (wd.ordinal - 1) * 7;
            return day <= last ? day : 0;
        }
        if (wd.ordinal < 0) {
            int day = last - (weekday_of(year, month, last) - wd.weekday + 7) % 7 - (-wd.ordinal - 1) * 7;
            return day >= 1 ? day : 0;
        }
        for (int d : rule.by_month_day) {
            if (d >= 1 && d <= last && weekday_of(year, month, d) == wd.weekday) return d;
        }
        return 0;
    }
    return rule.by_month_day.empty() ? 0 : rule.by_month_day.front();
}

// Latest onset of `obs` at or before `local` (wall-clock seconds), or empty.
std::optional<long long> last_onset(const tz_observance& obs, long long local, int year) {
    long long start = wall_clock_seconds(obs.start);
    if (start > local) return std::nullopt;
    long long best = start;
    for (const auto& r : obs.rdates) {
        long long s = wall_clock_seconds(r);
        if (s <= local && s > best) best = s;
    }
    if (!obs.rule || obs.rule->freq != frequency::yearly) return best;
    const auto& rule = *obs.rule;
    int month = rule.by_month.empty() ? obs.start.month : rule.by_month.front();
    for (int y : {year - 1, year}) {
        int day = onset_day(rule, y, month);
        if (day <= 0) continue;
        date_time at = obs.start;
        at.year = y;
        at.month = month;
        at.day = day;
        long long s = wall_clock_seconds(at);
        if (rule.until && s > wall_clock_seconds(*rule.until)) continue;
        if (s <= local && s > best) best = s;
    }
    return best;
}

std::string format(const date_time& v, bool with_time) {
    char buf[32];
    if (!with_time) {
        std::snprintf(buf, sizeof buf, "D%04d%02d%02d", v.year, v.month, v.day);
    } else {
        std::snprintf(buf, sizeof buf, "%04d%02d%02dT%02d%02d%02d", v.year, v.month, v.day, v.hour, v.minute, v.second);
    }
    return buf;
}

}  // namespace

long long wall_clock_seconds(const date_time& value) {
    return days_from_civil(value.year, value.month, value.day) * 86400 + value.hour * 3600LL + value.minute * 60LL +
           value.second;
}

std::optional<int> utc_offset_at(const date_time& local, const timezone_def& tz) {
    long long at = wall_clock_seconds(local);
    std::optional<long long> best;
    std::optional<int> offset;
    for (const auto& obs : tz.observances) {
        auto onset = last_onset(obs, at, local.year);
        auto to = parse_offset(obs.offset_to);
        if (onset && to && (!best || *onset > *best)) {
            best = onset;
            offset = to;
        }
    }
    if (offset || tz.observances.empty()) return offset;
    // Before the first onset the zone's earliest "from" offset applies.
    return parse_offset(tz.observances.front().offset_from);
}

std::string normalized_time(const date_time& value, const std::vector<timezone_def>& timezones) {
    if (value.date_only) return format(value, false);
    if (value.utc) return format(value, true) + "Z";
    if (value.tzid.empty()) return format(value, true);
    for (const auto& tz : timezones) {
        if (tz.tzid != value.tzid) continue;
        auto offset = utc_offset_at(value, tz);
        if (!offset) break;
        date_time utc;
        civil_from_seconds(wall_clock_seconds(value) - *offset, utc);
        return format(utc, true) + "Z";
    }
    return format(value, true) + " " + value.tzid;
}

}  // namespace syncml::matching
