#pragma once
// Field-level filtering (issue 18): what a device does not want of an item (PHOTO, attachments, values over a
// size) is taken out before the item is sent. The engine records what was taken out, and the CTCap-style merge
// keeps those fields from the server copy when the device sends the item back, so a field-filtered device never
// wipes them.

#include <string>
#include <vector>

#include "matching/filter/item_filter.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

// Removes from `value` the properties `filter` keeps from the device: excluded ones, ones missing from a
// non-empty include list, and values larger than the rule's or the filter's maximum size. Properties that
// identify or place the item are always kept (contacts N, FN, UID, REV; calendar UID, DTSTART, DTEND, DUE,
// DURATION, RRULE, RDATE, EXDATE, RECURRENCE-ID, DTSTAMP, SEQUENCE, CREATED, LAST-MODIFIED; memo SUMMARY and
// BODY), else the device could not store the item or the merge could not pair it again. Returns the upper-case
// names of the properties removed, sorted, each once; empty when the item was left as it was.
std::vector<std::string> apply_field_filter(const field_filter& filter, item& value);

}  // namespace syncml::matching
