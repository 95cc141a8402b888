#pragma once
// An addressbook-query's filter evaluated on one vCard (RFC 6352 10.5): prop-filters combined by the filter's test
// (anyof, allof), each with is-not-defined or text-matches and param-filters combined by its own test, text-match
// with match-type, negate-condition and collation.

#include <string_view>

#include "dav/query/query_filter.hpp"

namespace syncml::dav::query {

// Whether the vCard `text` matches `filter`. A card that cannot be read matches: a query must not hide what it
// cannot judge.
bool card_matches(const card_filter& filter, std::string_view text);

}  // namespace syncml::dav::query
