#pragma once
// CALDAV:free-busy-query (RFC 4791 7.10): the busy time of a calendar's objects in a range, as one VFREEBUSY.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dav/query/floating_zone.hpp"
#include "dav/query/query_filter.hpp"

namespace syncml::dav::query {

enum class busy_kind { busy, tentative, unavailable };  // FBTYPE BUSY, BUSY-TENTATIVE, BUSY-UNAVAILABLE

struct busy_period {
    std::int64_t start = 0;  // UTC
    std::int64_t end = 0;
    busy_kind kind = busy_kind::busy;
    bool operator==(const busy_period&) const = default;
};

// The busy time the object `text` adds within `range` (both bounds set), clipped to it: each instance of a VEVENT
// that is not TRANSPARENT nor CANCELLED (TENTATIVE: tentative), and the FREEBUSY periods of its VFREEBUSY components.
// Appended to `out`.
void add_busy_periods(std::string_view text, const time_range& range, std::vector<busy_period>& out,
                      const floating_zone& floating = {});

// The VCALENDAR with one VFREEBUSY for `range`: DTSTAMP `now`, DTSTART and DTEND of the range, the periods merged
// per kind, in UTC.
std::string free_busy_calendar(std::vector<busy_period> periods, const time_range& range, std::int64_t now);

}  // namespace syncml::dav::query
