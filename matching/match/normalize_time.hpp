#pragma once
// Event times for matching: one device sends 20240131T073000Z, another 20240131T083000 with TZID=Europe/Berlin
// and a VTIMEZONE, a vCalendar 1.0 phone sends local time with TZ:+01; all mean the same instant.

#include <optional>
#include <string>
#include <vector>

#include "matching/model/item.hpp"

namespace syncml::matching {

// Canonical text of a DATE or DATE-TIME:
//   "D20240131"          all-day (DATE) values: a date, never shifted by a time zone;
//   "20240131T073000Z"   UTC, or local time whose TZID has a VTIMEZONE in `timezones` (converted to UTC);
//   "20240131T083000"    floating time;
//   "20240131T083000 Europe/Berlin"  local time in a zone without definition (cannot be converted here).
std::string normalized_time(const date_time& value, const std::vector<timezone_def>& timezones);

// UTC offset (seconds east of UTC) in force at local time `local` in `tz`, from its observances (DTSTART,
// yearly RRULEs with BYMONTH and BYDAY or BYMONTHDAY, RDATEs). Empty when `tz` has no usable observance.
std::optional<int> utc_offset_at(const date_time& local, const timezone_def& tz);

// Seconds since 1970-01-01T00:00:00 of the wall-clock fields, ignoring `utc`/`tzid`: for ordering values
// (newest-wins timestamps) and offset arithmetic.
long long wall_clock_seconds(const date_time& value);

}  // namespace syncml::matching
