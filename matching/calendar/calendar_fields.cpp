#include "matching/calendar/calendar_fields.hpp"

#include <array>
#include <charconv>

#include "common/text/ascii_case.hpp"
#include "matching/calendar/calendar_values.hpp"

namespace syncml::matching {

namespace {

bool in_zone(const std::optional<date_time>& t, const std::string& tzid) { return t && !t->utc && t->tzid == tzid; }

bool read_int(std::string_view text, int& out) {
    if (!text.empty() && text[0] == '+') text.remove_prefix(1);
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

bool only_params(const content_line& line, std::initializer_list<std::string_view> allowed) {
    for (const auto& p : line.params) {
        bool ok = false;
        for (auto a : allowed) ok = ok || p.name == a;
        if (!ok) return false;
    }
    return true;
}

bool take_text(std::string& field, const content_line& line) {
    if (!field.empty() || !line.params.empty() || line.value.empty()) return false;
    field = unescape_text(line.value);
    return true;
}

bool take_int(int& field, int unset, const content_line& line) {
    int v = 0;
    if (field != unset || !line.params.empty() || !read_int(line.value, v) || v == unset) return false;
    field = v;
    return true;
}

bool take_dates(std::vector<date_time>& out, const content_line& line, const std::string& default_tzid) {
    if (!only_params(line, {"TZID", "VALUE"})) return false;
    const param* value = find_param(line.params, "VALUE");
    if (value != nullptr && value->values != std::vector<std::string>{"DATE"} &&
        value->values != std::vector<std::string>{"DATE-TIME"}) {
        return false;
    }
    std::vector<date_time> dates;
    for (auto& part : split_escaped(line.value, ',')) {
        for (auto& piece : split_escaped(part, ';')) {
            if (piece.empty()) continue;
            content_line one{line.group, line.name, line.params, piece, line.line};
            auto d = read_time(one, default_tzid);
            if (!d) return false;
            dates.push_back(*d);
        }
    }
    if (dates.empty()) return false;
    out.insert(out.end(), dates.begin(), dates.end());
    return true;
}

constexpr std::array<std::string_view, 24> k_shared = {
    "ATTACH", "ATTENDEE", "CATEGORIES",    "CLASS",    "DESCRIPTION", "DTEND", "DTSTART",    "DUE",
    "EXDATE", "EXRULE",   "LAST-MODIFIED", "LOCATION", "PRIORITY",    "RDATE", "RELATED-TO", "RESOURCES",
    "RRULE",  "SEQUENCE", "STATUS",        "SUMMARY",  "TRANSP",      "UID",   "URL",        "COMPLETED"};
constexpr std::array<std::string_view, 8> k_vcal_only = {"AALARM",   "DALARM", "PALARM", "MALARM",
                                                         "DCREATED", "RNUM",   "TZ",     "DAYLIGHT"};

}  // namespace

bool is_shared_calendar_property(std::string_view name) {
    for (auto n : k_shared) {
        if (n == name) return true;
    }
    return name == "GEO" || name == "PRODID" || name == "VERSION";
}

bool is_vcal_only_property(std::string_view name) {
    for (auto n : k_vcal_only) {
        if (n == name) return true;
    }
    return false;
}

std::optional<date_time>* date_field(calendar_component& c, std::string_view name) {
    if (name == "DTSTART") return &c.start;
    if (name == "DTEND") return &c.end;
    if (name == "DUE") return &c.due;
    if (name == "COMPLETED") return &c.completed;
    if (name == "RECURRENCE-ID") return &c.recurrence_id;
    if (name == "CREATED" || name == "DCREATED") return &c.created;
    if (name == "LAST-MODIFIED") return &c.last_modified;
    if (name == "DTSTAMP") return &c.stamp;
    return nullptr;
}

bool uses_timezone(const calendar_component& c, const std::string& tzid) {
    for (const auto* t :
         {&c.start, &c.end, &c.due, &c.completed, &c.recurrence_id, &c.created, &c.last_modified, &c.stamp}) {
        if (in_zone(*t, tzid)) return true;
    }
    for (const auto& r : c.rrules) {
        if (in_zone(r.until, tzid)) return true;
    }
    for (const auto* list : {&c.exdates, &c.rdates}) {
        for (const auto& t : *list) {
            if (in_zone(t, tzid)) return true;
        }
    }
    for (const auto& a : c.alarms) {
        if (in_zone(a.trigger_time, tzid)) return true;
    }
    return false;
}

std::optional<date_time> read_time(const content_line& line, const std::string& default_tzid) {
    auto d = parse_date_time(line.value);
    if (!d) return std::nullopt;
    const param* value = find_param(line.params, "VALUE");
    if (value != nullptr && !value->values.empty() && value->values[0] == "DATE") {
        *d = date_time{d->year, d->month, d->day, 0, 0, 0, true, false, {}};
    }
    const param* tz = find_param(line.params, "TZID");
    if (d->utc || d->date_only) return d;
    if (tz != nullptr && !tz->values.empty())
        d->tzid = tz->values[0];
    else
        d->tzid = default_tzid;
    return d;
}

namespace {

// The properties that add to a list: categories, rules and dates.
bool apply_ical_lists(calendar_component& c, const content_line& line, const std::string& default_tzid) {
    const std::string& n = line.name;
    if (n == "CATEGORIES") {
        if (!line.params.empty()) return false;
        for (auto& part : split_escaped(line.value, ',')) c.categories.push_back(unescape_text(part));
        return true;
    }
    if (n == "RRULE") {
        if (!line.params.empty()) return false;
        auto rule = parse_rrule(line.value);
        if (rule) c.rrules.push_back(*rule);
        return rule.has_value();
    }
    if (n == "EXDATE") return take_dates(c.exdates, line, default_tzid);
    if (n == "RDATE") return take_dates(c.rdates, line, default_tzid);
    return false;
}

}  // namespace

bool apply_ical_property(calendar_component& c, const content_line& line, const std::string& default_tzid) {
    const std::string& n = line.name;
    if (n == "UID") return take_text(c.uid, line);
    if (n == "SUMMARY") return take_text(c.summary, line);
    if (n == "DESCRIPTION") return take_text(c.description, line);
    if (n == "LOCATION") return take_text(c.location, line);
    if (auto* field = date_field(c, n); field != nullptr && n != "DCREATED") {
        if (field->has_value() || !only_params(line, {"TZID", "VALUE"})) return false;
        *field = read_time(line, default_tzid);
        return field->has_value();
    }
    if (n == "DURATION") {
        auto seconds = parse_duration(line.value);
        if (!c.duration.empty() || !line.params.empty() || !seconds) return false;
        c.duration = format_duration(*seconds);
        return true;
    }
    if (n == "PERCENT-COMPLETE") return take_int(c.percent_complete, -1, line);
    if (n == "PRIORITY") return take_int(c.priority, 0, line);
    if (n == "SEQUENCE") return take_int(c.sequence, -1, line);
    if (n == "STATUS" || n == "CLASS" || n == "TRANSP") {
        std::string& field = n == "STATUS" ? c.status : n == "CLASS" ? c.class_ : c.transparency;
        if (!field.empty() || !line.params.empty() || line.value.empty()) return false;
        field = common::to_upper(unescape_text(line.value));
        return true;
    }
    return apply_ical_lists(c, line, default_tzid);
}

std::string status_from_vcal(std::string_view value, item_kind kind) {
    std::string v = common::to_upper(value);
    if (v == "NEEDS ACTION" || v == "NEEDS-ACTION") return "NEEDS-ACTION";
    if (v == "ACCEPTED") return kind == item_kind::task ? "IN-PROCESS" : "CONFIRMED";
    if (v == "DECLINED") return "CANCELLED";
    if (v == "SENT" || v == "DELEGATED") return "NEEDS-ACTION";
    return v;
}

std::string status_to_vcal(std::string_view status) {
    if (status == "NEEDS-ACTION") return "NEEDS ACTION";
    if (status == "IN-PROCESS") return "ACCEPTED";
    if (status == "CANCELLED") return "DECLINED";
    return std::string(status);
}

int priority_from_vcal(int value) {
    // Phones use 1 (high), 2 (normal), 3 (low); RFC 5545 spreads the same over 1..9.
    if (value == 2) return 5;
    if (value == 3) return 9;
    return value;
}

int priority_to_vcal(int priority) {
    if (priority == 5) return 2;
    if (priority == 9) return 3;
    if (priority >= 1 && priority <= 4) return 1;
    if (priority >= 6) return 3;
    return priority;
}

}  // namespace syncml::matching
