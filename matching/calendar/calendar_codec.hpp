#pragma once
// iCalendar 2.0 and vCalendar 1.0 reader and writer over the calendar model. vCalendar 1.0 data is converted
// to RFC 5545 semantics on input (TZ/DAYLIGHT -> VTIMEZONE, xALARM -> VALARM, 1.0 recurrence grammar ->
// RRULE, status/priority/transparency value sets) and back on output. What 1.0 cannot express is written as
// X-SYNCML-ICAL-<NAME> and restored on input; 1.0-only properties with no 2.0 meaning are kept in the model
// as X-SYNCML-VCAL-<NAME>, so round trips through either dialect lose nothing.

#include <string>
#include <string_view>
#include <vector>

#include "matching/content/content_line.hpp"
#include "matching/model/item.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

enum class calendar_version { vcal10, ical20 };

// Every VCALENDAR in `data`. The VERSION line decides the grammar; `fallback` applies when it is missing.
// Components outside any VCALENDAR (a bare VEVENT, as some phones send) are accepted.
result<std::vector<calendar>> parse_calendars(std::string_view data, calendar_version fallback,
                                              const parse_limits& limits = {});
std::string write_calendar(const calendar& value, calendar_version version);

// Written when the model has no PRODID (RFC 5545 requires one) and read back as "none".
constexpr std::string_view k_default_prodid = "-//syncml-server//items//EN";

// Internal to the calendar codec: the component tree and the vCalendar 1.0 specifics. Its walks and destructor
// recurse: build_components caps the depth, so they stay shallow whatever the input.
struct raw_component {
    std::string name;
    std::vector<content_line> lines;
    std::vector<raw_component> children;
    int line = 0;
};

// BEGIN/END nesting with recovery: a missing END closes at the parent's END or the end of input. Nesting deeper
// than limits.max_depth is an error.
result<std::vector<raw_component>> build_components(std::vector<content_line> lines, const parse_limits& limits = {});
// Unknown components are kept as flat BEGIN ... END properties.
void flatten_component(const raw_component& component, std::vector<property>& out);

// TZ and DAYLIGHT lines of a vCalendar 1.0 object into one VTIMEZONE (TZID "vcal-<offset>").
std::optional<timezone_def> timezone_from_vcal(const std::vector<content_line>& calendar_lines);
// TZ and DAYLIGHT values for `tz`, DAYLIGHT covering the given years.
std::vector<std::pair<std::string, std::string>> timezone_to_vcal(const timezone_def& tz, int first_year,
                                                                  int last_year);

}  // namespace syncml::matching
