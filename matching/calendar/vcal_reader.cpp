#include "matching/calendar/vcal_reader.hpp"

#include <algorithm>

#include "common/text/ascii_case.hpp"
#include "matching/calendar/calendar_fields.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/calendar/vcal_alarm.hpp"
#include "matching/calendar/vcal_attendee.hpp"
#include "matching/calendar/vcal_rule_choice.hpp"

namespace syncml::matching {

namespace {

property to_property(const content_line& line) { return property{line.group, line.name, line.params, line.value}; }

// vCalendar 1.0 has no DATE values: an all-day event runs from local midnight to 23:59 (or the next midnight).
void detect_all_day(calendar_component& c) {
    if (!c.start || c.start->utc || c.start->date_only || !c.end || c.end->utc) return;
    const date_time& s = *c.start;
    const date_time& e = *c.end;
    if (s.hour != 0 || s.minute != 0 || s.second != 0) return;
    bool end_of_day = e.hour == 23 && e.minute == 59;
    bool next_midnight = e.hour == 0 && e.minute == 0 && e.second == 0 && to_epoch_seconds(e) > to_epoch_seconds(s);
    if (!end_of_day && !next_midnight) return;
    std::int64_t end_day = days_from_civil(e.year, e.month, e.day) + (end_of_day ? 1 : 0);
    c.start = date_time{s.year, s.month, s.day, 0, 0, 0, true, false, {}};
    date_time end{};
    civil_from_days(end_day, end.year, end.month, end.day);
    end.date_only = true;
    c.end = end;
}

void dates_follow_start(calendar_component& c) {
    if (!c.start || !c.start->date_only) return;
    auto to_date = [](date_time& d) {
        if (!d.utc && d.hour == 0 && d.minute == 0 && d.second == 0)
            d = date_time{d.year, d.month, d.day, 0, 0, 0, true, false, {}};
    };
    for (auto& r : c.rrules) {
        // Synthesis-based phones end an all-day rule at the end of its last day (D1 20240814T235959).
        if (r.until && !r.until->utc && r.until->hour == 23 && r.until->minute == 59) {
            r.until = date_time{r.until->year, r.until->month, r.until->day, 0, 0, 0, true, false, {}};
        }
        if (r.until) to_date(*r.until);
    }
    for (auto& d : c.exdates) to_date(d);
    for (auto& d : c.rdates) to_date(d);
}

void clear_field(calendar_component& c, std::string_view name) {
    if (auto* field = date_field(c, name)) field->reset();
    if (name == "STATUS") c.status.clear();
    if (name == "PRIORITY") c.priority = 0;
    if (name == "TRANSP") c.transparency.clear();
    if (name == "CLASS") c.class_.clear();
    if (name == "EXDATE") c.exdates.clear();
    if (name == "RDATE") c.rdates.clear();
    if (name == "PERCENT-COMPLETE") c.percent_complete = -1;
    if (name == "SEQUENCE") c.sequence = -1;
    if (name == "DURATION") c.duration.clear();
}

// Hints carry iCalendar semantics: floating stays floating.
void apply_hints(calendar_component& c, std::vector<content_line>& hints) {
    for (auto& line : hints) clear_field(c, line.name.substr(k_ical_hint.size()));
    for (auto& line : hints) {
        line.name = line.name.substr(k_ical_hint.size());
        if (!apply_ical_property(c, line, {})) c.extra.push_back(to_property(line));
    }
}

bool apply_value_set(calendar_component& c, const content_line& line) {
    const std::string& n = line.name;
    if (n == "STATUS") {
        c.status = status_from_vcal(unescape_text(line.value), c.kind);
        if (status_to_vcal(c.status) != common::to_upper(unescape_text(line.value))) {
            c.extra.push_back(property{{}, std::string(k_vcal_hint) + "STATUS", {}, line.value});
        }
        return true;
    }
    if (n == "PRIORITY") {
        int v = std::atoi(line.value.c_str());
        if (std::to_string(v) != line.value || v < 0) return false;
        c.priority = priority_from_vcal(v);
        if (priority_to_vcal(c.priority) != v)
            c.extra.push_back(property{{}, std::string(k_vcal_hint) + "PRIORITY", {}, line.value});
        return true;
    }
    std::string v = common::to_upper(line.value);
    if (v == "0" || v == "OPAQUE")
        c.transparency = "OPAQUE";
    else if (v == "1" || v == "TRANSPARENT")
        c.transparency = "TRANSPARENT";
    else
        return false;
    return true;
}

// A deferred line that is no hint still counts in `as_ical` under its own name, as it always did.
void defer(vcal_deferred& deferred, const content_line& line) {
    apply_ical_property(deferred.as_ical, line, {});
    deferred.lines.push_back(line);
}

// Hints for typed fields override the 1.0 value after the whole component is read; other iCalendar-only
// properties go back to `extra` right here, keeping their order. A hint that fills nothing leaves `as_ical` as it
// was, one that fills a field has thereby been counted in it.
void read_ical_hint(calendar_component& c, const content_line& line, vcal_deferred& deferred) {
    content_line stripped = line;
    stripped.name = line.name.substr(k_ical_hint.size());
    if (stripped.name == "VALARM" || apply_ical_property(deferred.as_ical, stripped, {})) {
        deferred.lines.push_back(line);
    } else {
        c.extra.push_back(to_property(stripped));
    }
}

void read_vcal_rule(calendar_component& c, content_line& line, vcal_deferred& deferred) {
    const std::string& n = line.name;
    auto rule = n == "RRULE" ? parse_vcal_rule(line.value) : std::nullopt;
    if (rule && line.params.empty())
        defer(deferred, line);  // read again once DTSTART is known
    else
        line.name = std::string(k_vcal_hint) + n, c.extra.push_back(to_property(line));
}

void read_categories(calendar_component& c, const content_line& line) {
    for (auto& part : split_escaped(line.value, ';')) {
        for (auto& item : split_escaped(part, ',')) c.categories.push_back(unescape_text(item));
    }
}

}  // namespace

bool apply_vcal_property(calendar_component& c, content_line& line, const vcal_context& context,
                         vcal_deferred& deferred) {
    const std::string& n = line.name;
    if (is_vcal_alarm_property(n)) {
        defer(deferred, line);
        return true;
    }
    if (n.starts_with(k_ical_hint)) {
        read_ical_hint(c, line, deferred);
        return true;
    }
    if (n == "RRULE" || n == "EXRULE") {
        read_vcal_rule(c, line, deferred);
        return true;
    }
    if (n == "ATTENDEE") {
        attendee_from_vcal(line);
        return false;  // an extra property, now in its 2.0 form
    }
    if (n == "CATEGORIES" && line.params.empty()) {
        read_categories(c, line);
        return true;
    }
    if (n == "DCREATED" && only_params_named(line, "TZID") && !c.created) {
        c.created = read_time(line, context.tzid);
        return c.created.has_value();
    }
    if ((n == "STATUS" && c.status.empty()) || (n == "PRIORITY" && c.priority == 0) ||
        (n == "TRANSP" && c.transparency.empty())) {
        return line.params.empty() && apply_value_set(c, line);
    }
    return false;
}

void finish_vcal_component(calendar_component& c, vcal_deferred& deferred, const vcal_context&) {
    std::vector<content_line> hints, alarms;
    std::size_t real_rules = 0;
    for (auto& line : deferred.lines) {
        if (line.name == std::string(k_ical_hint) + "VALARM" || is_vcal_alarm_property(line.name))
            alarms.push_back(std::move(line));
        else if (line.name.starts_with(k_ical_hint))
            hints.push_back(std::move(line));
        else if (line.name == "RRULE") {
            c.rrules.push_back(*parse_vcal_rule(line.value, c.start));
            ++real_rules;
        }
    }
    // Alarms are read against the times as written, before hints restore other zones.
    for (auto& a : read_vcal_alarms(alarms, c)) c.alarms.push_back(std::move(a));
    apply_hints(c, hints);
    restore_hinted_vcal_rule(c.rrules, real_rules, c.start);
    // Value-set hints go last so that their position does not depend on where STATUS/PRIORITY stood.
    std::stable_partition(c.extra.begin(), c.extra.end(), [](const property& p) {
        return p.name != std::string(k_vcal_hint) + "STATUS" && p.name != std::string(k_vcal_hint) + "PRIORITY";
    });
    detect_all_day(c);
    dates_follow_start(c);
}

// The first hint stands for TZ/DAYLIGHT (they were derived from it); later ones are further zones.
vcal_context make_vcal_context(const raw_component& root, calendar& cal) {
    vcal_context context;
    std::vector<timezone_def> hinted;
    for (const auto& line : root.lines) {
        if (line.name != std::string(k_ical_hint) + "VTIMEZONE") continue;
        std::string text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + unescape_text(line.value) + "\r\nEND:VCALENDAR\r\n";
        auto parsed = parse_calendars(text, calendar_version::ical20);
        if (parsed && parsed->size() == 1 && (*parsed)[0].timezones.size() == 1) {
            hinted.push_back((*parsed)[0].timezones[0]);
        }
    }
    auto tz = timezone_from_vcal(root.lines);
    bool primary_hinted = tz && !hinted.empty();
    if (tz && !primary_hinted) cal.timezones.push_back(*tz);
    cal.timezones.insert(cal.timezones.end(), hinted.begin(), hinted.end());
    if (!cal.timezones.empty()) context.tzid = cal.timezones[0].tzid;
    context.tz_consumed = tz.has_value() || !hinted.empty();
    return context;
}

bool consumed_by_vcal_context(const content_line& line, const vcal_context& context) {
    if (!context.tz_consumed) return false;
    return line.name == "TZ" || line.name == "DAYLIGHT" || line.name == std::string(k_ical_hint) + "VTIMEZONE";
}

}  // namespace syncml::matching
