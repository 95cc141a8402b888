#pragma once
// vCalendar 1.0 specifics of the calendar reader.

#include <string>
#include <vector>

#include "matching/calendar/calendar_codec.hpp"

namespace syncml::matching {

struct vcal_context {
    std::string tzid;          // zone of the calendar's local times, empty when it has no TZ
    bool tz_consumed = false;  // TZ/DAYLIGHT (and the VTIMEZONE hint) became cal.timezones
};

// Builds the calendar's VTIMEZONE from TZ/DAYLIGHT or from the X-SYNCML-ICAL-VTIMEZONE an earlier conversion left.
vcal_context make_vcal_context(const raw_component& root, calendar& cal);
bool consumed_by_vcal_context(const content_line& line, const vcal_context& context);

// The lines a 1.0 component reads once it is complete, and the typed fields they fill when read as iCalendar
// (kept up to date line by line: deciding on each hint by replaying all earlier ones was quadratic).
struct vcal_deferred {
    std::vector<content_line> lines;
    calendar_component as_ical;
};

// 1.0 value sets and grammar; alarms (vcal_alarm.hpp) and X-SYNCML-ICAL- hints wait until the whole component
// is read.
bool apply_vcal_property(calendar_component& c, content_line& line, const vcal_context& context,
                         vcal_deferred& deferred);
void finish_vcal_component(calendar_component& c, vcal_deferred& deferred, const vcal_context& context);

bool only_params_named(const content_line& line, std::string_view name);

}  // namespace syncml::matching
