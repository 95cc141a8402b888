#pragma once
// Synthesis-style target options (issue 18): Synthesis-engine clients append options to the datastore URI they
// send in Alert/Sync targets, e.g. "./calendar?/dr(-30,365)" or "contacts?CATEGORIES&iCON;Work". The engine reads
// the text after '?' as options "/name(args)" or "/name", and everything else there as a filter in the CGI
// grammar (filter_cgi.hpp). Supported, as libsynthesis reads them:
//   /dr(a,b)   date range: items whose span overlaps [now + a days, now + b days)
//   /fi(f) /tf(f)  a CGI filter (both ANDed with the rest)
//   /max(n)    at most n items (0 = no limit)
//   /li(n)     values over n bytes are not sent
//   /na        no attachments (ATTACH)
//   /slow      the client asks for a slow sync
// The numeric options (/dr, /max, /li) are also read as trailing path segments ("./calendar/dr(-30,365)"), a form
// some configurations use. Unknown options are an error, not ignored: the engine answers with a status instead of
// syncing everything.

#include <string>
#include <string_view>

#include "matching/filter/filter_cgi.hpp"
#include "matching/filter/item_filter.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

struct target_options {
    std::string path;  // the datastore URI without options: "./calendar"
    item_filter filter;
    bool force_slow_sync = false;
    bool operator==(const target_options&) const = default;
};

// Relative date ranges beyond a century are no calendar's window.
constexpr long k_max_range_days = 36600;

result<target_options> parse_target_options(std::string_view uri, const filter_limits& limits = {});

}  // namespace syncml::matching
