#pragma once
// What a CALDAV:calendar-data element asks of the objects a report returns (RFC 4791 9.6): expand (9.6.5) or
// limit-recurrence-set (9.6.6), and the calendar data rewritten accordingly.

#include <optional>
#include <string>
#include <string_view>

#include "common/text/xml_tree.hpp"
#include "dav/query/floating_zone.hpp"
#include "dav/query/query_filter.hpp"

namespace syncml::dav::query {

struct calendar_data_request {
    enum class mode { as_stored, expand, limit_recurrence_set } kind = mode::as_stored;
    time_range range;
};

// The request of the CALDAV:calendar-data element inside `prop` (a report's DAV:prop); as_stored when it asks for
// neither. An error (valid-filter's sibling, CALDAV:valid-calendar-data... RFC 4791 names none: 400) when expand or
// limit-recurrence-set lacks a valid start and end.
struct calendar_data_parse {
    calendar_data_request request;
    std::string error;  // set when the element is malformed
};
calendar_data_parse read_calendar_data_request(const common::xml_element* prop);

// The object as the request asks for it; nullopt when it stays as it is (as_stored, or libical cannot read it).
// expand: each recurring VEVENT, VTODO or VJOURNAL replaced by its instances that overlap the range, each with a
// RECURRENCE-ID, overridden instances from their own components; every time in UTC (DATE values stay dates); no
// VTIMEZONE, no RRULE, RDATE or EXDATE. limit-recurrence-set: the master and the overriding components that overlap
// the range (or whose RECURRENCE-ID lies in it).
std::optional<std::string> rewrite_calendar_data(std::string_view text, const calendar_data_request& request,
                                                 const floating_zone& floating = {});

}  // namespace syncml::dav::query
