#include "matching/calendar/calendar_values.hpp"

#include <array>
#include <charconv>
#include <vector>

#include "common/text/ascii_case.hpp"

namespace syncml::matching {

namespace {

constexpr std::array<std::string_view, 7> k_weekdays = {"SU", "MO", "TU", "WE", "TH", "FR", "SA"};

bool read_int(std::string_view text, int& out) {
    if (text.empty()) return false;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size();
}

std::string two(int v) {
    return std::string(1, static_cast<char>('0' + v / 10 % 10)) + static_cast<char>('0' + v % 10);
}

bool valid(const date_time& d) {
    return d.year >= 0 && d.year <= 9999 && d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= 31 && d.hour >= 0 &&
           d.hour <= 24 && d.minute >= 0 && d.minute <= 59 && d.second >= 0 && d.second <= 60;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == sep) {
            out.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    return out;
}

bool parse_int_list(std::string_view text, std::vector<int>& out) {
    for (auto part : split(text, ',')) {
        int v = 0;
        if (!part.empty() && part[0] == '+') part.remove_prefix(1);
        if (!read_int(part, v)) return false;
        out.push_back(v);
    }
    return true;
}

std::optional<weekday_num> parse_weekday_num(std::string_view text) {
    if (text.size() < 2) return std::nullopt;
    auto day = weekday_from_name(text.substr(text.size() - 2));
    if (!day) return std::nullopt;
    weekday_num w{0, *day};
    std::string_view ord = text.substr(0, text.size() - 2);
    if (!ord.empty() && ord[0] == '+') ord.remove_prefix(1);
    if (!ord.empty() && !read_int(ord, w.ordinal)) return std::nullopt;
    return w;
}

const std::array<std::pair<std::string_view, frequency>, 7> k_freqs = {{{"SECONDLY", frequency::secondly},
                                                                        {"MINUTELY", frequency::minutely},
                                                                        {"HOURLY", frequency::hourly},
                                                                        {"DAILY", frequency::daily},
                                                                        {"WEEKLY", frequency::weekly},
                                                                        {"MONTHLY", frequency::monthly},
                                                                        {"YEARLY", frequency::yearly}}};

bool apply_rrule_part(recurrence_rule& r, std::string_view key, std::string_view value, bool& has_freq) {
    if (key == "FREQ") {
        for (auto& [name, f] : k_freqs) {
            if (name == value) r.freq = f, has_freq = true;
        }
        return has_freq;
    }
    if (key == "INTERVAL") return read_int(value, r.interval) && r.interval > 0;
    if (key == "COUNT") return read_int(value, r.count.emplace());
    if (key == "UNTIL") return (r.until = parse_date_time(value)).has_value();
    if (key == "WKST") {
        auto d = weekday_from_name(value);
        r.week_start = d.value_or(1);
        r.week_start_set = true;
        return d.has_value();
    }
    if (key == "BYDAY") {
        for (auto part : split(value, ',')) {
            auto w = parse_weekday_num(part);
            if (!w) return false;
            r.by_day.push_back(*w);
        }
        return true;
    }
    if (key == "BYMONTHDAY") return parse_int_list(value, r.by_month_day);
    if (key == "BYMONTH") return parse_int_list(value, r.by_month);
    if (key == "BYYEARDAY") return parse_int_list(value, r.by_year_day);
    if (key == "BYWEEKNO") return parse_int_list(value, r.by_week_no);
    if (key == "BYSETPOS") return parse_int_list(value, r.by_set_pos);
    if (key == "BYHOUR") return parse_int_list(value, r.by_hour);
    if (key == "BYMINUTE") return parse_int_list(value, r.by_minute);
    if (key == "BYSECOND") return parse_int_list(value, r.by_second);
    return false;
}

void append_list(std::string& out, std::string_view key, const std::vector<int>& values) {
    if (values.empty()) return;
    out.append(";").append(key).append("=");
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0) out += ',';
        out += std::to_string(values[i]);
    }
}

}  // namespace

std::string_view weekday_name(int weekday) { return k_weekdays[static_cast<std::size_t>(weekday % 7)]; }

std::optional<int> weekday_from_name(std::string_view name) {
    for (std::size_t i = 0; i < k_weekdays.size(); ++i) {
        if (name.size() == 2 && (name[0] & ~0x20) == k_weekdays[i][0] && (name[1] & ~0x20) == k_weekdays[i][1]) {
            return static_cast<int>(i);
        }
    }
    return std::nullopt;
}

std::optional<date_time> parse_date_time(std::string_view text) {
    std::string digits;
    bool utc = false;
    for (char c : text) {
        if (c == '-' || c == ':') continue;
        if (c == 'Z' || c == 'z') {
            utc = true;
            break;
        }
        digits += c;
    }
    date_time d;
    if (digits.size() < 8 || !read_int(std::string_view(digits).substr(0, 4), d.year) ||
        !read_int(std::string_view(digits).substr(4, 2), d.month) ||
        !read_int(std::string_view(digits).substr(6, 2), d.day)) {
        return std::nullopt;
    }
    if (digits.size() == 8) {
        d.date_only = !utc;
        return valid(d) ? std::optional(d) : std::nullopt;
    }
    std::string_view time = std::string_view(digits).substr(8);
    if (time.empty() || (time[0] != 'T' && time[0] != 't')) return std::nullopt;
    time.remove_prefix(1);
    if (time.size() != 6 && time.size() != 4) return std::nullopt;
    if (!read_int(time.substr(0, 2), d.hour) || !read_int(time.substr(2, 2), d.minute)) return std::nullopt;
    if (time.size() == 6 && !read_int(time.substr(4, 2), d.second)) return std::nullopt;
    d.utc = utc;
    return valid(d) ? std::optional(d) : std::nullopt;
}

std::string format_date_time(const date_time& v) {
    std::string out = std::to_string(v.year);
    while (out.size() < 4) out.insert(out.begin(), '0');
    out += two(v.month) + two(v.day);
    if (v.date_only) return out;
    out += 'T';
    out += two(v.hour);
    out += two(v.minute);
    out += two(v.second);
    if (v.utc) out += 'Z';
    return out;
}

std::int64_t days_from_civil(int y, int m, int d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, int& year, int& month, int& day) {
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    year = static_cast<int>(static_cast<std::int64_t>(yoe) + era * 400 + (month <= 2));
}

int weekday_of(int year, int month, int day) {
    std::int64_t days = days_from_civil(year, month, day);
    return static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday
}

std::int64_t to_epoch_seconds(const date_time& v) {
    return days_from_civil(v.year, v.month, v.day) * 86400 + v.hour * 3600 + v.minute * 60 + v.second;
}

date_time from_epoch_seconds(std::int64_t seconds, bool utc, const std::string& tzid) {
    date_time d;
    std::int64_t days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
    std::int64_t rest = seconds - days * 86400;
    civil_from_days(days, d.year, d.month, d.day);
    d.hour = static_cast<int>(rest / 3600);
    d.minute = static_cast<int>(rest / 60 % 60);
    d.second = static_cast<int>(rest % 60);
    d.utc = utc;
    d.tzid = tzid;
    return d;
}

std::optional<std::int64_t> parse_duration(std::string_view text) {
    bool negative = false;
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || text[0] != 'P') return std::nullopt;
    text.remove_prefix(1);
    std::int64_t total = 0;
    bool in_time = false, any = false;
    std::int64_t number = -1;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            number = (number < 0 ? 0 : number * 10) + (c - '0');
            if (number > 100000000) return std::nullopt;
            continue;
        }
        if (c == 'T') {
            in_time = true;
            continue;
        }
        if (number < 0) return std::nullopt;
        std::int64_t unit = c == 'W'              ? 604800
                            : c == 'D'            ? 86400
                            : c == 'H'            ? 3600
                            : c == 'M' && in_time ? 60
                            : c == 'S'            ? 1
                                                  : 0;
        if (unit == 0) return std::nullopt;
        total += number * unit;
        number = -1;
        any = true;
    }
    if (!any || number >= 0) return std::nullopt;
    return negative ? -total : total;
}

std::string format_duration(std::int64_t seconds) {
    std::string out = seconds < 0 ? "-P" : "P";
    std::uint64_t s = seconds < 0 ? static_cast<std::uint64_t>(-seconds) : static_cast<std::uint64_t>(seconds);
    if (s == 0) return "PT0S";
    if (s % 604800 == 0) return out + std::to_string(s / 604800) + "W";
    if (s >= 86400) out += std::to_string(s / 86400) + "D";
    s %= 86400;
    if (s == 0) return out;
    out += "T";
    if (s >= 3600) out += std::to_string(s / 3600) + "H";
    if (s % 3600 >= 60) out += std::to_string(s % 3600 / 60) + "M";
    if (s % 60 != 0) out += std::to_string(s % 60) + "S";
    return out;
}

std::optional<recurrence_rule> parse_rrule(std::string_view text) {
    if (text.size() > k_max_rule_length) return std::nullopt;
    recurrence_rule r;
    bool has_freq = false;
    for (auto part : split(text, ';')) {
        if (part.empty()) continue;
        auto eq = part.find('=');
        if (eq == std::string_view::npos) return std::nullopt;
        const std::string key = common::to_upper(part.substr(0, eq));
        if (!apply_rrule_part(r, key, part.substr(eq + 1), has_freq)) return std::nullopt;
    }
    if (!has_freq) return std::nullopt;
    return r;
}

std::string format_rrule(const recurrence_rule& r) {
    std::string out = "FREQ=";
    for (auto& [name, f] : k_freqs) {
        if (f == r.freq) out += name;
    }
    if (r.until) out += ";UNTIL=" + format_date_time(*r.until);
    if (r.count) out += ";COUNT=" + std::to_string(*r.count);
    if (r.interval != 1) out += ";INTERVAL=" + std::to_string(r.interval);
    append_list(out, "BYSECOND", r.by_second);
    append_list(out, "BYMINUTE", r.by_minute);
    append_list(out, "BYHOUR", r.by_hour);
    if (!r.by_day.empty()) {
        out += ";BYDAY=";
        for (std::size_t i = 0; i < r.by_day.size(); ++i) {
            if (i) out += ',';
            if (r.by_day[i].ordinal != 0) out += std::to_string(r.by_day[i].ordinal);
            out += weekday_name(r.by_day[i].weekday);
        }
    }
    append_list(out, "BYMONTHDAY", r.by_month_day);
    append_list(out, "BYYEARDAY", r.by_year_day);
    append_list(out, "BYWEEKNO", r.by_week_no);
    append_list(out, "BYMONTH", r.by_month);
    append_list(out, "BYSETPOS", r.by_set_pos);
    if (r.week_start_set) out += ";WKST=" + std::string(weekday_name(r.week_start));
    return out;
}

}  // namespace syncml::matching
