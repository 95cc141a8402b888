#pragma once
// Property-level mapping between content lines and calendar_component fields, shared by reader and writer.

#include <optional>
#include <string>
#include <string_view>

#include "matching/calendar/calendar_codec.hpp"

namespace syncml::matching {

// The date fields of a component by property name (DCREATED is vCalendar 1.0's CREATED).
std::optional<date_time>* date_field(calendar_component& c, std::string_view name);

// Whether a local time of `c` (dates, rules, exceptions, alarms) refers to VTIMEZONE `tzid`.
bool uses_timezone(const calendar_component& c, const std::string& tzid);

// Reads an RFC 5545 property into a typed field; false when it belongs in `extra`.
// `default_tzid` is applied to floating times (vCalendar 1.0 local times under a TZ).
bool apply_ical_property(calendar_component& c, const content_line& line, const std::string& default_tzid);
std::optional<date_time> read_time(const content_line& line, const std::string& default_tzid);

// vCalendar 1.0 value sets.
std::string status_from_vcal(std::string_view value, item_kind kind);
std::string status_to_vcal(std::string_view status);
int priority_from_vcal(int value);
int priority_to_vcal(int priority);

// Property names vCalendar 1.0 and iCalendar 2.0 share with the same meaning.
bool is_shared_calendar_property(std::string_view name);
bool is_vcal_only_property(std::string_view name);

constexpr std::string_view k_ical_hint = "X-SYNCML-ICAL-";
constexpr std::string_view k_vcal_hint = "X-SYNCML-VCAL-";

}  // namespace syncml::matching
