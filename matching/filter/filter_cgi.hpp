#pragma once
// The OMA DS 1.2 record filter grammar "syncml:filtertype-cgi" (issue 18), as clients put it in
// <Filter><Record><Item><Data> and after '?' in a datastore URI:
//
//   filter     = or-expr
//   or-expr    = and-expr *( ("&OR;" / "|") and-expr )
//   and-expr   = primary *( ("&AND;" / "&amp;" / "&") primary )       ; AND binds tighter than OR
//   primary    = "(" or-expr ")" / term
//   term       = property operator value
//   property   = name [ "." sub-field ] [ "[" param [ "=" param-value ] "]" ]   ; N.FAMILY, TEL[TYPE=CELL]
//   operator   = "&" ["i"] ("EQ" / "NE" / "LT" / "GT" / "LE" / "GE" / "CON" / "NCON") ";"
//              / ["^"] ("=" / "<>" / "<" / ">" / "<=" / ">=" / "%" / "$")   ; the Synthesis short forms, ^ = i
//   value      = "&NULL;" / *( %XX escape / any character but "&", "|", ")" )
//
// Entity names are case-insensitive; the i-prefixed operators compare case-insensitively (as fold_text()); an
// empty value means &NULL; (absent or empty). Filter keywords (DS 1.2 FilterKeyword, as the Synthesis engine
// reads them) are not comparisons but settings, always ANDed with the whole filter wherever they stand, because
// the Synthesis client appends them to any filter it has: SINCE&EQ;<date-time> and BEFORE&EQ;<date-time> (a date
// window on the items' span), LIMIT or MAXCOUNT&EQ;n (at most n items, 0 = no limit), MAXSIZE&EQ;n (values over n
// bytes are not sent), NOATT&EQ;1 (no ATTACH). &LUID; terms are refused: the device's ids are not item data.

#include <cstddef>
#include <string_view>

#include "matching/filter/item_filter.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

// The filter arrives from the network: bounded so neither time nor memory nor stack depend on what was sent.
struct filter_limits {
    std::size_t max_length = 4096;
    int max_depth = 16;  // nested parentheses
    std::size_t max_terms = 64;
};

result<item_filter> parse_filter_cgi(std::string_view text, filter_semantics semantics = filter_semantics::exclusive,
                                     const filter_limits& limits = {});

// For filters embedded in other syntax (the Synthesis /fi(...) option): parses up to an unmatched ')' or the end;
// `consumed` is the offset of that ')' (or the length).
struct cgi_prefix {
    item_filter filter;
    std::size_t consumed = 0;
};
result<cgi_prefix> parse_filter_cgi_prefix(std::string_view text, const filter_limits& limits = {});

}  // namespace syncml::matching
