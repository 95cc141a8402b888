// The vCalendar 1.0 recurrence grammar, mapped to and from RFC 5545 rules.
#include <charconv>
#include <vector>

#include "matching/calendar/calendar_values.hpp"

namespace syncml::matching {

namespace {

std::vector<std::string_view> tokens(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

// "3", "3+", "3-" (from the end), "LD" (last day); the '$' marker some writers append is ignored.
std::optional<int> ordinal(std::string_view token) {
    if (token == "LD") return -1;
    while (!token.empty() && token.back() == '$') token.remove_suffix(1);
    int sign = 1;
    if (!token.empty() && (token.back() == '+' || token.back() == '-')) {
        sign = token.back() == '-' ? -1 : 1;
        token.remove_suffix(1);
    }
    int v = 0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (token.empty() || ec != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
    return sign * v;
}

bool read_head(std::string_view head, recurrence_rule& r, std::string& kind) {
    std::size_t letters = 0;
    while (letters < head.size() && head[letters] >= 'A' && head[letters] <= 'Z') ++letters;
    kind = std::string(head.substr(0, letters));
    if (kind == "D")
        r.freq = frequency::daily;
    else if (kind == "W")
        r.freq = frequency::weekly;
    else if (kind == "MP" || kind == "MD")
        r.freq = frequency::monthly;
    else if (kind == "YM" || kind == "YD")
        r.freq = frequency::yearly;
    else if (kind == "M")
        r.freq = frequency::minutely;
    else
        return false;
    std::string_view digits = head.substr(letters);
    if (digits.empty()) return true;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), r.interval);
    return ec == std::errc() && ptr == digits.data() + digits.size() && r.interval > 0;
}

bool read_duration(std::string_view token, recurrence_rule& r) {
    if (token[0] == '#') {
        int count = 0;
        auto [ptr, ec] = std::from_chars(token.data() + 1, token.data() + token.size(), count);
        if (ec != std::errc() || ptr != token.data() + token.size() || count < 0) return false;
        if (count > 0) r.count = count;
        return true;
    }
    r.until = parse_date_time(token);
    return r.until.has_value();
}

bool read_item(std::string_view token, const std::string& kind, recurrence_rule& r, int& pending_ordinal) {
    if (auto day = weekday_from_name(token); day && token.size() == 2) {
        if (kind != "W" && kind != "MP") return false;
        r.by_day.push_back(weekday_num{kind == "MP" ? pending_ordinal : 0, *day});
        return true;
    }
    auto n = ordinal(token);
    if (!n) return false;
    if (kind == "MP")
        pending_ordinal = *n;
    else if (kind == "MD")
        r.by_month_day.push_back(*n);
    else if (kind == "YM")
        r.by_month.push_back(*n);
    else if (kind == "YD")
        r.by_year_day.push_back(*n);
    else
        return false;
    return true;
}

std::string ordinal_text(int n) { return std::to_string(n < 0 ? -n : n) + (n < 0 ? "-" : "+"); }

bool expressible(const recurrence_rule& r) {
    return r.by_hour.empty() && r.by_minute.empty() && r.by_second.empty() && r.by_set_pos.empty() &&
           r.by_week_no.empty() && !r.week_start_set && r.freq >= frequency::daily;
}

// "W1 MO TH": weekdays without ordinals only.
std::optional<std::string> weekly_body(const recurrence_rule& r) {
    if (!r.by_month_day.empty() || !r.by_month.empty() || !r.by_year_day.empty()) return std::nullopt;
    std::string out = "W" + std::to_string(r.interval);
    for (auto& d : r.by_day) {
        if (d.ordinal != 0) return std::nullopt;
        out += " " + std::string(weekday_name(d.weekday));
    }
    return out;
}

// "MP1 2+ MO" by weekdays with ordinals, or "MD1 1 15" by days of the month; never both.
std::optional<std::string> monthly_body(const recurrence_rule& r) {
    if (!r.by_month.empty() || !r.by_year_day.empty() || (!r.by_day.empty() && !r.by_month_day.empty()))
        return std::nullopt;
    const std::string i = std::to_string(r.interval);
    if (!r.by_day.empty()) {
        std::string out = "MP" + i;
        for (auto& d : r.by_day) {
            if (d.ordinal == 0 || d.ordinal > 5 || d.ordinal < -5) return std::nullopt;
            out += " " + ordinal_text(d.ordinal) + " " + std::string(weekday_name(d.weekday));
        }
        return out;
    }
    std::string out = "MD" + i;
    for (int d : r.by_month_day) out += " " + (d < 0 ? ordinal_text(d) : std::to_string(d));
    return out;
}

// "YM1 6" by months or "YD1 100" by days of the year.
std::optional<std::string> yearly_body(const recurrence_rule& r) {
    if (r.by_month.size() == 1 && r.by_year_day.empty() && (r.by_day.empty() != r.by_month_day.empty())) {
        // 1.0 has no yearly-by-weekday (or by-month-day) rule: every 12 months from DTSTART says it.
        recurrence_rule every_12_months = r;
        every_12_months.freq = frequency::monthly;
        every_12_months.interval = r.interval * 12;
        every_12_months.by_month.clear();
        return monthly_body(every_12_months);
    }
    if (!r.by_day.empty() || !r.by_month_day.empty() || (!r.by_month.empty() && !r.by_year_day.empty()))
        return std::nullopt;
    std::string out = (r.by_year_day.empty() ? "YM" : "YD") + std::to_string(r.interval);
    for (int m : r.by_month) out += " " + std::to_string(m);
    for (int d : r.by_year_day) out += " " + (d < 0 ? ordinal_text(d) : std::to_string(d));
    return out;
}

std::optional<std::string> rule_body(const recurrence_rule& r) {
    switch (r.freq) {
        case frequency::daily:
            if (!r.by_day.empty() || !r.by_month_day.empty() || !r.by_month.empty() || !r.by_year_day.empty()) break;
            return "D" + std::to_string(r.interval);
        case frequency::weekly:
            return weekly_body(r);
        case frequency::monthly:
            return monthly_body(r);
        case frequency::yearly:
            return yearly_body(r);
        default:
            break;
    }
    return std::nullopt;
}

}  // namespace

std::optional<recurrence_rule> yearly_equivalent(const recurrence_rule& r, const date_time& start) {
    if (r.freq != frequency::monthly || r.interval % 12 != 0 || !r.by_month.empty() || !r.by_year_day.empty() ||
        r.by_day.empty() == r.by_month_day.empty()) {
        return std::nullopt;
    }
    recurrence_rule yearly = r;
    yearly.freq = frequency::yearly;
    yearly.interval = r.interval / 12;
    yearly.by_month = {start.month};
    return yearly;
}

std::optional<recurrence_rule> parse_vcal_rule(std::string_view text, const std::optional<date_time>& start) {
    if (text.size() > k_max_rule_length) return std::nullopt;
    auto parts = tokens(text);
    if (parts.empty()) return std::nullopt;
    recurrence_rule r;
    std::string kind;
    if (!read_head(parts[0], r, kind)) return std::nullopt;
    int pending_ordinal = 0;
    bool has_duration = false;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        bool last = i + 1 == parts.size();
        if (last && (parts[i][0] == '#' || parts[i].size() >= 8)) {
            if (!read_duration(parts[i], r)) return std::nullopt;
            has_duration = true;
            continue;
        }
        if (!read_item(parts[i], kind, r, pending_ordinal)) return std::nullopt;
    }
    // vCalendar 1.0 section 3.1.2: a rule without a duration repeats twice.
    if (!has_duration) r.count = 2;
    if (!start) return r;
    // Without a list, YD repeats DTSTART's day of the year (not its date: they differ in leap years).
    if (kind == "YD" && r.by_year_day.empty())
        r.by_year_day.push_back(static_cast<int>(days_from_civil(start->year, start->month, start->day) -
                                                 days_from_civil(start->year, 1, 1)) +
                                1);
    return yearly_equivalent(r, *start).value_or(r);
}

std::optional<std::string> format_vcal_rule(const recurrence_rule& r) {
    if (!expressible(r)) return std::nullopt;
    auto body = rule_body(r);
    if (!body) return std::nullopt;
    // The 1.0 grammar wants a date-time; midnight of an all-day rule's last day keeps that day.
    if (r.until) return *body + " " + format_date_time(*r.until) + (r.until->date_only ? "T000000" : "");
    return *body + " #" + std::to_string(r.count.value_or(0));
}

}  // namespace syncml::matching
