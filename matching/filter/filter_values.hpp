#pragma once
// The values a record filter compares (issue 18): a filter names vCard/iCalendar properties ("CATEGORIES",
// "N.FAMILY", "TEL[TYPE=CELL]", "DTSTART"), the item model keeps most of them as typed fields and the rest in
// `extra`; this is the one table that maps the names onto the model.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "matching/filter/item_filter.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

enum class value_kind { text, date, number };

// DTSTART, DUE, LAST-MODIFIED, REV, ... compare as instants; PRIORITY, PERCENT-COMPLETE, SEQUENCE as numbers.
value_kind kind_of_property(std::string_view name);

// 0-based component of a structured value: N.FAMILY (or N.1), ADR.LOCALITY, ORG.UNIT, or a 1-based number for any
// property; nullopt for a name the property does not have, so a typo is a parse error and not a filter that
// quietly matches nothing.
std::optional<int> sub_field_index(std::string_view property, std::string_view sub_field);

// Filters say MODIFIED (as Funambol clients send it) or LAST-MODIFIED; contacts call it REV.
std::string canonical_property_name(std::string_view name);

// What DevInf FilterCap can announce for a kind (events and tasks share text/calendar's list): the properties
// values_of() reads from typed fields. X- and other properties kept in `extra` compare too, by their name.
std::span<const std::string_view> filterable_properties(item_kind kind);
// The FilterKeyword values filter_cgi.hpp reads. A Synthesis-engine client speaking DS 1.2 sends its date range
// as SINCE/BEFORE in the Alert's <Filter> (absolute UTC times from its own clock, so the filter differs every
// day), and as /dr(-before,after) in the datastore URI when its configuration rules out DS 1.2 filters.
std::span<const std::string_view> filter_keywords();

struct filter_value {
    std::string text;
    std::optional<std::int64_t> instant;  // seconds since 1970 UTC, for date properties whose value reads as one
};

// Every value of the property in the item, one per instance (each TEL, each category); empty when absent.
// Values of calendar data come from every component, so a filter holds when any component satisfies it.
std::vector<filter_value> values_of(const item& value, const property_ref& ref);

}  // namespace syncml::matching
