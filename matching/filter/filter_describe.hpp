#pragma once
// One-line rendering of a filter for the session log line (issue 18): what the device asked for, compact and
// bounded, e.g. `exclusive where=(CATEGORIES iCON "Work" | N.FAMILY EQ "Smith") span=[now-30d,now+365d) limit=100
// exclude=PHOTO maxsize=1024`. "none" for a filter that lets everything through.

#include <cstddef>
#include <string>

#include "matching/filter/item_filter.hpp"

namespace syncml::matching {

// At most `max_length` bytes (longer renderings end in "..."); values are quoted with '"' and '\' escaped and
// control characters shown as '?', so a hostile filter cannot forge log fields or lines.
std::string describe(const item_filter& filter, std::size_t max_length = 240);

}  // namespace syncml::matching
