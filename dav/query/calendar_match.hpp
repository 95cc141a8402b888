#pragma once
// A calendar-query's filter evaluated on one calendar object (RFC 4791 9.7), with libical: comp-filters at any depth,
// prop-filters with text-match, time-range on date properties and param-filters, and the time-range rules of RFC 4791
// 9.9 for VEVENT, VTODO, VJOURNAL, VFREEBUSY and VALARM over every instance of a recurring component (RRULE, RDATE,
// EXDATE, overridden instances), in the item's own time zones.
//
// Leniency kept on purpose: clients (python-caldav's search without a component type) put a time-range or a
// prop-filter straight into the VCALENDAR comp-filter. There a time-range holds when any VEVENT, VTODO, VJOURNAL or
// VFREEBUSY of the object overlaps it, and a prop-filter naming no property of VCALENDAR itself holds when any of
// those components has a matching property.

#include <string_view>

#include "dav/query/floating_zone.hpp"
#include "dav/query/query_filter.hpp"

namespace syncml::dav::query {

// Whether the calendar object `text` matches `filter`. An object libical cannot read matches: a query must not hide
// what it cannot judge.
bool calendar_matches(const calendar_filter& filter, std::string_view text, const floating_zone& floating = {});

}  // namespace syncml::dav::query
