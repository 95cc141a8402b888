#pragma once
// The instances of a component through libical: DTSTART, RRULE and RDATE, less EXDATE and the instances other
// components of the object override (RECURRENCE-ID), in UTC. An unbounded rule is walked only as far as the caller
// asks, and never past k_max_steps steps of the iterator.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <vector>

#include "dav/query/ical_object.hpp"

namespace syncml::dav::query::ical {

inline constexpr std::size_t k_max_steps = 20000;  // iterator steps per rule and question

struct instance {
    std::int64_t start = 0;  // UTC
    icaltimetype local{};    // as DTSTART writes it: its zone's wall clock, a DATE for a whole day
};

struct instance_set {
    std::vector<instance> instances;  // by start
    bool cut = false;                 // the walk stopped at k_max_steps: later instances may exist
};

// Whether `c` has RRULE or RDATE.
bool recurs(icalcomponent* c);

// The RECURRENCE-IDs (UTC) of the components of `calendar` that override instances of `master` (same kind and UID).
std::set<std::int64_t> overridden(icalcomponent* calendar, icalcomponent* master, const clock& k);

// The instances of `c` that start in [from, until) (open when nullopt), less `skip` (overridden starts); a walk
// stops once it has `enough` (a question of overlap needs a few, not the thousands of an open-ended rule). Without
// RRULE and RDATE: DTSTART alone. Empty when `c` has no DTSTART.
instance_set instances_of(icalcomponent* c, const clock& k, std::optional<std::int64_t> from,
                          std::optional<std::int64_t> until, const std::set<std::int64_t>& skip,
                          std::size_t enough = std::numeric_limits<std::size_t>::max());

// The seconds from an instance's start to its end by RFC 4791 9.9: DTEND - DTSTART, DURATION, one day for a DATE
// DTSTART, else 0. For a VTODO, the offset of DUE (nullopt without DUE and DURATION).
std::optional<std::int64_t> length_of(icalcomponent* c, const clock& k);

}  // namespace syncml::dav::query::ical
