// SIF-T: an Outlook task as a VTODO. Outlook keeps dates only (StartDate, DueDate); Status is 0 not started,
// 1 in progress, 2 complete, 3 waiting, 4 deferred, and Complete says done whatever Status says; the reminder is
// a time of its own (ReminderTime).
#include <array>

#include "matching/calendar/calendar_values.hpp"
#include "matching/sif/sif_calendar.hpp"
#include "matching/sif/sif_items.hpp"

namespace syncml::matching {
namespace {

constexpr std::array<sif_extra, 7> k_extras{{
    {"ActualWork", "X-FUNAMBOL-ACTUALWORK"},
    {"TotalWork", "X-FUNAMBOL-TOTALWORK"},
    {"BillingInformation", "X-FUNAMBOL-BILLINGINFO"},
    {"Companies", "X-FUNAMBOL-COMPANIES"},
    {"Mileage", "X-FUNAMBOL-MILEAGE"},
    {"TeamTask", "X-FUNAMBOL-TEAMTASK"},
    {"Folder", "X-FUNAMBOL-FOLDER"},
}};

// Midnight of a floating time is the date older clients meant.
std::optional<date_time> read_task_date(const sif_fields& f, std::string_view name) {
    auto t = read_sif_time(f.trimmed(name));
    if (t && !t->utc && !t->date_only && t->hour == 0 && t->minute == 0 && t->second == 0) t->date_only = true;
    return t;
}

// The task's own day, as the user saw it: a time's date, not shifted to UTC.
std::string task_date_text(const std::optional<date_time>& t) {
    if (!t) return {};
    return sif_time_text(date_time{t->year, t->month, t->day, 0, 0, 0, true, false, {}});
}

void read_state(const sif_fields& f, calendar_component& c) {
    auto status = f.number("Status");
    if (f.flag("Complete") || status == 2) {
        c.status = "COMPLETED";
    } else if (status == 1) {
        c.status = "IN-PROCESS";
    }
    // 0% is where every Outlook task starts: no PERCENT-COMPLETE.
    auto percent = f.number("PercentComplete");
    if (percent && *percent > 0) c.percent_complete = std::min(*percent, 100);
    if (auto done = read_sif_time(f.trimmed("DateCompleted"))) {
        // COMPLETED is a UTC DATE-TIME.
        if (done->date_only) *done = date_time{done->year, done->month, done->day, 0, 0, 0, false, true, {}};
        c.completed = done;
    }
}

void read_reminder(const sif_fields& f, calendar_component& c) {
    if (!f.flag("ReminderSet")) return;
    auto at = read_sif_time(f.trimmed("ReminderTime"));
    if (!at || at->date_only) return;
    alarm a;
    a.action = "AUDIO";
    a.trigger_time = at;
    c.alarms.push_back(std::move(a));
}

// The time of the first alarm: its own, or its offset from the due date (else the start).
std::optional<date_time> reminder_time(const calendar& cal, const calendar_component& c) {
    for (const auto& a : c.alarms) {
        if (a.trigger_time) return in_utc_where_known(*a.trigger_time, cal.timezones);
        const auto& base = a.trigger_related_end && c.due ? c.due : c.start ? c.start : c.due;
        auto seconds = parse_duration(a.trigger_duration);
        if (!base || !seconds) continue;
        auto t = in_utc_where_known(*base, cal.timezones);
        t.date_only = false;
        return from_epoch_seconds(to_epoch_seconds(t) + *seconds, t.utc, {});
    }
    return std::nullopt;
}

int status_of(const calendar_component& c) {
    if (c.status == "COMPLETED") return 2;
    if (c.status == "IN-PROCESS") return 1;
    return 0;
}

}  // namespace

calendar read_sif_task(const sif_fields& f) {
    calendar_component c;
    c.kind = item_kind::task;
    read_sif_component(f, c);
    c.start = read_task_date(f, "StartDate");
    c.due = read_task_date(f, "DueDate");
    read_state(f, c);
    read_reminder(f, c);
    if (const auto& base = c.start ? c.start : c.due) read_sif_recurrence(f, read_sif_frame(f, *base), c);
    read_sif_extras(f, k_extras, c.extra);
    return calendar_of(std::move(c));
}

std::string write_sif_task(const calendar& cal, const calendar_component& c) {
    sif_writer out("task");
    write_sif_component(out, c);
    out.field("StartDate", task_date_text(c.start));
    out.field("DueDate", task_date_text(c.due));
    const int status = status_of(c);
    out.flag("Complete", status == 2);
    out.field("DateCompleted", c.completed ? sif_time_text(in_utc_where_known(*c.completed, cal.timezones)) : "");
    out.field("Status", status);
    out.field("PercentComplete", std::max(c.percent_complete, 0));
    auto reminder = reminder_time(cal, c);
    out.flag("ReminderSet", reminder.has_value());
    out.field("ReminderTime", reminder ? sif_time_text(*reminder) : std::string());
    const auto& base = c.start ? c.start : c.due;
    auto start = base ? date_time{base->year, base->month, base->day, 0, 0, 0, true, false, {}} : date_time{};
    write_sif_recurrence(out, c, cal.timezones, start, 0);
    write_sif_extras(out, k_extras, c.extra);
    return out.finish();
}

}  // namespace syncml::matching
