#pragma once
// A filter as text the engine can store with a device's datastore state (issue 18): the filter a device synced
// with decides, in the next session, what the device holds (so a changed filter gives the right adds and removes,
// and a refresh-from-client only touches what the device could see). Lines of "key=value":
//
//   type=exclusive | inclusive
//   where=<the expression in the filter_cgi.hpp grammar>
//   window=<span|modified> <bound> <bound>      bound: r<days from now> | a<seconds since 1970 UTC> | -
//   limit=<n>   maxsize=<n>   exclude=<NAME>    include=<NAME>[:<max size>]    size=<NAME>:<max size>
//   kind=<contacts|calendar|tasks|memos>
//
// Decoding reads what encoding writes; the result compares equal (==) to the filter that was encoded when that
// filter came from parse_filter_cgi()/parse_target_options() (server-built expressions may come back with their
// nodes in another order, meaning the same). An empty comparison value is written as &NULL;.

#include <string>
#include <string_view>

#include "matching/filter/item_filter.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

// The expression in the CGI grammar: entity operators, values %-escaped where the grammar or a line needs it,
// nested groups in parentheses.
std::string to_cgi(const filter_expression& expression);

std::string encode_filter(const item_filter& filter);
result<item_filter> decode_filter(std::string_view text);

}  // namespace syncml::matching
