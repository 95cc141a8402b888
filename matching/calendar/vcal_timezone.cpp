// vCalendar 1.0 TZ/DAYLIGHT <-> iCalendar VTIMEZONE.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "common/text/ascii_case.hpp"
#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_values.hpp"

namespace syncml::matching {

namespace {

// "+01:00", "-0500", "+03", "1:00" -> minutes east of UTC.
std::optional<int> parse_offset(std::string_view text) {
    int sign = 1;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        sign = text[0] == '-' ? -1 : 1;
        text.remove_prefix(1);
    }
    std::string digits;
    for (char c : text) {
        if (c == ':') continue;
        if (c < '0' || c > '9') return std::nullopt;
        digits += c;
    }
    if (digits.empty() || digits.size() > 6) return std::nullopt;
    int hours = 0, minutes = 0;
    if (digits.size() <= 2) {
        hours = std::stoi(digits);
    } else {
        if (digits.size() == 3) digits.insert(digits.begin(), '0');
        hours = std::stoi(digits.substr(0, 2));
        minutes = std::stoi(digits.substr(2, 2));
    }
    if (hours > 14 || minutes > 59) return std::nullopt;
    return sign * (hours * 60 + minutes);
}

std::string format_offset(int minutes, bool colon) {
    std::string out = minutes < 0 ? "-" : "+";
    int m = minutes < 0 ? -minutes : minutes;
    auto two = [](int v) { return std::string(1, static_cast<char>('0' + v / 10)) + static_cast<char>('0' + v % 10); };
    return out + two(m / 60) + (colon ? ":" : "") + two(m % 60);
}

date_time local_of(const date_time& d, int offset_minutes) {
    if (!d.utc) return date_time{d.year, d.month, d.day, d.hour, d.minute, d.second, false, false, {}};
    return from_epoch_seconds(to_epoch_seconds(d) + offset_minutes * 60, false, {});
}

date_time utc_of(const date_time& local, int offset_minutes) {
    return from_epoch_seconds(to_epoch_seconds(local) - offset_minutes * 60, true, {});
}

// Local onset of observance `o` in `year`, if it has one.
std::optional<date_time> onset_in(const tz_observance& o, int year) {
    if (o.start.year == year) return o.start;
    for (const auto& r : o.rdates) {
        if (r.year == year) return r;
    }
    if (!o.rule || o.rule->freq != frequency::yearly || o.rule->by_month.size() != 1 || year < o.start.year) {
        return std::nullopt;
    }
    date_time d = o.start;
    d.year = year;
    d.month = o.rule->by_month[0];
    if (o.rule->by_day.size() == 1) {
        const weekday_num& w = o.rule->by_day[0];
        int days_in_month = static_cast<int>(days_from_civil(year + (d.month == 12), d.month % 12 + 1, 1) -
                                             days_from_civil(year, d.month, 1));
        int first = (w.weekday - weekday_of(year, d.month, 1) + 7) % 7 + 1;
        int count = (days_in_month - first) / 7 + 1;
        int index = w.ordinal > 0 ? w.ordinal - 1 : count + w.ordinal;
        if (w.ordinal == 0 || index < 0 || index >= count) return std::nullopt;
        d.day = first + index * 7;
    } else if (o.rule->by_month_day.size() == 1 && o.rule->by_month_day[0] > 0) {
        d.day = o.rule->by_month_day[0];
    } else if (!o.rule->by_day.empty() || !o.rule->by_month_day.empty()) {
        return std::nullopt;
    }
    if (o.rule->until && to_epoch_seconds(d) > to_epoch_seconds(*o.rule->until) + 86400) return std::nullopt;
    return d;
}

}  // namespace

std::optional<timezone_def> timezone_from_vcal(const std::vector<content_line>& lines) {
    std::optional<int> standard;
    for (const auto& line : lines) {
        if (line.name == "TZ" && !standard) standard = parse_offset(line.value);
    }
    if (!standard) return std::nullopt;
    timezone_def tz;
    tz.tzid = "vcal" + format_offset(*standard, false);
    std::string std_offset = format_offset(*standard, false);
    tz.observances.push_back(tz_observance{
        false, date_time{1970, 1, 1, 0, 0, 0, false, false, {}}, std_offset, std_offset, {}, std::nullopt, {}, {}});
    for (const auto& line : lines) {
        if (line.name != "DAYLIGHT") continue;
        auto parts = split_escaped(line.value, ';');
        parts.resize(std::max<std::size_t>(parts.size(), 6));
        auto dst = parse_offset(parts[1]);
        auto begin = parse_date_time(parts[2]);
        auto end = parse_date_time(parts[3]);
        if (!common::iequals(parts[0], "TRUE") || !dst || !begin || !end) continue;
        std::string dst_offset = format_offset(*dst, false);
        std::string std_name = unescape_text(parts[4]), dst_name = unescape_text(parts[5]);
        if (tz.observances[0].name.empty()) tz.observances[0].name = std_name;
        tz.observances.push_back(
            tz_observance{true, local_of(*begin, *standard), std_offset, dst_offset, dst_name, std::nullopt, {}, {}});
        tz.observances.push_back(
            tz_observance{false, local_of(*end, *dst), dst_offset, std_offset, std_name, std::nullopt, {}, {}});
    }
    return tz;
}

namespace {

// A 1.0 zone says its daylight periods year by year. Phones need those of the item's years; a hostile zone of
// thousands of observances over thousands of years must not become millions of onsets and lines (issue 15).
constexpr std::size_t k_max_daylight_years = 100;
constexpr std::size_t k_max_daylight_lines = 200;

// The first year a daylight observance can have an onset in.
int earliest_daylight_year(const timezone_def& tz) {
    int earliest = std::numeric_limits<int>::max();
    for (const auto& o : tz.observances) {
        if (!o.daylight) continue;
        earliest = std::min(earliest, o.start.year);
        for (const auto& r : o.rdates) earliest = std::min(earliest, r.year);
    }
    return earliest;
}

// The years to write DAYLIGHT for: the span of the item with rules (from the zone's first daylight period on),
// else the years the observances name.
std::vector<int> daylight_years(const timezone_def& tz, bool rules, int first_year, int last_year) {
    std::vector<int> years;
    if (rules) {
        for (int y = std::max(first_year, earliest_daylight_year(tz)); y <= last_year; ++y) {
            if (years.size() == k_max_daylight_years) break;
            years.push_back(y);
        }
        return years;
    }
    for (const auto& o : tz.observances) {
        if (!o.daylight || std::find(years.begin(), years.end(), o.start.year) != years.end()) continue;
        years.push_back(o.start.year);
        if (years.size() == k_max_daylight_years) break;
    }
    return years;
}

struct standard_onset {
    std::int64_t at;  // local seconds, for ordering
    date_time local;
    const tz_observance* observance;
};

// The standard-time onsets of `year`, earliest first (observance order among equal times).
std::vector<standard_onset> standard_onsets(const timezone_def& tz, int year) {
    std::vector<standard_onset> out;
    for (const auto& s : tz.observances) {
        auto candidate = s.daylight ? std::nullopt : onset_in(s, year);
        if (candidate) out.push_back(standard_onset{to_epoch_seconds(*candidate), *candidate, &s});
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
    return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> timezone_to_vcal(const timezone_def& tz, int first_year,
                                                                  int last_year) {
    std::vector<std::pair<std::string, std::string>> out;
    const tz_observance* standard = nullptr;
    for (const auto& o : tz.observances) {
        if (!o.daylight && (standard == nullptr || o.start.year <= last_year)) standard = &o;
    }
    std::optional<int> std_minutes = parse_offset(standard != nullptr       ? standard->offset_to
                                                  : !tz.observances.empty() ? tz.observances[0].offset_from
                                                                            : std::string());
    if (!std_minutes) return out;
    out.emplace_back("TZ", format_offset(*std_minutes, true));
    bool rules = std::any_of(tz.observances.begin(), tz.observances.end(), [](auto& o) { return o.rule.has_value(); });
    for (int year : daylight_years(tz, rules, first_year, last_year)) {
        const auto ends = standard_onsets(tz, year);
        for (const auto& d : tz.observances) {
            auto begin = d.daylight ? onset_in(d, year) : std::nullopt;
            auto dst = parse_offset(d.offset_to);
            if (!begin || !dst) continue;
            // The first standard onset after the daylight one ends it.
            auto end = std::upper_bound(ends.begin(), ends.end(), to_epoch_seconds(*begin),
                                        [](std::int64_t at, const standard_onset& o) { return at < o.at; });
            if (end == ends.end()) continue;
            if (out.size() > k_max_daylight_lines) return out;
            out.emplace_back("DAYLIGHT", "TRUE;" + format_offset(*dst, true) + ";" +
                                             format_date_time(utc_of(*begin, *std_minutes)) + ";" +
                                             format_date_time(utc_of(end->local, *dst)) + ";" +
                                             escape_text(end->observance->name) + ";" + escape_text(d.name));
            if (!rules) break;
        }
    }
    return out;
}

}  // namespace syncml::matching
