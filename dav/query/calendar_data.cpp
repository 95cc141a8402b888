#include "dav/query/calendar_data.hpp"

#include <algorithm>
#include <vector>

#include "dav/query/ical_object.hpp"
#include "dav/query/time_rules.hpp"

namespace syncml::dav::query {
namespace {

using ical::bounds;

// Replaces every property `kind` of `c` by one holding `value` (a UTC DATE-TIME or a DATE).
void set_time(icalcomponent* c, icalproperty_kind kind, icaltimetype value) {
    while (icalproperty* old = icalcomponent_get_first_property(c, kind)) {
        icalcomponent_remove_property(c, old);
        icalproperty_free(old);
    }
    icalproperty* p = icalproperty_new(kind);
    icalproperty_set_value(p, value.is_date ? icalvalue_new_date(value) : icalvalue_new_datetime(value));
    icalcomponent_add_property(c, p);
}

void remove_all(icalcomponent* c, icalproperty_kind kind) {
    while (icalproperty* old = icalcomponent_get_first_property(c, kind)) {
        icalcomponent_remove_property(c, old);
        icalproperty_free(old);
    }
}

// Every local or floating DATE-TIME value of `c`'s own properties in UTC, their TZIDs dropped.
void to_utc(icalcomponent* c, const ical::clock& k) {
    for (icalproperty* p = icalcomponent_get_first_property(c, ICAL_ANY_PROPERTY); p;
         p = icalcomponent_get_next_property(c, ICAL_ANY_PROPERTY)) {
        icalvalue* v = icalproperty_get_value(p);
        if (!v || icalvalue_isa(v) != ICAL_DATETIME_VALUE) continue;
        const icaltimetype t = icalvalue_get_datetime(v);
        if (icaltime_is_null_time(t) || icaltime_is_utc(t)) continue;
        const auto at = k.utc(t, k.zone_of(p, t));
        icalproperty_remove_parameter_by_kind(p, ICAL_TZID_PARAMETER);
        icalvalue_set_datetime(v, ical::utc_time(at));
    }
}

// A time `offset` seconds after instance `i`: a DATE when the instance is a whole day, else UTC.
icaltimetype after(const ical::instance& i, std::int64_t offset) {
    if (!i.local.is_date) return ical::utc_time(i.start + offset);
    icaltimetype day = i.local;
    icaltime_adjust(&day, static_cast<int>(offset / ical::k_day), 0, 0, 0);
    return day;
}

// Instance `i` of `master` as a component of its own.
icalcomponent* instance_component(icalcomponent* master, const ical::instance& i, const ical::clock& k) {
    const auto start = k.utc_of(icalcomponent_get_first_property(master, ICAL_DTSTART_PROPERTY));
    const auto end = k.utc_of(icalcomponent_get_first_property(master, ICAL_DTEND_PROPERTY));
    const auto due = k.utc_of(icalcomponent_get_first_property(master, ICAL_DUE_PROPERTY));
    icalcomponent* x = icalcomponent_new_clone(master);
    for (auto kind : {ICAL_RRULE_PROPERTY, ICAL_RDATE_PROPERTY, ICAL_EXDATE_PROPERTY, ICAL_EXRULE_PROPERTY})
        remove_all(x, kind);
    to_utc(x, k);
    set_time(x, ICAL_DTSTART_PROPERTY, after(i, 0));
    if (start && end) set_time(x, ICAL_DTEND_PROPERTY, after(i, std::max<std::int64_t>(*end - *start, 0)));
    if (start && due) set_time(x, ICAL_DUE_PROPERTY, after(i, *due - *start));
    set_time(x, ICAL_RECURRENCEID_PROPERTY, after(i, 0));
    return x;
}

bool overlaps(const ical::time_rules& rules, icalcomponent* c, const bounds& b) {
    switch (icalcomponent_isa(c)) {
        case ICAL_VTODO_COMPONENT:
            return rules.todo_overlaps(c, b);
        case ICAL_VEVENT_COMPONENT:
            return rules.event_overlaps(c, b);
        case ICAL_VJOURNAL_COMPONENT:
            return rules.journal_overlaps(c, b);
        default:
            return true;
    }
}

bool expandable(icalcomponent* c) {
    const auto kind = icalcomponent_isa(c);
    return kind == ICAL_VEVENT_COMPONENT || kind == ICAL_VTODO_COMPONENT || kind == ICAL_VJOURNAL_COMPONENT;
}

std::string expand(icalcomponent* calendar, const ical::clock& k, const bounds& b) {
    const ical::time_rules rules{calendar, k};
    ical::component_ptr out(icalcomponent_new(ICAL_VCALENDAR_COMPONENT));
    for (icalproperty* p = icalcomponent_get_first_property(calendar, ICAL_ANY_PROPERTY); p;
         p = icalcomponent_get_next_property(calendar, ICAL_ANY_PROPERTY)) {
        icalcomponent_add_property(out.get(), icalproperty_new_clone(p));
    }
    std::vector<std::pair<std::int64_t, icalcomponent*>> pieces;  // by start
    for (icalcomponent* c : ical::children(calendar)) {
        if (icalcomponent_isa(c) == ICAL_VTIMEZONE_COMPONENT) continue;
        const auto start = k.utc_of(icalcomponent_get_first_property(c, ICAL_DTSTART_PROPERTY)).value_or(0);
        if (!expandable(c)) {
            pieces.emplace_back(start, icalcomponent_new_clone(c));
        } else if (ical::recurs(c) && !icalcomponent_get_first_property(c, ICAL_RECURRENCEID_PROPERTY)) {
            for (const auto& i : rules.overlapping(c, b).instances)
                pieces.emplace_back(i.start, instance_component(c, i, k));
        } else if (overlaps(rules, c, b)) {
            icalcomponent* x = icalcomponent_new_clone(c);
            to_utc(x, k);
            pieces.emplace_back(start, x);
        }
    }
    std::stable_sort(pieces.begin(), pieces.end(), [](const auto& a, const auto& z) { return a.first < z.first; });
    for (const auto& [start, piece] : pieces) icalcomponent_add_component(out.get(), piece);
    return ical::text_of(out.get());
}

std::string limit_recurrence_set(icalcomponent* calendar, const ical::clock& k, const bounds& b) {
    const ical::time_rules rules{calendar, k};
    std::vector<icalcomponent*> dropped;
    for (icalcomponent* c : ical::children(calendar)) {
        icalproperty* id = icalcomponent_get_first_property(c, ICAL_RECURRENCEID_PROPERTY);
        if (!id || !expandable(c)) continue;
        const auto at = k.utc_of(id);
        const bool id_inside = at && b.start <= *at && b.end > *at;
        if (!id_inside && !overlaps(rules, c, b)) dropped.push_back(c);
    }
    for (icalcomponent* c : dropped) {
        icalcomponent_remove_component(calendar, c);
        icalcomponent_free(c);
    }
    return ical::text_of(calendar);
}

// Both bounds of an expand or limit-recurrence-set element (RFC 4791 9.6.5 and 9.6.6 require them).
std::optional<time_range> both_bounds(const common::xml_element& e) {
    auto range = parse_time_range(e);
    if (!range || !range->start || !range->end || *range->start >= *range->end) return std::nullopt;
    return range;
}

}  // namespace

calendar_data_parse read_calendar_data_request(const common::xml_element* prop) {
    calendar_data_parse out;
    const auto* data = prop ? prop->child(ns_caldav, "calendar-data") : nullptr;
    if (!data) return out;
    for (const auto& [name, mode] :
         {std::pair{"expand", calendar_data_request::mode::expand},
          std::pair{"limit-recurrence-set", calendar_data_request::mode::limit_recurrence_set}}) {
        const auto* e = data->child(ns_caldav, name);
        if (!e) continue;
        auto range = both_bounds(*e);
        if (!range) {
            out.error = std::string(name) + " needs a start before its end, both in UTC";
            return out;
        }
        out.request = {.kind = mode, .range = *range};
    }
    return out;
}

std::optional<std::string> rewrite_calendar_data(std::string_view text, const calendar_data_request& request,
                                                 const floating_zone& floating) {
    if (request.kind == calendar_data_request::mode::as_stored) return std::nullopt;
    auto calendar = ical::parse(text);
    if (!calendar) return std::nullopt;
    const ical::clock k(calendar.get(), floating.zone());
    const auto b = ical::bounds_of(request.range);
    if (request.kind == calendar_data_request::mode::expand) return expand(calendar.get(), k, b);
    return limit_recurrence_set(calendar.get(), k, b);
}

}  // namespace syncml::dav::query
