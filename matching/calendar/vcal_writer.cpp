#include "matching/calendar/vcal_writer.hpp"

#include <algorithm>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_fields.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/calendar/vcal_alarm.hpp"
#include "matching/calendar/vcal_attendee.hpp"
#include "matching/calendar/vcal_reader.hpp"
#include "matching/calendar/vcal_rule_choice.hpp"
#include "matching/match/normalize_time.hpp"

namespace syncml::matching {

namespace {

std::string hint(std::string_view name) { return std::string(k_ical_hint) + std::string(name); }

const property* find_extra(const std::vector<property>& extra, std::string_view name) {
    for (const auto& p : extra) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

// Shared names whose values 1.0 reads with another grammar: as extras (not typed) they travel as hints.
bool reads_differently(std::string_view name) {
    return name == "RRULE" || name == "EXRULE" || name == "EXDATE" || name == "RDATE" || name == "STATUS" ||
           name == "PRIORITY" || name == "TRANSP" || name == "CATEGORIES";
}

class vcal_writer {
  public:
    explicit vcal_writer(const calendar& cal) : cal_(cal) {
        if (!cal.timezones.empty()) tzid_ = cal.timezones[0].tzid;
    }
    std::string write();

  private:
    // A local time in another zone than the calendar's TZ: 1.0 has one zone per calendar, so the time goes out
    // in UTC (the phone shows the right instant) and its hint restores the original TZID on the way back.
    date_time as_written(const date_time& d) const {
        if (d.utc || d.date_only || d.tzid.empty() || d.tzid == tzid_) return d;
        for (const auto& tz : cal_.timezones) {
            if (tz.tzid != d.tzid) continue;
            if (auto offset = utc_offset_at(d, tz))
                return from_epoch_seconds(wall_clock_seconds(d) - *offset, true, {});
        }
        return d;
    }
    std::optional<date_time> as_written(const std::optional<date_time>& d) const {
        return d ? std::optional<date_time>(as_written(*d)) : std::nullopt;
    }
    // Local times in the calendar's zone are what 1.0 can say; other zones travel as hints.
    void time(std::string_view name, const std::optional<date_time>& d, bool end_of_all_day = false) {
        if (!d) return;
        date_time v = as_written(*d);
        if (end_of_all_day && v.date_only) {
            civil_from_days(days_from_civil(v.year, v.month, v.day) - 1, v.year, v.month, v.day);
            v = date_time{v.year, v.month, v.day, 23, 59, 0, false, false, {}};
        } else if (v.date_only && name != "DTSTART") {
            v = date_time{v.year, v.month, v.day, 0, 0, 0, false, false, {}};
        }
        out_.write(name, format_date_time(v));
        bool all_day_pair = name == "DTSTART" || end_of_all_day;
        if ((!d->utc && !d->date_only && d->tzid != tzid_) || (d->date_only && !all_day_pair)) {
            time_hint(name == "DCREATED" ? "CREATED" : name, *d);
        }
    }
    // The exact iCalendar form of a time 1.0 cannot state (another zone, a DATE value).
    void time_hint(std::string_view name, const date_time& d) {
        std::vector<param> params;
        if (d.date_only)
            params.push_back(param{"VALUE", {"DATE"}});
        else if (!d.utc && !d.tzid.empty())
            params.push_back(param{"TZID", {d.tzid}});
        out_.write({}, hint(name), params, format_date_time(d));
    }
    void text(std::string_view name, const std::string& value) {
        if (!value.empty()) out_.write(name, escape_text(value, false));
    }
    // `own`: a property of the component itself, read back through the 1.0 property mapping (not one of a
    // flattened unknown sub-component or of the calendar, which are read back as they are).
    void write_extra(const property& p, bool own = false);
    void write_dates(std::string_view name, const std::vector<date_time>& dates, bool start_is_date);
    void write_rules(const calendar_component& c);
    void write_value_sets(const calendar_component& c);
    void write_alarms(const calendar_component& c);
    void write_component(const calendar_component& c);
    void write_times(const calendar_component& c);
    void write_categories(const calendar_component& c);
    void write_timezone();

    const calendar& cal_;
    std::string tzid_;
    content_writer out_{line_syntax::legacy};
};

void vcal_writer::write_extra(const property& p, bool own) {
    if (own && (p.name == "ATTENDEE" || p.name == "ORGANIZER")) {
        // 1.0 gives ATTENDEE no TYPE: its bare words are flags such as Symbian's X-PHONEOWNER, and go back bare.
        const property written = attendee_to_vcal(p);
        out_.write(written.group, written.name, written.params, written.value, type_params::bare);
        return;
    }
    std::string name = p.name;
    if (name.starts_with(k_vcal_hint)) {
        name = name.substr(k_vcal_hint.size());
        if (name == "STATUS" || name == "PRIORITY") return;  // folded into the typed value
    } else if (!name.starts_with("X-") && (!is_shared_calendar_property(name) || reads_differently(name))) {
        name = hint(name);
    }
    out_.write(p.group, name, p.params, p.value);
}

void vcal_writer::write_dates(std::string_view name, const std::vector<date_time>& dates, bool start_is_date) {
    if (dates.empty()) return;
    std::string value;
    bool foreign = false;
    for (const auto& d : dates) {
        date_time v = d.date_only ? date_time{d.year, d.month, d.day, 0, 0, 0, false, false, {}} : as_written(d);
        {
            if (!value.empty()) value += ';';
            value += format_date_time(v);
        }
        foreign = foreign || (!d.utc && !d.date_only && d.tzid != tzid_) || (d.date_only && !start_is_date);
    }
    out_.write(name, value);
    if (!foreign) return;
    for (const auto& d : dates) time_hint(name, d);
}

void vcal_writer::write_rules(const calendar_component& c) {
    for (const auto& r : c.rrules) {
        // Only the first rule can be a 1.0 RRULE; an inexact one is followed by the hint that restores it.
        auto choice = &r == &c.rrules.front() ? choose_vcal_rule(r, c.start) : std::nullopt;
        if (choice) out_.write("RRULE", choice->text);
        if (!choice || !choice->exact) out_.write(hint("RRULE"), format_rrule(r));
    }
    bool start_is_date = c.start && c.start->date_only;
    write_dates("EXDATE", c.exdates, start_is_date);
    write_dates("RDATE", c.rdates, start_is_date);
}

void vcal_writer::write_value_sets(const calendar_component& c) {
    if (c.priority != 0) {
        const property* original = find_extra(c.extra, std::string(k_vcal_hint) + "PRIORITY");
        int v = priority_to_vcal(c.priority);
        if (original && priority_from_vcal(std::atoi(original->value.c_str())) == c.priority) {
            v = std::atoi(original->value.c_str());
        }
        out_.write("PRIORITY", std::to_string(v));
        if (priority_from_vcal(v) != c.priority) out_.write(hint("PRIORITY"), std::to_string(c.priority));
    }
    if (!c.status.empty()) {
        const property* original = find_extra(c.extra, std::string(k_vcal_hint) + "STATUS");
        std::string v = status_to_vcal(c.status);
        if (original && status_from_vcal(unescape_text(original->value), c.kind) == c.status) {
            v = unescape_text(original->value);
        }
        out_.write("STATUS", escape_text(v, false));
        if (status_from_vcal(v, c.kind) != c.status) out_.write(hint("STATUS"), c.status);
    }
    if (!c.class_.empty()) out_.write("CLASS", c.class_);
    if (c.transparency == "OPAQUE" || c.transparency == "TRANSPARENT") {
        out_.write("TRANSP", c.transparency == "OPAQUE" ? "0" : "1");
    } else if (!c.transparency.empty()) {
        out_.write(hint("TRANSP"), c.transparency);
    }
}

// 1.0 alarms are flat lines: a VALARM that its line cannot carry exactly also travels as a hint right after it.
void vcal_writer::write_alarms(const calendar_component& c) {
    // The reader sees the times as written (before their hints restore other zones).
    calendar_component read_back = c;
    read_back.start = as_written(c.start);
    read_back.end = as_written(c.end);
    read_back.due = as_written(c.due);
    for (const auto& a : c.alarms) {
        write_vcal_alarm_line(out_, vcal_alarm_line(a, read_back));
        if (reread_vcal_alarm(a, read_back) != a) out_.write(hint("VALARM"), escape_text(write_valarm(a)));
    }
}

void vcal_writer::write_component(const calendar_component& c) {
    std::string kind = c.kind == item_kind::task ? "VTODO" : c.kind == item_kind::memo ? "VJOURNAL" : "VEVENT";
    out_.write("BEGIN", kind);
    text("UID", c.uid);
    text("SUMMARY", c.summary);
    text("DESCRIPTION", c.description);
    text("LOCATION", c.location);
    write_times(c);
    write_rules(c);
    write_value_sets(c);
    write_categories(c);
    if (c.sequence >= 0) out_.write("SEQUENCE", std::to_string(c.sequence));
    time("DCREATED", c.created);
    time("LAST-MODIFIED", c.last_modified);
    if (c.stamp) time_hint("DTSTAMP", *c.stamp);
    if (c.recurrence_id) time_hint("RECURRENCE-ID", *c.recurrence_id);
    if (!c.duration.empty()) out_.write(hint("DURATION"), c.duration);
    if (c.percent_complete >= 0) out_.write(hint("PERCENT-COMPLETE"), std::to_string(c.percent_complete));
    int flattened = 0;  // depth inside BEGIN/END of unknown sub-components
    for (const auto& p : c.extra) {
        flattened += p.name == "BEGIN";
        write_extra(p, flattened == 0);
        flattened -= p.name == "END" && flattened > 0;
    }
    write_alarms(c);
    out_.write("END", kind);
}

void vcal_writer::write_times(const calendar_component& c) {
    bool all_day = c.start && c.start->date_only && c.end && c.end->date_only;
    if (c.start && c.start->date_only && c.end) {
        time("DTSTART", date_time{c.start->year, c.start->month, c.start->day, 0, 0, 0, false, false, {}});
    } else {
        time("DTSTART", c.start);
    }
    time("DTEND", c.end, all_day);
    time("DUE", c.due);
    time("COMPLETED", c.completed);
}

void vcal_writer::write_categories(const calendar_component& c) {
    if (c.categories.empty()) return;
    std::string value;
    for (const auto& cat : c.categories) {
        if (!value.empty()) value += ';';
        value += escape_text(cat);
    }
    out_.write("CATEGORIES", value);
}

void vcal_writer::write_timezone() {
    if (cal_.timezones.empty()) return;
    int first = 9999, last = 0;
    for (const auto& c : cal_.components) {
        if (c.start) first = std::min(first, c.start->year), last = std::max(last, c.start->year + 1);
    }
    if (first > last) first = last = 2000;
    for (auto& [name, value] : timezone_to_vcal(cal_.timezones[0], first, last)) out_.write(name, value);
    if (!tzid_.starts_with("vcal")) out_.write(hint("VTIMEZONE"), escape_text(write_vtimezone(cal_.timezones[0])));
    for (std::size_t i = 1; i < cal_.timezones.size(); ++i) {
        out_.write(hint("VTIMEZONE"), escape_text(write_vtimezone(cal_.timezones[i])));
    }
}

std::string vcal_writer::write() {
    out_.write("BEGIN", "VCALENDAR");
    out_.write("VERSION", "1.0");
    if (!cal_.prodid.empty()) out_.write("PRODID", escape_text(cal_.prodid, false));
    write_timezone();
    if (!cal_.method.empty()) out_.write(hint("METHOD"), cal_.method);
    for (const auto& p : cal_.extra) write_extra(p);
    for (const auto& c : cal_.components) write_component(c);
    out_.write("END", "VCALENDAR");
    return out_.take();
}

}  // namespace

std::string write_vcal(const calendar& cal) { return vcal_writer(cal).write(); }

}  // namespace syncml::matching
