#include "dav/query/free_busy.hpp"

#include <algorithm>
#include <cstring>

#include "common/text/ascii_case.hpp"
#include "dav/query/ical_object.hpp"
#include "dav/query/time_rules.hpp"

namespace syncml::dav::query {
namespace {

std::string text_value(icalcomponent* c, icalproperty_kind kind) {
    icalproperty* p = icalcomponent_get_first_property(c, kind);
    return p ? common::to_upper(ical::value_text(p)) : std::string();
}

void add_clipped(std::int64_t start, std::int64_t end, busy_kind kind, const ical::bounds& b,
                 std::vector<busy_period>& out) {
    start = std::max(start, b.start);
    end = std::min(end, b.end);
    if (start < end) out.push_back({start, end, kind});
}

void add_event(icalcomponent* c, const ical::time_rules& rules, const ical::bounds& b, std::vector<busy_period>& out) {
    if (text_value(c, ICAL_TRANSP_PROPERTY) == "TRANSPARENT") return;
    const auto status = text_value(c, ICAL_STATUS_PROPERTY);
    if (status == "CANCELLED") return;
    const auto kind = status == "TENTATIVE" ? busy_kind::tentative : busy_kind::busy;
    const auto length = ical::length_of(c, rules.k).value_or(0);
    for (const auto& i : rules.overlapping(c, b).instances) add_clipped(i.start, i.start + length, kind, b, out);
}

busy_kind fbtype_of(icalproperty* p) {
    icalparameter* type = icalproperty_get_first_parameter(p, ICAL_FBTYPE_PARAMETER);
    if (!type) return busy_kind::busy;
    switch (icalparameter_get_fbtype(type)) {
        case ICAL_FBTYPE_BUSYTENTATIVE:
            return busy_kind::tentative;
        case ICAL_FBTYPE_BUSYUNAVAILABLE:
            return busy_kind::unavailable;
        default:
            return busy_kind::busy;
    }
}

void add_freebusy(icalcomponent* c, const ical::clock& k, const ical::bounds& b, std::vector<busy_period>& out) {
    for (icalproperty* p = icalcomponent_get_first_property(c, ICAL_FREEBUSY_PROPERTY); p;
         p = icalcomponent_get_next_property(c, ICAL_FREEBUSY_PROPERTY)) {
        icalparameter* type = icalproperty_get_first_parameter(p, ICAL_FBTYPE_PARAMETER);
        if (type && icalparameter_get_fbtype(type) == ICAL_FBTYPE_FREE) continue;
        const icalperiodtype period = icalproperty_get_freebusy(p);
        if (icaltime_is_null_time(period.start)) continue;
        const auto from = k.utc(period.start, nullptr);
        const auto to = icaltime_is_null_time(period.end) ? from + icaldurationtype_as_int(period.duration)
                                                          : k.utc(period.end, nullptr);
        add_clipped(from, to, fbtype_of(p), b, out);
    }
}

}  // namespace

void add_busy_periods(std::string_view text, const time_range& range, std::vector<busy_period>& out,
                      const floating_zone& floating) {
    auto calendar = ical::parse(text);
    if (!calendar) return;
    const ical::clock k(calendar.get(), floating.zone());
    const ical::time_rules rules{calendar.get(), k};
    const auto b = ical::bounds_of(range);
    for (icalcomponent* c : ical::children(calendar.get())) {
        if (icalcomponent_isa(c) == ICAL_VEVENT_COMPONENT) add_event(c, rules, b, out);
        if (icalcomponent_isa(c) == ICAL_VFREEBUSY_COMPONENT) add_freebusy(c, k, b, out);
    }
}

std::string free_busy_calendar(std::vector<busy_period> periods, const time_range& range, std::int64_t now) {
    std::sort(periods.begin(), periods.end(), [](const busy_period& a, const busy_period& b) {
        return a.kind != b.kind ? a.kind < b.kind : a.start < b.start;
    });
    std::vector<busy_period> merged;
    for (const auto& p : periods) {
        if (!merged.empty() && merged.back().kind == p.kind && p.start <= merged.back().end) {
            merged.back().end = std::max(merged.back().end, p.end);
        } else {
            merged.push_back(p);
        }
    }
    ical::component_ptr calendar(icalcomponent_new(ICAL_VCALENDAR_COMPONENT));
    icalcomponent_add_property(calendar.get(), icalproperty_new_version("2.0"));
    icalcomponent_add_property(calendar.get(), icalproperty_new_prodid("-//syncml-server//CalDAV free-busy//EN"));
    icalcomponent* fb = icalcomponent_new(ICAL_VFREEBUSY_COMPONENT);
    icalcomponent_add_property(fb, icalproperty_new_dtstamp(ical::utc_time(now)));
    if (range.start) icalcomponent_add_property(fb, icalproperty_new_dtstart(ical::utc_time(*range.start)));
    if (range.end) icalcomponent_add_property(fb, icalproperty_new_dtend(ical::utc_time(*range.end)));
    for (const auto& p : merged) {
        icalperiodtype period = icalperiodtype_null_period();
        period.start = ical::utc_time(p.start);
        period.end = ical::utc_time(p.end);
        icalproperty* line = icalproperty_new_freebusy(period);
        if (p.kind != busy_kind::busy) {
            icalproperty_add_parameter(
                line, icalparameter_new_fbtype(p.kind == busy_kind::tentative ? ICAL_FBTYPE_BUSYTENTATIVE
                                                                              : ICAL_FBTYPE_BUSYUNAVAILABLE));
        }
        icalcomponent_add_property(fb, line);
    }
    icalcomponent_add_component(calendar.get(), fb);
    return ical::text_of(calendar.get());
}

}  // namespace syncml::dav::query
