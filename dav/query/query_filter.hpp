#pragma once
// The filters of the query REPORTs as a small tree, read once from the request body and then evaluated on every
// item: CALDAV:filter of calendar-query (RFC 4791 9.7) and CARDDAV:filter of addressbook-query (RFC 6352 10.5).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/text/xml_tree.hpp"

namespace syncml::dav::query {

inline constexpr std::string_view ns_caldav = "urn:ietf:params:xml:ns:caldav";
inline constexpr std::string_view ns_carddav = "urn:ietf:params:xml:ns:carddav";

// RFC 4790 collations: i;ascii-casemap (CalDAV's default), i;octet, i;unicode-casemap (RFC 5051, CardDAV's default).
enum class collation { ascii_casemap, octet, unicode_casemap };
// RFC 6352 10.5.4; CalDAV's text-match has none and means `contains`.
enum class match_type { equals, contains, starts_with, ends_with };

struct text_match {
    std::string text;
    collation by = collation::ascii_casemap;
    match_type type = match_type::contains;
    bool negate = false;
};

// [start, end) in seconds since 1970 UTC; a missing bound is open (RFC 4791 9.9: at least one is given).
struct time_range {
    std::optional<std::int64_t> start;
    std::optional<std::int64_t> end;
};

struct param_filter {
    std::string name;  // upper case
    bool is_not_defined = false;
    std::optional<text_match> match{};
};

struct prop_filter {
    std::string name;  // upper case
    bool is_not_defined = false;
    std::optional<time_range> range{};  // CalDAV only
    std::vector<text_match> matches{};  // CalDAV: at most one
    std::vector<param_filter> params{};
    bool all_of = false;  // CardDAV's test="allof": every text-match and param-filter, else any
};

struct comp_filter {
    std::string name;  // upper case
    bool is_not_defined = false;
    std::optional<time_range> range{};
    std::vector<prop_filter> props{};
    std::vector<comp_filter> comps{};
};

// The VCALENDAR comp-filter a calendar-query's filter holds; nullopt: no filter, every item.
struct calendar_filter {
    std::optional<comp_filter> root;
};

struct card_filter {
    bool all_of = false;  // test="allof" on CARDDAV:filter
    std::vector<prop_filter> props;
};

// Why a filter is refused: the status, and the precondition (in namespace `ns`) its error body names.
struct filter_error {
    int status = 403;
    std::string_view ns;
    std::string_view precondition;  // valid-filter, supported-filter, supported-collation
    std::string detail;             // for the log and tests
};

template <class T>
struct parsed {
    std::optional<T> filter;
    std::optional<filter_error> error;  // set when filter is not
};

// Elements of one filter (comp-, prop-, param-filter, text-match, time-range) at most.
inline constexpr std::size_t k_max_filter_elements = 200;

// `filter` is the CALDAV:filter element, or null when the query has none.
parsed<calendar_filter> parse_calendar_filter(const common::xml_element* filter);
// `filter` is the CARDDAV:filter element, or null when the query has none (every card).
parsed<card_filter> parse_card_filter(const common::xml_element* filter);

// "20260101T000000Z" as seconds since 1970 UTC; nullopt when malformed.
std::optional<std::int64_t> parse_utc(std::string_view text);
// A time-range or expand element's start and end (at least one); nullopt when neither or one is malformed.
std::optional<time_range> parse_time_range(const common::xml_element& range);

}  // namespace syncml::dav::query
