#pragma once
// Where calendar data lies in time, for date windows (issue 18): an event's whole span including all its
// recurrences, a task's due date. Over-estimating a span is safe (the device gets an item it could have done
// without, and the engine's "inside" decision stays the same for sending and for deleting); under-estimating
// would hide items, so every shortcut here errs on the long side.

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "matching/model/item.hpp"

namespace syncml::matching {

constexpr std::int64_t k_unbounded_end = std::numeric_limits<std::int64_t>::max();

// Seconds since 1970 UTC: UTC values as they are, local times whose TZID has a VTIMEZONE in `timezones`
// converted with it, floating times and zones without definition read as UTC (windows are days wide; a few
// hours of a device's zone do not change which events a window holds in any way a user notices).
std::int64_t instant_seconds(const date_time& value, const std::vector<timezone_def>& timezones);

// [begin, end) in seconds since 1970 UTC; end == begin for a point in time.
struct time_span {
    std::int64_t begin = 0;
    std::int64_t end = 0;
    bool operator==(const time_span&) const = default;
};

// Events: DTSTART to DTEND (or DTSTART + DURATION, or one day for an all-day event without end), extended to the
// end of the last occurrence of RRULEs and RDATEs; open-ended rules end at k_unbounded_end. Tasks: the point
// DUE, else DTSTART. Journals: DTSTART. nullopt when the component has none of these dates.
std::optional<time_span> component_span(const calendar_component& component,
                                        const std::vector<timezone_def>& timezones);

// An instant no later than which the last occurrence of `rule` starts, for an item starting at `start` (seconds
// since 1970 UTC); nullopt when the rule is unbounded or its end cannot be bounded without expanding it (COUNT
// with parts that may skip whole periods, such as BYSETPOS, BYMONTHDAY=31, or a monthly rule from the 31st).
std::optional<std::int64_t> last_start_bound(const recurrence_rule& rule, const date_time& start,
                                             const std::vector<timezone_def>& timezones);

}  // namespace syncml::matching
