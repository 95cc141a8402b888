#pragma once
// Text matching of the query filters: the collations of RFC 4790 (i;octet, i;ascii-casemap) and RFC 5051
// (i;unicode-casemap: simple titlecase mapping, then NFKD, through ICU) with CardDAV's match types.

#include <optional>
#include <string>
#include <string_view>

#include "dav/query/query_filter.hpp"

namespace syncml::dav::query {

// The collation an attribute value names; nullopt for one this server does not support. Empty: `fallback`.
std::optional<collation> collation_named(std::string_view name, collation fallback);

// `text` as the collation compares it (the key equal texts share).
std::string collation_key(std::string_view text, collation by);

// Whether `value` matches, negate-condition applied.
bool text_matches(std::string_view value, const text_match& match);

}  // namespace syncml::dav::query
