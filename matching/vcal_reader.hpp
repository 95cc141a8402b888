#pragma once
// vCalendar 1.0 specifics of the calendar reader.

#include <string>
#include <vector>

#include "matching/calendar_codec.hpp"

namespace syncml::matching {

struct vcal_context {
    std::string tzid;          // zone of the calendar's local times, empty when it has no TZ
    bool tz_consumed = false;  // TZ/DAYLIGHT (and the VTIMEZONE hint) became cal.timezones
};

// Builds the calendar's VTIMEZONE from TZ/DAYLIGHT or from the X-SYNCML-ICAL-VTIMEZONE an earlier conversion left.
vcal_context make_vcal_context(const raw_component& root, calendar& cal);
bool consumed_by_vcal_context(const content_line& line, const vcal_context& context);

// 1.0 value sets and grammar; alarms and X-SYNCML-ICAL- hints are deferred until the whole component is read.
bool apply_vcal_property(calendar_component& c, content_line& line, const vcal_context& context,
                         std::vector<content_line>& deferred);
void finish_vcal_component(calendar_component& c, std::vector<content_line>& deferred, const vcal_context& context);

// One AALARM/DALARM/PALARM/MALARM line as a VALARM; relative to DTSTART where the times are comparable.
alarm read_vcal_alarm(const content_line& line, const calendar_component& c);

bool only_params_named(const content_line& line, std::string_view name);

// ATTENDEE parameters: 1.0 STATUS/RSVP/EXPECT <-> 2.0 PARTSTAT/RSVP/ROLE (vcal_attendee.cpp).
void attendee_params_from_vcal(std::vector<param>& params);
std::vector<param> attendee_params_to_vcal(const std::vector<param>& params);

}  // namespace syncml::matching
