#pragma once
// RFC 4791 9.9: when a component overlaps a time range, per component kind, over every instance of a recurring
// component. Used by the filters, by expand and limit-recurrence-set, and by free-busy.

#include <cstdint>
#include <limits>
#include <vector>

#include "dav/query/instances.hpp"
#include "dav/query/query_filter.hpp"

namespace syncml::dav::query::ical {

// A time range with open bounds made the smallest and largest instants.
struct bounds {
    std::int64_t start = std::numeric_limits<std::int64_t>::min();
    std::int64_t end = std::numeric_limits<std::int64_t>::max();
};
bounds bounds_of(const time_range& r);

struct time_rules {
    icalcomponent* calendar;  // the object, for overridden instances
    const clock& k;

    bool event_overlaps(icalcomponent* c, const bounds& b) const;
    bool todo_overlaps(icalcomponent* c, const bounds& b) const;
    bool journal_overlaps(icalcomponent* c, const bounds& b) const;
    bool freebusy_overlaps(icalcomponent* c, const bounds& b) const;
    // An alarm of `parent` (a VEVENT or VTODO): any trigger, repetitions included, of any instance in the range.
    bool alarm_overlaps(icalcomponent* alarm, icalcomponent* parent, const bounds& b) const;

    // The instances of a VEVENT, VTODO or VJOURNAL `c` that overlap the range, by start (an overridden instance is
    // left to the component that overrides it). `cut`: the rule was walked as far as it may be without reaching
    // the range's end.
    instance_set overlapping(icalcomponent* c, const bounds& b,
                             std::size_t enough = std::numeric_limits<std::size_t>::max()) const;
};

}  // namespace syncml::dav::query::ical
