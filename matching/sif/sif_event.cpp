// SIF-E: an Outlook appointment as a VEVENT. All-day events carry dates whose End is the last day (iCalendar's
// DTEND is the day after); other times travel in UTC. BusyStatus (0 free, 1 tentative, 2 busy, 3 out of office) is
// TRANSP and the X-MICROSOFT-CDO-BUSYSTATUS Outlook's own iCalendar uses; a reminder is an audio alarm, as
// Funambol's vCalendar gives it (AALARM).
#include <array>

#include "matching/calendar/calendar_values.hpp"
#include "matching/content/content_line.hpp"
#include "matching/sif/sif_calendar.hpp"
#include "matching/sif/sif_items.hpp"

namespace syncml::matching {
namespace {

constexpr std::array<sif_extra, 5> k_extras{{
    {"BillingInformation", "X-FUNAMBOL-BILLINGINFO"},
    {"Companies", "X-FUNAMBOL-COMPANIES"},
    {"Mileage", "X-FUNAMBOL-MILEAGE"},
    {"NoAging", "X-FUNAMBOL-NOAGING"},
    {"Folder", "X-FUNAMBOL-FOLDER"},
}};

constexpr std::string_view k_busy_status = "X-MICROSOFT-CDO-BUSYSTATUS";
constexpr std::array<std::string_view, 4> k_busy_values{"FREE", "TENTATIVE", "BUSY", "OOF"};

// A week of minutes: more is no reminder Outlook offers.
constexpr int k_max_reminder_minutes = 7 * 24 * 60;

date_time date_of(const date_time& t) { return date_time{t.year, t.month, t.day, 0, 0, 0, true, false, {}}; }

// The day after the last day: an End at midnight after the start already is (a device that sent times).
date_time all_day_end(const date_time& start, const std::optional<date_time>& end) {
    if (!end) return plus_days(start, 1);
    date_time day = date_of(*end);
    const bool midnight = !end->date_only && end->hour == 0 && end->minute == 0 && end->second == 0;
    if (!midnight) day = plus_days(day, 1);
    return to_epoch_seconds(day) > to_epoch_seconds(start) ? day : plus_days(start, 1);
}

void read_busy_status(const sif_fields& f, calendar_component& c) {
    auto busy = f.number("BusyStatus");
    if (busy == 0) c.transparency = "TRANSPARENT";
    if (busy == 1 || busy == 3)
        c.extra.push_back(property{{}, std::string(k_busy_status), {}, std::string(k_busy_values[*busy])});
}

int busy_status_of(const calendar_component& c) {
    for (const auto& p : c.extra) {
        if (p.name != k_busy_status) continue;
        for (std::size_t i = 0; i < k_busy_values.size(); ++i) {
            if (p.value == k_busy_values[i]) return static_cast<int>(i);
        }
    }
    return c.transparency == "TRANSPARENT" ? 0 : 2;
}

void read_reminder(const sif_fields& f, calendar_component& c) {
    if (!f.flag("ReminderSet")) return;
    int minutes = std::clamp(f.number("ReminderMinutesBeforeStart").value_or(15), 0, k_max_reminder_minutes);
    alarm a;
    a.action = "AUDIO";
    a.trigger_duration = format_duration(-60LL * minutes);
    c.alarms.push_back(std::move(a));
}

// Minutes before the start of the first alarm that Outlook can state.
std::optional<long long> reminder_minutes(const calendar& cal, const calendar_component& c) {
    for (const auto& a : c.alarms) {
        if (!a.trigger_duration.empty() && !a.trigger_related_end) {
            if (auto seconds = parse_duration(a.trigger_duration); seconds && *seconds <= 0) return -*seconds / 60;
        } else if (a.trigger_time && c.start) {
            auto start = in_utc_where_known(*c.start, cal.timezones);
            auto at = in_utc_where_known(*a.trigger_time, cal.timezones);
            if (start.utc == at.utc && !start.date_only) {
                auto before = to_epoch_seconds(start) - to_epoch_seconds(at);
                if (before >= 0) return before / 60;
            }
        }
    }
    return std::nullopt;
}

std::optional<date_time> end_of(const calendar_component& c) {
    if (c.end || !c.start || c.duration.empty()) return c.end;
    auto seconds = parse_duration(c.duration);
    if (!seconds) return std::nullopt;
    return from_epoch_seconds(to_epoch_seconds(*c.start) + *seconds, c.start->utc, c.start->tzid);
}

void write_times(sif_writer& out, const calendar& cal, const calendar_component& c, date_time& start_written) {
    const bool all_day = c.start && c.start->date_only;
    out.flag("AllDayEvent", all_day);
    start_written = c.start ? in_utc_where_known(*c.start, cal.timezones) : date_time{};
    out.field("Start", c.start ? sif_time_text(start_written) : std::string());
    auto end = end_of(c);
    if (end && all_day) {
        date_time last = plus_days(date_of(*end), -1);
        end = to_epoch_seconds(last) < to_epoch_seconds(*c.start) ? *c.start : last;
    }
    out.field("End", end ? sif_time_text(in_utc_where_known(*end, cal.timezones)) : std::string());
}

}  // namespace

result<calendar> read_sif_event(const sif_fields& f) {
    calendar_component c;
    c.kind = item_kind::event;
    auto start = read_sif_time(f.trimmed("Start"));
    if (!start) {
        return item_error{item_errc::invalid_value,
                          "SIF appointment has no readable Start (\"" + f.trimmed("Start") + "\")", 0};
    }
    auto end = read_sif_time(f.trimmed("End"));
    if (f.flag("AllDayEvent")) {
        start = date_of(*start);
        end = all_day_end(*start, end);
    }
    c.start = start;
    c.end = end;
    read_sif_component(f, c);
    c.location = f.trimmed("Location");
    read_busy_status(f, c);
    read_reminder(f, c);
    read_sif_recurrence(f, read_sif_frame(f, *start), c);
    read_sif_extras(f, k_extras, c.extra);
    return calendar_of(std::move(c));
}

std::string write_sif_event(const calendar& cal, const calendar_component& c) {
    sif_writer out("appointment");
    write_sif_component(out, c);
    out.field("Location", c.location);
    date_time start;
    write_times(out, cal, c, start);
    out.field("BusyStatus", busy_status_of(c));
    auto minutes = reminder_minutes(cal, c);
    out.flag("ReminderSet", minutes.has_value());
    out.field("ReminderMinutesBeforeStart", minutes ? std::to_string(*minutes) : std::string());
    const int shift = c.start ? static_cast<int>(days_from_civil(start.year, start.month, start.day) -
                                                 days_from_civil(c.start->year, c.start->month, c.start->day))
                              : 0;
    write_sif_recurrence(out, c, cal.timezones, start, shift);
    write_sif_extras(out, k_extras, c.extra);
    return out.finish();
}

}  // namespace syncml::matching
