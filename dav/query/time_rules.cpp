#include "dav/query/time_rules.hpp"

#include <algorithm>

namespace syncml::dav::query::ical {
namespace {

constexpr std::int64_t k_min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t k_max = std::numeric_limits<std::int64_t>::max();
constexpr int k_max_repeats = 1000;  // of one alarm
// Instances that answer whether a component overlaps a range: all of a walk's instances start in the window where
// they overlap it, but for one that ends where the range starts.
constexpr std::size_t k_enough = 8;

// a - d without passing the open bounds.
std::int64_t minus(std::int64_t a, std::int64_t d) { return a == k_min || a == k_max ? a : a - d; }

// What decides whether one instance of a component overlaps a range (RFC 4791 9.9), its start aside.
struct shape {
    icalcomponent_kind kind = ICAL_NO_COMPONENT;
    bool date = false;                       // DTSTART is a DATE
    std::int64_t length = 0;                 // VEVENT: to its end
    std::optional<std::int64_t> duration{};  // VTODO: DURATION
    std::optional<std::int64_t> due{};       // VTODO: DUE - DTSTART
    std::int64_t reach = 0;                  // how long after its start an instance can still overlap
};

shape shape_of(icalcomponent* c, const clock& k) {
    shape s{.kind = icalcomponent_isa(c)};
    icalproperty* dtstart = icalcomponent_get_first_property(c, ICAL_DTSTART_PROPERTY);
    s.date = dtstart && icalproperty_get_dtstart(dtstart).is_date;
    if (s.kind == ICAL_VEVENT_COMPONENT) {
        s.length = length_of(c, k).value_or(0);
        s.reach = s.length;
    } else if (s.kind == ICAL_VTODO_COMPONENT) {
        if (icalproperty* d = icalcomponent_get_first_property(c, ICAL_DURATION_PROPERTY)) {
            s.duration = std::max(icaldurationtype_as_int(icalproperty_get_duration(d)), 0);
        } else if (auto due = k.utc_of(icalcomponent_get_first_property(c, ICAL_DUE_PROPERTY))) {
            if (auto start = k.utc_of(dtstart)) s.due = std::max<std::int64_t>(*due - *start, 0);
        }
        s.reach = std::max(s.duration.value_or(0), s.due.value_or(0));
    } else if (s.kind == ICAL_VJOURNAL_COMPONENT) {
        s.reach = s.date ? k_day : 0;
    }
    return s;
}

// The table of RFC 4791 9.9 for one instance starting at `at`.
bool instance_overlaps(const shape& s, std::int64_t at, const bounds& b) {
    switch (s.kind) {
        case ICAL_VEVENT_COMPONENT:
            if (s.length > 0) return b.start < at + s.length && b.end > at;
            return b.start <= at && b.end > at;
        case ICAL_VTODO_COMPONENT:
            if (s.duration) return b.start <= at + *s.duration && (b.end > at || b.end >= at + *s.duration);
            if (s.due) return (b.start < at + *s.due || b.start <= at) && (b.end > at || b.end >= at + *s.due);
            return b.start <= at && b.end > at;
        case ICAL_VJOURNAL_COMPONENT:
            if (s.date) return b.start < at + k_day && b.end > at;
            return b.start <= at && b.end > at;
        default:
            return false;
    }
}

// A VTODO without DTSTART (it cannot recur): DUE, else COMPLETED and CREATED decide.
bool undated_todo_overlaps(icalcomponent* c, const clock& k, const bounds& b) {
    const auto due = k.utc_of(icalcomponent_get_first_property(c, ICAL_DUE_PROPERTY));
    if (due) return b.start < *due && b.end >= *due;
    const auto completed = k.utc_of(icalcomponent_get_first_property(c, ICAL_COMPLETED_PROPERTY));
    const auto created = k.utc_of(icalcomponent_get_first_property(c, ICAL_CREATED_PROPERTY));
    if (completed && created)
        return (b.start <= *created || b.start <= *completed) && (b.end >= *created || b.end >= *completed);
    if (completed) return b.start <= *completed && b.end >= *completed;
    if (created) return b.end > *created;
    return true;
}

// The instances of `c` an alarm with triggers in [first, last] after an instance's start could fire in range `b`.
instance_set instances_near(icalcomponent* calendar, icalcomponent* c, const clock& k, const bounds& b,
                            std::int64_t first, std::int64_t last, std::size_t enough) {
    std::set<std::int64_t> skip;
    if (recurs(c) && !icalcomponent_get_first_property(c, ICAL_RECURRENCEID_PROPERTY))
        skip = overridden(calendar, c, k);
    const auto from = b.start == k_min ? std::nullopt : std::optional(minus(b.start, last));
    const auto until = b.end == k_max ? std::nullopt : std::optional(minus(b.end, first) + 1);
    return instances_of(c, k, from, until, skip, enough);
}

}  // namespace

bounds bounds_of(const time_range& r) { return {r.start.value_or(k_min), r.end.value_or(k_max)}; }

instance_set time_rules::overlapping(icalcomponent* c, const bounds& b, std::size_t enough) const {
    const auto s = shape_of(c, k);
    auto set = instances_near(calendar, c, k, b, 0, s.reach, enough);
    std::erase_if(set.instances, [&](const instance& i) { return !instance_overlaps(s, i.start, b); });
    return set;
}

bool time_rules::event_overlaps(icalcomponent* c, const bounds& b) const {
    const auto set = overlapping(c, b, k_enough);
    return !set.instances.empty() || set.cut;
}

bool time_rules::todo_overlaps(icalcomponent* c, const bounds& b) const {
    if (!icalcomponent_get_first_property(c, ICAL_DTSTART_PROPERTY)) return undated_todo_overlaps(c, k, b);
    const auto set = overlapping(c, b, k_enough);
    return !set.instances.empty() || set.cut;
}

bool time_rules::journal_overlaps(icalcomponent* c, const bounds& b) const {
    const auto set = overlapping(c, b, k_enough);
    return !set.instances.empty() || set.cut;
}

bool time_rules::freebusy_overlaps(icalcomponent* c, const bounds& b) const {
    const auto start = k.utc_of(icalcomponent_get_first_property(c, ICAL_DTSTART_PROPERTY));
    const auto end = k.utc_of(icalcomponent_get_first_property(c, ICAL_DTEND_PROPERTY));
    if (start && end) return b.start <= *end && b.end > *start;
    for (icalproperty* p = icalcomponent_get_first_property(c, ICAL_FREEBUSY_PROPERTY); p;
         p = icalcomponent_get_next_property(c, ICAL_FREEBUSY_PROPERTY)) {
        const icalperiodtype period = icalproperty_get_freebusy(p);
        if (icaltime_is_null_time(period.start)) continue;
        const auto from = k.utc(period.start, nullptr);
        const auto to = icaltime_is_null_time(period.end) ? from + icaldurationtype_as_int(period.duration)
                                                          : k.utc(period.end, nullptr);
        if (b.start < to && b.end > from) return true;
    }
    return false;
}

bool time_rules::alarm_overlaps(icalcomponent* alarm, icalcomponent* parent, const bounds& b) const {
    icalproperty* trigger_p = icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY);
    if (!trigger_p) return false;
    const icaltriggertype trigger = icalproperty_get_trigger(trigger_p);
    int repeat = 0;
    std::int64_t every = 0;
    if (icalproperty* r = icalcomponent_get_first_property(alarm, ICAL_REPEAT_PROPERTY)) {
        if (icalproperty* d = icalcomponent_get_first_property(alarm, ICAL_DURATION_PROPERTY)) {
            repeat = std::clamp(icalproperty_get_repeat(r), 0, k_max_repeats);
            every = std::max(icaldurationtype_as_int(icalproperty_get_duration(d)), 0);
        }
    }
    const auto fires_in_range = [&](std::int64_t first) {
        for (int n = 0; n <= repeat; ++n) {
            const auto at = first + n * every;
            if (b.start <= at && b.end > at) return true;
        }
        return false;
    };
    if (!icaltime_is_null_time(trigger.time)) return fires_in_range(k.utc(trigger.time, nullptr));
    std::int64_t offset = icaldurationtype_as_int(trigger.duration);
    if (icalparameter* related = icalproperty_get_first_parameter(trigger_p, ICAL_RELATED_PARAMETER);
        related && icalparameter_get_related(related) == ICAL_RELATED_END) {
        const auto s = shape_of(parent, k);
        offset += s.kind == ICAL_VTODO_COMPONENT ? s.duration.value_or(s.due.value_or(0)) : s.length;
    }
    const auto last = offset + static_cast<std::int64_t>(repeat) * every;
    // Up to an open end, any instance in the window fires in the range (its last trigger does).
    const auto enough = b.end == k_max ? k_enough : std::numeric_limits<std::size_t>::max();
    const auto set = instances_near(calendar, parent, k, b, offset, last, enough);
    for (const auto& i : set.instances) {
        if (fires_in_range(i.start + offset)) return true;
    }
    return set.cut;
}

}  // namespace syncml::dav::query::ical
