#pragma once
// VALARM <-> vCalendar 1.0 AALARM, DALARM, PALARM and MALARM (vcal_alarm.cpp). A 1.0 alarm is one flat line,
// `run time;snooze;repeat count;content` (MALARM: `...;address;note`). A VALARM that no line carries exactly
// is written as its closest line followed by an X-SYNCML-ICAL-VALARM hint, which the reader puts back in the
// line's place, so every other alarm still reaches the phone as a real 1.0 alarm.

#include <optional>
#include <string_view>
#include <vector>

#include "matching/content/content_line.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

bool is_vcal_alarm_property(std::string_view name);

// One xALARM line as a VALARM; run times become triggers relative to DTSTART where the times are comparable.
alarm read_vcal_alarm(const content_line& line, const calendar_component& c);

// The xALARM line closest to `a`; `c` holds the component's times as the 1.0 writer puts them.
property vcal_alarm_line(const alarm& a, const calendar_component& c);
void write_vcal_alarm_line(content_writer& out, const property& line);

// What the reader makes of vcal_alarm_line(a, c) once written: equal to `a` when 1.0 carries it exactly.
std::optional<alarm> reread_vcal_alarm(const alarm& a, const calendar_component& c);

// The xALARM lines and X-SYNCML-ICAL-VALARM hints of one component, in input order, as its VALARM list. A hint
// replaces the line right before it when that line still reads like the hint's own line; when a phone changed
// it, the hint is stale and the phone's version stays.
std::vector<alarm> read_vcal_alarms(const std::vector<content_line>& lines, const calendar_component& c);

}  // namespace syncml::matching
