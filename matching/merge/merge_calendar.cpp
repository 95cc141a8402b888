// Calendar merge: components paired by RECURRENCE-ID (master and exceptions), then one rule per property.
#include "matching/merge/merge_fields.hpp"

#include <deque>
#include <unordered_map>

#include "matching/calendar/calendar_fields.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/calendar/vcal_rule_choice.hpp"
#include "matching/match/normalize_text.hpp"
#include "matching/match/normalize_time.hpp"

namespace syncml::matching {

namespace {

struct zones {
    const std::vector<timezone_def>& stored;
    const std::vector<timezone_def>& incoming;
};

std::string time_key(const std::optional<date_time>& t, const std::vector<timezone_def>& tz) {
    return t ? normalized_time(*t, tz) : std::string();
}

// The same instant written differently (UTC by one device, TZID by another) is not a change.
void merge_time(merge_context& ctx, std::string_view property, std::optional<date_time>& out,
                const std::optional<date_time>& stored, const std::optional<date_time>& incoming, const zones& z) {
    if (stored && incoming && time_key(stored, z.stored) == time_key(incoming, z.incoming)) {
        out = stored;
        return;
    }
    merge_single(ctx, property, out, stored, incoming);
}

// Parts RFC 5545 takes from DTSTART when a rule leaves them out; vCalendar 1.0 always names them (W1 TH).
recurrence_rule with_implied_parts(recurrence_rule r, const std::optional<date_time>& start) {
    if (!start) return r;
    bool by_date = !r.by_day.empty() || !r.by_month_day.empty() || !r.by_year_day.empty() || !r.by_week_no.empty();
    if (r.freq == frequency::weekly && r.by_day.empty()) {
        r.by_day.push_back(weekday_num{0, weekday_of(start->year, start->month, start->day)});
    } else if (r.freq == frequency::monthly && !by_date) {
        r.by_month_day.push_back(start->day);
    } else if (r.freq == frequency::yearly && !by_date) {
        if (r.by_month.empty()) r.by_month.push_back(start->month);
        r.by_month_day.push_back(start->day);
    }
    return r;
}

std::optional<long long> instant_of(const date_time& t, const std::vector<timezone_def>& tz) {
    if (t.date_only) return std::nullopt;
    if (t.utc) return wall_clock_seconds(t);
    auto zone = std::find_if(tz.begin(), tz.end(), [&](const timezone_def& d) { return d.tzid == t.tzid; });
    auto offset = zone == tz.end() ? std::nullopt : utc_offset_at(t, *zone);
    if (!offset) return std::nullopt;
    return wall_clock_seconds(t) - *offset;
}

// Two UNTIL values end the series alike when no occurrence falls after the earlier and up to the later one.
// Without BYHOUR/BYMINUTE/BYSECOND a daily or coarser rule only occurs at DTSTART's wall-clock time, so checking
// that time on every day around the two values is enough (a phone that reads its own zone's DST rules wrongly
// writes UNTIL an hour off).
bool same_end(const recurrence_rule& a, const recurrence_rule& b, const std::optional<date_time>& start,
              const zones& z) {
    if (time_key(a.until, z.stored) == time_key(b.until, z.incoming)) return true;
    if (!a.until || !b.until || !start || start->date_only || a.freq < frequency::daily || !a.by_hour.empty() ||
        !a.by_minute.empty() || !a.by_second.empty())
        return false;
    auto x = instant_of(*a.until, z.stored), y = instant_of(*b.until, z.incoming);
    if (!x || !y) return false;
    long long lo = std::min(*x, *y), hi = std::max(*x, *y);
    if (hi - lo > 86400) return false;
    for (long long day = lo / 86400 - 2; day <= hi / 86400 + 2; ++day) {
        date_time occurrence = *start;
        civil_from_days(day, occurrence.year, occurrence.month, occurrence.day);
        auto at = instant_of(occurrence, z.stored);
        if (!at || (*at > lo && *at <= hi)) return false;
    }
    return true;
}

// Rules that give the same occurrences in either copy's spelling (implied parts, UNTIL in UTC or local time).
bool same_rule(const recurrence_rule& stored, const calendar_component& s, const recurrence_rule& incoming,
               const calendar_component& i, const zones& z) {
    auto a = with_implied_parts(stored, s.start);
    auto b = with_implied_parts(incoming, i.start);
    if (!same_end(a, b, s.start, z)) return false;
    a.until.reset();
    b.until.reset();
    return a == b;
}

// A vCalendar 1.0 phone that dropped our RRULE hint sends back the 1.0 form it was given (YD for a yearly rule
// in another month, W1 for every weekday, ...): the same occurrences, so the same rule.
bool same_rules(const calendar_component& s, const calendar_component& i, const zones& z) {
    if (s.rrules.size() != i.rrules.size()) return false;
    for (std::size_t n = 0; n < s.rrules.size(); ++n) {
        if (same_rule(s.rrules[n], s, i.rrules[n], i, z)) continue;
        auto reading = vcal_reading(s.rrules[n], s.start);
        if (!reading || !same_rule(*reading, s, i.rrules[n], i, z)) return false;
    }
    return true;
}

// vCalendar 1.0 CTCaps list AALARM/DALARM, iCalendar ones VALARM or its TRIGGER property.
std::string_view alarm_property(const device_capabilities& caps) {
    for (std::string_view name : {"AALARM", "DALARM", "VALARM", "TRIGGER"}) {
        if (caps.find(name)) return name;
    }
    return "VALARM";
}

// A vCalendar 1.0 CTCap names the alarm properties the device keeps: AALARM and DALARM carry a reminder (phones
// write one reminder as either or both), PALARM a procedure, MALARM a mail. A stored alarm that no listed
// property carries (an EMAIL alarm on a phone without MALARM) never reaches the device, so the device copy's
// alarms say nothing about it.
bool device_can_store_alarm(const device_capabilities& caps, const alarm& a) {
    auto listed = [&](std::string_view name) { return caps.find(name) != nullptr; };
    bool reminder = listed("AALARM") || listed("DALARM");
    if (!reminder && !listed("PALARM") && !listed("MALARM")) return true;  // iCalendar or no CTCap: VALARM
    if (a.action == "AUDIO" || a.action == "DISPLAY") return reminder;
    if (a.action == "PROCEDURE") return listed("PALARM");
    if (a.action == "EMAIL") return listed("MALARM");
    return false;
}

void merge_texts(merge_context& ctx, calendar_component& out, const calendar_component& s,
                 const calendar_component& i) {
    merge_single(ctx, "SUMMARY", out.summary, s.summary, i.summary);
    merge_single(ctx, "DESCRIPTION", out.description, s.description, i.description);
    merge_single(ctx, "LOCATION", out.location, s.location, i.location);
    merge_single(ctx, "DURATION", out.duration, s.duration, i.duration);
    merge_single(ctx, "STATUS", out.status, s.status, i.status);
    merge_single(ctx, "CLASS", out.class_, s.class_, i.class_);
    merge_single(ctx, "TRANSP", out.transparency, s.transparency, i.transparency);
    merge_multi(ctx, "CATEGORIES", out.categories, s.categories, i.categories,
                [](const std::string& c) { return fold_text(c); });
}

void merge_times(merge_context& ctx, calendar_component& out, const calendar_component& s, const calendar_component& i,
                 const zones& z) {
    merge_time(ctx, "DTSTART", out.start, s.start, i.start, z);
    merge_time(ctx, "DTEND", out.end, s.end, i.end, z);
    merge_time(ctx, "DUE", out.due, s.due, i.due, z);
    merge_time(ctx, "COMPLETED", out.completed, s.completed, i.completed, z);
    merge_time(ctx, created_property(ctx.caps), out.created, s.created, i.created, z);
    merge_time(ctx, "LAST-MODIFIED", out.last_modified, s.last_modified, i.last_modified, z);
    merge_time(ctx, "DTSTAMP", out.stamp, s.stamp, i.stamp, z);
    if (same_rules(s, i, z))
        out.rrules = s.rrules;
    else
        merge_single(ctx, "RRULE", out.rrules, s.rrules, i.rrules);
    merge_single(ctx, "RDATE", out.rdates, s.rdates, i.rdates);
    // Exception dates from either side stay: an occurrence deleted anywhere is deleted.
    merge_multi(ctx, "EXDATE", out.exdates, s.exdates, i.exdates,
                [&](const date_time& t) { return normalized_time(t, z.stored); });
}

bool same_trigger(const alarm& a, const alarm& b, const zones& z) {
    return a.trigger_duration == b.trigger_duration && a.trigger_related_end == b.trigger_related_end &&
           time_key(a.trigger_time, z.stored) == time_key(b.trigger_time, z.incoming);
}

bool has_alarm(const std::vector<alarm>& list, const alarm& like, std::string_view action, const zones& z,
               bool incoming_side) {
    return std::any_of(list.begin(), list.end(), [&](const alarm& a) {
        return a.action == action &&
               (incoming_side ? same_trigger(a, like, zones{z.incoming, z.incoming}) : same_trigger(a, like, z));
    });
}

// Synthesis-based vCalendar 1.0 phones write one reminder as AALARM and DALARM with the same run time. Beside
// a display alarm the stored copy also has, such an audio alarm is that reminder again, not a new one.
std::vector<alarm> without_echoed_audio(const std::vector<alarm>& stored, std::vector<alarm> incoming, const zones& z) {
    std::vector<alarm> out;
    for (const auto& a : incoming) {
        bool echo = a.action == "AUDIO" && has_alarm(incoming, a, "DISPLAY", z, true) &&
                    has_alarm(stored, a, "DISPLAY", z, false) && !has_alarm(stored, a, "AUDIO", z, false);
        if (!echo) out.push_back(a);
    }
    return out;
}

// An iCalendar CTCap lists VALARM's properties together with the event's: a device that cannot store
// DESCRIPTION sends its alarms without their text. The stored alarm with the same trigger keeps it.
std::vector<alarm> with_stored_alarm_texts(const merge_context& ctx, const std::vector<alarm>& stored,
                                           std::vector<alarm> incoming, const zones& z) {
    if (ctx.caps.can_store("DESCRIPTION")) return incoming;
    std::vector<bool> used(stored.size());
    for (auto& a : incoming) {
        if (!a.description.empty()) continue;
        for (std::size_t s = 0; s < stored.size(); ++s) {
            if (used[s] || !same_trigger(stored[s], a, z)) continue;
            used[s] = true;
            a.description = stored[s].description;
            break;
        }
    }
    return incoming;
}

// Alarms the device can store merge as one property; the stored ones it cannot store stay as they are.
void merge_alarms(merge_context& ctx, calendar_component& out, const calendar_component& s, const calendar_component& i,
                  const zones& z) {
    std::vector<alarm> storable, kept;
    for (const auto& a : s.alarms) (device_can_store_alarm(ctx.caps, a) ? storable : kept).push_back(a);
    merge_single(ctx, alarm_property(ctx.caps), out.alarms, storable,
                 with_stored_alarm_texts(ctx, storable, without_echoed_audio(storable, i.alarms, z), z));
    if (kept.empty()) return;
    ctx.note("VALARM", "kept server alarms of actions the device cannot store");
    if (out.alarms == storable) {
        out.alarms = s.alarms;  // unchanged: the stored order stays
        return;
    }
    out.alarms.insert(out.alarms.end(), kept.begin(), kept.end());
}

calendar_component merge_component(merge_context& ctx, const calendar_component& s, const calendar_component& i,
                                   const zones& z) {
    calendar_component out;
    out.kind = s.kind;
    out.uid = merged_identity(s.uid, i.uid);
    out.recurrence_id = s.recurrence_id ? s.recurrence_id : i.recurrence_id;
    merge_texts(ctx, out, s, i);
    merge_times(ctx, out, s, i, z);
    merge_int(ctx, "PERCENT-COMPLETE", out.percent_complete, s.percent_complete, i.percent_complete, -1);
    merge_int(ctx, "PRIORITY", out.priority, s.priority, i.priority, 0);
    merge_int(ctx, "SEQUENCE", out.sequence, s.sequence, i.sequence, -1);
    merge_alarms(ctx, out, s, i, z);
    merge_extras(ctx, out.extra, s.extra, i.extra);
    return out;
}

// Components pair by UID and RECURRENCE-ID (the master and each exception of one item), each at most once, so
// calendars holding several unrelated components still merge component by component.
std::string component_key(const calendar_component& c, const calendar& cal) {
    return c.uid + "|" + time_key(c.recurrence_id, cal.timezones);
}

// Unpaired incoming components by key, in input order.
using component_queue = std::unordered_map<std::string, std::deque<std::size_t>>;

component_queue queue_components(const calendar& cal) {
    component_queue out;
    for (std::size_t i = 0; i < cal.components.size(); ++i) out[component_key(cal.components[i], cal)].push_back(i);
    return out;
}

std::optional<std::size_t> take_component(component_queue& queue, const std::string& key, std::vector<bool>& used) {
    auto it = queue.find(key);
    if (it == queue.end() || it->second.empty()) return std::nullopt;
    std::size_t i = it->second.front();
    it->second.pop_front();
    used[i] = true;
    return i;
}

// Phones that cannot store UID send components without one: those pair by RECURRENCE-ID alone.
std::optional<std::size_t> take_without_uid(const calendar& incoming, const calendar_component& s,
                                            const calendar& stored, std::vector<bool>& used) {
    std::string rid = time_key(s.recurrence_id, stored.timezones);
    for (std::size_t i = 0; i < incoming.components.size(); ++i) {
        const auto& c = incoming.components[i];
        if (used[i] || (!c.uid.empty() && !s.uid.empty())) continue;
        if (time_key(c.recurrence_id, incoming.timezones) == rid) {
            used[i] = true;
            return i;
        }
    }
    return std::nullopt;
}

std::string component_label(const calendar_component& c, const calendar& cal) {
    return c.recurrence_id ? "RECURRENCE-ID " + time_key(c.recurrence_id, cal.timezones) : std::string("component");
}

void merge_components(merge_context& ctx, calendar& out, const calendar& stored, const calendar& incoming) {
    zones z{stored.timezones, incoming.timezones};
    std::vector<bool> used(incoming.components.size());
    component_queue queue = queue_components(incoming);
    for (const auto& s : stored.components) {
        auto i = take_component(queue, component_key(s, stored), used);
        if (!i) i = take_without_uid(incoming, s, stored, used);
        if (i) {
            out.components.push_back(merge_component(ctx, s, incoming.components[*i], z));
            continue;
        }
        out.components.push_back(s);
        ctx.note(component_label(s, stored), "kept server component: absent from device copy");
    }
    for (std::size_t i = 0; i < incoming.components.size(); ++i) {
        if (used[i]) continue;
        std::string what = component_label(incoming.components[i], incoming);
        if (ctx.rule == field_rule::server_authoritative) {
            ctx.note(what, "device component dropped: server wins");
            ctx.device_update = true;
        } else {
            out.components.push_back(incoming.components[i]);
            ctx.note(what, "added from device");
        }
    }
}

}  // namespace

calendar merge_calendar(merge_context& ctx, const calendar& stored, const calendar& incoming) {
    calendar out;
    out.prodid = stored.prodid.empty() ? incoming.prodid : stored.prodid;
    out.method = stored.method.empty() ? incoming.method : stored.method;
    out.timezones = stored.timezones;
    merge_components(ctx, out, stored, incoming);
    // Only zones the merged times still refer to: a device copy whose times the stored copy's form replaced
    // (a vCalendar 1.0 phone's TZ for times it also wrote in UTC) adds nothing.
    for (const auto& tz : incoming.timezones) {
        bool known = std::any_of(stored.timezones.begin(), stored.timezones.end(),
                                 [&](const timezone_def& s) { return s.tzid == tz.tzid; });
        bool used = std::any_of(out.components.begin(), out.components.end(),
                                [&](const calendar_component& c) { return uses_timezone(c, tz.tzid); });
        if (!known && used) out.timezones.push_back(tz);
    }
    merge_extras(ctx, out.extra, stored.extra, incoming.extra);
    return out;
}

}  // namespace syncml::matching
