// Writing the calendar model as iCalendar 2.0.
#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/calendar/vcal_writer.hpp"

namespace syncml::matching {

namespace {

std::vector<param> time_params(const date_time& d) {
    std::vector<param> params;
    if (d.date_only)
        params.push_back(param{"VALUE", {"DATE"}});
    else if (!d.utc && !d.tzid.empty())
        params.push_back(param{"TZID", {d.tzid}});
    return params;
}

class ical_writer {
  public:
    std::string write(const calendar& cal);
    std::string write_alone(const alarm& a) {
        write_alarm(a);
        return out_.take();
    }

  private:
    void time(std::string_view name, const std::optional<date_time>& d) {
        if (d) out_.write({}, name, time_params(*d), format_date_time(*d));
    }
    void text(std::string_view name, const std::string& value) {
        if (!value.empty()) out_.write(name, escape_text(value));
    }
    void number(std::string_view name, int value, int unset) {
        if (value != unset) out_.write(name, std::to_string(value));
    }
    void extras(const std::vector<property>& list) {
        for (const auto& p : list) out_.write(p.group, p.name, p.params, p.value);
    }
    void write_timezone(const timezone_def& tz);
    void write_alarm(const alarm& a);
    void write_component(const calendar_component& c);

    content_writer out_{line_syntax::modern};
};

void ical_writer::write_timezone(const timezone_def& tz) {
    out_.write("BEGIN", "VTIMEZONE");
    out_.write("TZID", escape_text(tz.tzid));
    extras(tz.extra);
    for (const auto& o : tz.observances) {
        std::string kind = o.daylight ? "DAYLIGHT" : "STANDARD";
        out_.write("BEGIN", kind);
        if (o.start != date_time{}) out_.write("DTSTART", format_date_time(o.start));
        out_.write("TZOFFSETFROM", o.offset_from);
        out_.write("TZOFFSETTO", o.offset_to);
        text("TZNAME", o.name);
        if (o.rule) out_.write("RRULE", format_rrule(*o.rule));
        for (const auto& r : o.rdates) out_.write({}, "RDATE", time_params(r), format_date_time(r));
        extras(o.extra);
        out_.write("END", kind);
    }
    out_.write("END", "VTIMEZONE");
}

void ical_writer::write_alarm(const alarm& a) {
    out_.write("BEGIN", "VALARM");
    if (!a.action.empty()) out_.write("ACTION", a.action);
    if (a.trigger_time) {
        out_.write({}, "TRIGGER", {param{"VALUE", {"DATE-TIME"}}}, format_date_time(*a.trigger_time));
    } else if (!a.trigger_duration.empty()) {
        std::vector<param> params;
        if (a.trigger_related_end) params.push_back(param{"RELATED", {"END"}});
        out_.write({}, "TRIGGER", params, a.trigger_duration);
    }
    if (!a.duration.empty()) out_.write("DURATION", a.duration);
    number("REPEAT", a.repeat, 0);
    text("DESCRIPTION", a.description);
    if (!a.attach.empty()) out_.write("ATTACH", a.attach);
    extras(a.extra);
    out_.write("END", "VALARM");
}

void ical_writer::write_component(const calendar_component& c) {
    std::string kind = c.kind == item_kind::task ? "VTODO" : c.kind == item_kind::memo ? "VJOURNAL" : "VEVENT";
    out_.write("BEGIN", kind);
    text("UID", c.uid);
    time("DTSTAMP", c.stamp);
    text("SUMMARY", c.summary);
    text("DESCRIPTION", c.description);
    text("LOCATION", c.location);
    time("DTSTART", c.start);
    time("DTEND", c.end);
    time("DUE", c.due);
    if (!c.duration.empty()) out_.write("DURATION", c.duration);
    time("COMPLETED", c.completed);
    number("PERCENT-COMPLETE", c.percent_complete, -1);
    time("RECURRENCE-ID", c.recurrence_id);
    for (const auto& r : c.rrules) out_.write("RRULE", format_rrule(r));
    for (const auto& d : c.exdates) out_.write({}, "EXDATE", time_params(d), format_date_time(d));
    for (const auto& d : c.rdates) out_.write({}, "RDATE", time_params(d), format_date_time(d));
    number("PRIORITY", c.priority, 0);
    if (!c.status.empty()) out_.write("STATUS", c.status);
    if (!c.class_.empty()) out_.write("CLASS", c.class_);
    if (!c.transparency.empty()) out_.write("TRANSP", c.transparency);
    if (!c.categories.empty()) {
        std::string value;
        for (const auto& cat : c.categories) {
            if (!value.empty()) value += ',';
            value += escape_text(cat);
        }
        out_.write("CATEGORIES", value);
    }
    number("SEQUENCE", c.sequence, -1);
    time("CREATED", c.created);
    time("LAST-MODIFIED", c.last_modified);
    extras(c.extra);
    for (const auto& a : c.alarms) write_alarm(a);
    out_.write("END", kind);
}

std::string ical_writer::write(const calendar& cal) {
    out_.write("BEGIN", "VCALENDAR");
    out_.write("VERSION", "2.0");
    out_.write("PRODID", escape_text(cal.prodid.empty() ? std::string(k_default_prodid) : cal.prodid));
    if (!cal.method.empty()) out_.write("METHOD", cal.method);
    extras(cal.extra);
    for (const auto& tz : cal.timezones) write_timezone(tz);
    for (const auto& c : cal.components) write_component(c);
    out_.write("END", "VCALENDAR");
    return out_.take();
}

}  // namespace

std::string write_calendar(const calendar& value, calendar_version version) {
    if (version == calendar_version::vcal10) return write_vcal(value);
    return ical_writer().write(value);
}

// A lone VTIMEZONE in iCalendar syntax, carried through vCalendar 1.0 as X-SYNCML-ICAL-VTIMEZONE.
std::string write_vtimezone(const timezone_def& tz) {
    calendar cal;
    cal.timezones.push_back(tz);
    std::string text = ical_writer().write(cal);
    auto begin = text.find("BEGIN:VTIMEZONE");
    auto end = text.rfind("END:VTIMEZONE");
    return text.substr(begin, end + 13 - begin);
}

}  // namespace syncml::matching

namespace syncml::matching {

std::string write_valarm(const alarm& value) {
    std::string text = ical_writer().write_alone(value);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
}

}  // namespace syncml::matching
