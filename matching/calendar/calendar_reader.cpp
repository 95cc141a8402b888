// Reading iCalendar 2.0 / vCalendar 1.0 component trees into the calendar model.
#include "matching/calendar/calendar_codec.hpp"

#include <algorithm>

#include "matching/calendar/calendar_fields.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/calendar/vcal_reader.hpp"
#include "matching/match/normalize_time.hpp"

namespace syncml::matching {

namespace {

property to_property(const content_line& line) { return property{line.group, line.name, line.params, line.value}; }

bool read_alarm_property(alarm& a, const content_line& line) {
    const std::string& n = line.name;
    auto text_field = [&](std::string& field) {
        if (!field.empty() || !line.params.empty()) return false;
        field = n == "DESCRIPTION" ? unescape_text(line.value) : line.value;
        return !field.empty();
    };
    if (n == "ACTION") return text_field(a.action);
    if (n == "DESCRIPTION") return text_field(a.description);
    if (n == "ATTACH") return text_field(a.attach);
    if (n == "DURATION") {
        auto seconds = parse_duration(line.value);
        if (!seconds || !text_field(a.duration)) return false;
        a.duration = format_duration(*seconds);
        return true;
    }
    if (n == "REPEAT") {
        if (a.repeat != 0 || !line.params.empty()) return false;
        a.repeat = std::atoi(line.value.c_str());
        return a.repeat > 0 && std::to_string(a.repeat) == line.value;
    }
    if (n != "TRIGGER" || !a.trigger_duration.empty() || a.trigger_time) return false;
    const param* value = find_param(line.params, "VALUE");
    const param* related = find_param(line.params, "RELATED");
    for (const auto& p : line.params) {
        if (p.name != "VALUE" && p.name != "RELATED") return false;
    }
    if (value != nullptr && value->values == std::vector<std::string>{"DATE-TIME"}) {
        a.trigger_time = parse_date_time(line.value);
        return a.trigger_time.has_value();
    }
    auto seconds = parse_duration(line.value);
    if (!seconds) return false;
    a.trigger_duration = format_duration(*seconds);
    a.trigger_related_end = related != nullptr && related->values == std::vector<std::string>{"END"};
    return related == nullptr || a.trigger_related_end || related->values == std::vector<std::string>{"START"};
}

alarm read_alarm(const raw_component& raw) {
    alarm a;
    for (const auto& line : raw.lines) {
        if (!read_alarm_property(a, line)) a.extra.push_back(to_property(line));
    }
    for (const auto& child : raw.children) flatten_component(child, a.extra);
    return a;
}

tz_observance read_observance(const raw_component& raw) {
    tz_observance o;
    o.daylight = raw.name == "DAYLIGHT";
    bool has_start = false;
    for (const auto& line : raw.lines) {
        const std::string& n = line.name;
        bool plain = line.params.empty();
        if (n == "DTSTART" && plain && !has_start && parse_date_time(line.value)) {
            o.start = *parse_date_time(line.value);
            has_start = true;
        } else if (n == "TZOFFSETFROM" && plain && o.offset_from.empty()) {
            o.offset_from = line.value;
        } else if (n == "TZOFFSETTO" && plain && o.offset_to.empty()) {
            o.offset_to = line.value;
        } else if (n == "TZNAME" && plain && o.name.empty() && !line.value.empty()) {
            o.name = unescape_text(line.value);
        } else if (n == "RRULE" && plain && !o.rule && parse_rrule(line.value)) {
            o.rule = parse_rrule(line.value);
        } else if (n == "RDATE" && only_params_named(line, "VALUE") && parse_date_time(line.value)) {
            o.rdates.push_back(*parse_date_time(line.value));
        } else {
            o.extra.push_back(to_property(line));
        }
    }
    for (const auto& child : raw.children) flatten_component(child, o.extra);
    return o;
}

timezone_def read_timezone(const raw_component& raw) {
    timezone_def tz;
    for (const auto& line : raw.lines) {
        if (line.name == "TZID" && line.params.empty() && tz.tzid.empty())
            tz.tzid = unescape_text(line.value);
        else
            tz.extra.push_back(to_property(line));
    }
    for (const auto& child : raw.children) {
        if (child.name == "STANDARD" || child.name == "DAYLIGHT")
            tz.observances.push_back(read_observance(child));
        else
            flatten_component(child, tz.extra);
    }
    return tz;
}

item_kind kind_from_name(std::string_view name) {
    return name == "VTODO" ? item_kind::task : name == "VJOURNAL" ? item_kind::memo : item_kind::event;
}

calendar_component read_component(const raw_component& raw, const vcal_context* vcal) {
    calendar_component c;
    c.kind = kind_from_name(raw.name);
    std::string default_tzid = vcal != nullptr ? vcal->tzid : std::string();
    vcal_deferred deferred;
    for (const auto& original : raw.lines) {
        content_line line = original;
        if (vcal != nullptr && apply_vcal_property(c, line, *vcal, deferred)) continue;
        if (apply_ical_property(c, line, default_tzid)) continue;
        if (vcal != nullptr && is_vcal_only_property(line.name)) line.name = std::string(k_vcal_hint) + line.name;
        c.extra.push_back(to_property(line));
    }
    for (const auto& child : raw.children) {
        if (child.name == "VALARM")
            c.alarms.push_back(read_alarm(child));
        else
            flatten_component(child, c.extra);
    }
    if (vcal != nullptr) finish_vcal_component(c, deferred, *vcal);
    return c;
}

// A 1.0 rule ends in local time like DTSTART; RFC 5545 wants UNTIL in UTC when DTSTART has a zone or is UTC
// (Synthesis phones send DTSTART in UTC and the rule's end in local time).
void rule_ends_in_utc(calendar& cal, const vcal_context& vcal) {
    auto zone = std::find_if(cal.timezones.begin(), cal.timezones.end(),
                             [&](const timezone_def& tz) { return tz.tzid == vcal.tzid; });
    if (vcal.tzid.empty() || zone == cal.timezones.end()) return;
    for (auto& c : cal.components) {
        if (!c.start || c.start->date_only || (!c.start->utc && c.start->tzid != vcal.tzid)) continue;
        for (auto& r : c.rrules) {
            if (!r.until || r.until->utc || r.until->date_only || !r.until->tzid.empty()) continue;
            if (auto offset = utc_offset_at(*r.until, *zone))
                r.until = from_epoch_seconds(to_epoch_seconds(*r.until) - *offset, true, {});
        }
    }
}

// TZ/DAYLIGHT only say how to read local times. Phones that write every time in UTC still send them
// (SyncEvolution: TZ:+00:00 and DAYLIGHT:FALSE); the zone they would make is then unused, and kept it would
// make the event differ from its iCalendar copy on another device. A zone an earlier conversion left as a
// hint came from the iCalendar original and stays.
void drop_unused_vcal_zone(calendar& cal, const raw_component& root, const vcal_context& vcal) {
    const std::string hint = std::string(k_ical_hint) + "VTIMEZONE";
    if (!vcal.tz_consumed || vcal.tzid.empty() || cal.timezones.empty() || cal.timezones[0].tzid != vcal.tzid) return;
    for (const auto& line : root.lines) {
        if (line.name == hint) return;
    }
    for (const auto& c : cal.components) {
        if (uses_timezone(c, vcal.tzid)) return;
    }
    cal.timezones.erase(cal.timezones.begin());
}

bool is_calendar_component(std::string_view name) { return name == "VEVENT" || name == "VTODO" || name == "VJOURNAL"; }

calendar read_calendar(raw_component& root, calendar_version fallback) {
    calendar cal;
    std::string version;
    for (const auto& line : root.lines) {
        if (line.name == "VERSION" && version.empty()) version = line.value;
    }
    bool legacy = version.empty() ? fallback == calendar_version::vcal10 : version.starts_with("1.");
    std::optional<vcal_context> vcal;
    if (legacy) vcal = make_vcal_context(root, cal);
    for (auto line : root.lines) {
        if (line.name == "VERSION") continue;
        if (vcal && line.name.starts_with(k_ical_hint) && !consumed_by_vcal_context(line, *vcal)) {
            line.name = line.name.substr(k_ical_hint.size());
        }
        if (line.name == "PRODID" && line.params.empty() && cal.prodid.empty()) {
            cal.prodid = unescape_text(line.value);
            if (cal.prodid == k_default_prodid) cal.prodid.clear();
        } else if (line.name == "METHOD" && line.params.empty() && cal.method.empty())
            cal.method = line.value;
        else if (!vcal || !consumed_by_vcal_context(line, *vcal)) {
            cal.extra.push_back(to_property(line));
            if (vcal && is_vcal_only_property(line.name)) cal.extra.back().name.insert(0, k_vcal_hint);
        }
    }
    for (auto& child : root.children) {
        if (child.name == "VTIMEZONE")
            cal.timezones.push_back(read_timezone(child));
        else if (is_calendar_component(child.name))
            cal.components.push_back(read_component(child, vcal ? &*vcal : nullptr));
        else
            flatten_component(child, cal.extra);
    }
    if (vcal) {
        rule_ends_in_utc(cal, *vcal);
        drop_unused_vcal_zone(cal, root, *vcal);
    }
    return cal;
}

void to_modern_escapes(raw_component& c) {
    for (auto& line : c.lines) {
        if (find_param(line.params, "ENCODING") == nullptr) line.value = legacy_to_modern_escapes(line.value);
    }
    for (auto& child : c.children) to_modern_escapes(child);
}

}  // namespace

bool only_params_named(const content_line& line, std::string_view name) {
    for (const auto& p : line.params) {
        if (p.name != name) return false;
    }
    return true;
}

result<std::vector<calendar>> parse_calendars(std::string_view data, calendar_version fallback,
                                              const parse_limits& limits) {
    auto lines = read_content_lines(data, limits);
    if (!lines) return lines.error();
    auto roots = build_components(std::move(*lines), limits);
    if (!roots) return roots.error();
    std::vector<calendar> out;
    raw_component loose{"VCALENDAR", {}, {}, 0};
    for (auto& root : *roots) {
        if (root.name != "VCALENDAR") {
            loose.children.push_back(std::move(root));  // a bare VEVENT, as some phones send
            continue;
        }
        to_modern_escapes(root);
        out.push_back(read_calendar(root, fallback));
    }
    if (!loose.children.empty()) {
        to_modern_escapes(loose);
        out.push_back(read_calendar(loose, fallback));
    }
    return out;
}

}  // namespace syncml::matching
