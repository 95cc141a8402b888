#include "dav/query/instances.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace syncml::dav::query::ical {
namespace {

std::string uid_of(icalcomponent* c) {
    const char* uid = icalcomponent_get_uid(c);
    return uid ? uid : "";
}

// The local date of `t` as YYYYMMDD, for EXDATEs that name whole days.
int date_key(icaltimetype t) { return t.year * 10000 + t.month * 100 + t.day; }

struct exclusions {
    std::set<std::int64_t> instants;
    std::set<int> dates;
};

exclusions exdates_of(icalcomponent* c, const clock& k) {
    exclusions out;
    for (icalproperty* p = icalcomponent_get_first_property(c, ICAL_EXDATE_PROPERTY); p;
         p = icalcomponent_get_next_property(c, ICAL_EXDATE_PROPERTY)) {
        const icaltimetype t = icalproperty_get_exdate(p);
        if (icaltime_is_null_time(t)) continue;
        if (t.is_date) {
            out.dates.insert(date_key(t));
        } else {
            out.instants.insert(k.utc(t, k.zone_of(p, t)));
        }
    }
    return out;
}

// What a walk keeps: instances starting in [from, until) that are neither excluded nor overridden, `enough` at most.
struct window {
    std::optional<std::int64_t> from;
    std::optional<std::int64_t> until;
    const std::set<std::int64_t>& skip;
    exclusions excluded;
    std::size_t enough;

    bool takes(std::int64_t start, icaltimetype local) const {
        return (!from || start >= *from) && (!until || start < *until) && !skip.count(start) &&
               !excluded.instants.count(start) && !excluded.dates.count(date_key(local));
    }
};

// Walks one RRULE from `dtstart` (in `zone`), adding the instances `w` takes to `out`.
void walk_rule(icalproperty* rule, icaltimetype dtstart, icaltimezone* zone, const clock& k, const window& w,
               instance_set& out) {
    const icalrecurrencetype recur = icalproperty_get_rrule(rule);
    icalrecur_iterator* it = icalrecur_iterator_new(recur, dtstart);
    if (!it) return;
    // A rule without COUNT can start its walk near `from` (libical refuses with COUNT, which counts from DTSTART).
    if (w.from && recur.count == 0 && *w.from - k.utc(dtstart, zone) > 31 * k_day) {
        icaltimetype near = icaltime_from_timet_with_zone(static_cast<time_t>(*w.from - 14 * k_day), 0, zone);
        near.zone = nullptr;
        if (dtstart.is_date) {
            near.is_date = 1;
        } else {
            near.hour = dtstart.hour;
            near.minute = dtstart.minute;
            near.second = dtstart.second;
        }
        icalrecur_iterator_set_start(it, near);
    }
    std::size_t steps = 0;
    for (icaltimetype t = icalrecur_iterator_next(it); !icaltime_is_null_time(t); t = icalrecur_iterator_next(it)) {
        if (++steps > k_max_steps) {
            out.cut = true;
            break;
        }
        const auto start = k.utc(t, zone);
        // A day's slack: wall-clock order and UTC order differ around a change of offset.
        if (w.until && start >= *w.until + k_day) break;
        if (!w.takes(start, t)) continue;
        out.instances.push_back({start, t});
        if (out.instances.size() >= w.enough) break;
    }
    icalrecur_iterator_free(it);
}

void add_rdates(icalcomponent* c, const clock& k, const window& w, instance_set& out) {
    for (icalproperty* p = icalcomponent_get_first_property(c, ICAL_RDATE_PROPERTY); p;
         p = icalcomponent_get_next_property(c, ICAL_RDATE_PROPERTY)) {
        const icaldatetimeperiodtype v = icalproperty_get_rdate(p);
        const icaltimetype t = icaltime_is_null_time(v.time) ? v.period.start : v.time;
        if (icaltime_is_null_time(t)) continue;
        const auto start = k.utc(t, k.zone_of(p, t));
        if (w.takes(start, t)) out.instances.push_back({start, t});
    }
}

}  // namespace

bool recurs(icalcomponent* c) {
    return icalcomponent_get_first_property(c, ICAL_RRULE_PROPERTY) ||
           icalcomponent_get_first_property(c, ICAL_RDATE_PROPERTY);
}

std::set<std::int64_t> overridden(icalcomponent* calendar, icalcomponent* master, const clock& k) {
    std::set<std::int64_t> out;
    if (!calendar) return out;
    const auto kind = icalcomponent_isa(master);
    const auto uid = uid_of(master);
    for (icalcomponent* c : children(calendar, kind)) {
        if (c == master || uid_of(c) != uid) continue;
        if (auto at = k.utc_of(icalcomponent_get_first_property(c, ICAL_RECURRENCEID_PROPERTY))) out.insert(*at);
    }
    return out;
}

instance_set instances_of(icalcomponent* c, const clock& k, std::optional<std::int64_t> from,
                          std::optional<std::int64_t> until, const std::set<std::int64_t>& skip, std::size_t enough) {
    instance_set out;
    icalproperty* dtstart_p = icalcomponent_get_first_property(c, ICAL_DTSTART_PROPERTY);
    if (!dtstart_p) return out;
    const icaltimetype dtstart = icalproperty_get_dtstart(dtstart_p);
    if (icaltime_is_null_time(dtstart)) return out;
    icaltimezone* zone = k.zone_of(dtstart_p, dtstart);
    icaltimetype local = dtstart;
    local.zone = nullptr;
    const auto first = k.utc(local, zone);
    if (!recurs(c)) {
        if ((!from || first >= *from) && (!until || first < *until)) out.instances.push_back({first, local});
        return out;
    }
    const window w{.from = from, .until = until, .skip = skip, .excluded = exdates_of(c, k), .enough = enough};
    if (w.takes(first, local)) out.instances.push_back({first, local});
    for (icalproperty* rule = icalcomponent_get_first_property(c, ICAL_RRULE_PROPERTY); rule;
         rule = icalcomponent_get_next_property(c, ICAL_RRULE_PROPERTY)) {
        walk_rule(rule, local, zone, k, w, out);
    }
    add_rdates(c, k, w, out);
    auto& all = out.instances;
    std::sort(all.begin(), all.end(), [](const instance& a, const instance& b) { return a.start < b.start; });
    all.erase(
        std::unique(all.begin(), all.end(), [](const instance& a, const instance& b) { return a.start == b.start; }),
        all.end());
    return out;
}

std::optional<std::int64_t> length_of(icalcomponent* c, const clock& k) {
    icalproperty* dtstart_p = icalcomponent_get_first_property(c, ICAL_DTSTART_PROPERTY);
    const auto start = k.utc_of(dtstart_p);
    const bool todo = icalcomponent_isa(c) == ICAL_VTODO_COMPONENT;
    icalproperty* end_p = icalcomponent_get_first_property(c, todo ? ICAL_DUE_PROPERTY : ICAL_DTEND_PROPERTY);
    if (const auto end = k.utc_of(end_p); end && start) return std::max<std::int64_t>(*end - *start, 0);
    if (icalproperty* d = icalcomponent_get_first_property(c, ICAL_DURATION_PROPERTY)) {
        return std::max<std::int64_t>(icaldurationtype_as_int(icalproperty_get_duration(d)), 0);
    }
    if (todo) return std::nullopt;
    if (dtstart_p && icalproperty_get_dtstart(dtstart_p).is_date) return k_day;
    return 0;
}

}  // namespace syncml::dav::query::ical
