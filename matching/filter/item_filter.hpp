#pragma once
// What part of a datastore a device wants (issue 18): a record filter (which items) and a field filter (which
// properties of them). Clients express it as an OMA DS 1.2 <Filter> in the Alert (filter_cgi.hpp) or as
// Synthesis-style options in the datastore URI (target_options.hpp); server-side sync windows fill the same model.
//
// Semantics the engine builds on:
// - An item is "inside" the record filter when matches() says so at the session's clock. Only items inside are
//   sent; a refresh-from-client, slow sync or client Delete only ever affects server items inside the filter the
//   device synced with.
// - EXCLUSIVE (OMA's default when <FilterType> is absent): the filter's result replaces the client's data set, so
//   items on the device that are outside (or moved out of a window) are removed from the device only, never
//   deleted on the server or on other devices. INCLUSIVE: the result is added to what the device already holds;
//   nothing is removed from the device because it is outside.
// - Fields the field filter keeps from the device (apply_field_filter()) are kept from the server copy when the
//   device sends the item back.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matching/model/item.hpp"

namespace syncml::matching {

enum class filter_semantics { exclusive, inclusive };

// <FilterType> text: "INCLUSIVE" / "EXCLUSIVE" (case-insensitive, surrounding blanks ignored), an empty element
// meaning EXCLUSIVE as OMA DS 1.2 defines; nullopt for anything else (the engine answers 422).
std::optional<filter_semantics> parse_filter_type(std::string_view text);

enum class compare_op { equal, not_equal, less, greater, less_equal, greater_equal, contains, not_contains };

// A property of the item: "CATEGORIES", a component of a structured value "N.FAMILY" / "ADR.LOCALITY", or the
// instances carrying a parameter value "TEL[TYPE=CELL]". Names are upper case.
struct property_ref {
    std::string name;
    std::string sub_field;
    std::string param_name;
    std::string param_value;
    bool operator==(const property_ref&) const = default;
};

struct comparison {
    property_ref property;
    compare_op op = compare_op::equal;
    bool case_insensitive = false;  // the grammar's i-prefixed operators (&iEQ;, &iCON;, ...)
    bool null_value = false;        // &NULL;: compares against "absent or empty"
    std::string value;              // decoded (%XX escapes undone)
    bool operator==(const comparison&) const = default;
};

enum class node_kind { comparison, all_of, any_of };

// Nodes live in one vector and refer to their children by index, children before their parent (a child index not
// below its parent's makes the node false): copying, comparing or destroying a filter never recurses, and
// evaluating one always ends, whatever the network sent.
struct filter_node {
    node_kind kind = node_kind::comparison;
    comparison term;                      // kind == comparison
    std::vector<std::uint32_t> children;  // all_of / any_of
    bool operator==(const filter_node&) const = default;
};

// Deeper expressions are never evaluated (false) nor parsed: the parser's own limit is lower.
constexpr int k_max_filter_depth = 64;

struct filter_expression {
    std::vector<filter_node> nodes;  // empty: no condition
    std::uint32_t root = 0;
    bool empty() const { return nodes.empty(); }
    bool operator==(const filter_expression&) const = default;
};

// A bound of a date window: a fixed instant (SINCE/BEFORE) or days relative to the session's clock (/dr(-30,365),
// server-side windows), so a relative window moves with time and items move into and out of it.
struct window_bound {
    bool relative = false;
    std::int64_t seconds = 0;  // since 1970 UTC when absolute
    std::int64_t days = 0;     // from now when relative
    bool operator==(const window_bound&) const = default;
};

enum class window_field {
    span,           // events by their whole span (recurring: to the end of the last occurrence), tasks by DUE or
                    // DTSTART, journals by DTSTART; contacts, memos and undated items are always inside
    last_modified,  // LAST-MODIFIED (REV for contacts); items without it are inside
};

// [from, to): an event overlaps it when any part of its span lies inside.
struct date_window {
    window_field field = window_field::span;
    std::optional<window_bound> from;
    std::optional<window_bound> to;
    bool operator==(const date_window&) const = default;
};

struct record_filter {
    filter_semantics semantics = filter_semantics::exclusive;
    filter_expression where;
    std::vector<date_window> windows;  // all must hold, ANDed with `where`
    // LIMIT / MAXCOUNT / /max(n): at most this many items are sent; which ones is the engine's choice, so it is
    // not part of matches().
    std::optional<std::size_t> max_items;
    // Only items of this kind are inside: a device datastore of one kind that syncs a collection holding others too
    // (a calendar of events and tasks, issue 38).
    std::optional<item_kind> kind;
    bool operator==(const record_filter&) const = default;
};

// One property the device asked for (an OMA field filter lists DevInf <Property> elements) with the largest value
// it takes.
struct field_rule {
    std::string property;  // upper case
    std::optional<std::size_t> max_size;
    bool operator==(const field_rule&) const = default;
};

struct field_filter {
    std::vector<field_rule> include;            // empty: every property
    std::vector<std::string> exclude;           // never sent, e.g. PHOTO (upper case)
    std::optional<std::size_t> max_value_size;  // bytes; larger values are not sent (MAXSIZE, /li(n))
    // Per-property limits that leave other properties alone (a server window's "no photos over 64 KB"); an
    // include rule's max_size only applies with its include list.
    std::vector<field_rule> size_limits;
    bool empty() const { return include.empty() && exclude.empty() && !max_value_size && size_limits.empty(); }
    bool operator==(const field_filter&) const = default;
};

struct item_filter {
    record_filter record;
    field_filter fields;
    bool operator==(const item_filter&) const = default;
};

// Whether `value` is inside `filter` at `now`. The clock is the caller's so that a session evaluates every item
// at one instant and tests can move time.
bool matches(const record_filter& filter, const item& value, std::chrono::system_clock::time_point now);

// AND of two filters into `into`: both expressions and all windows hold, the smaller limit and size, both
// exclusions, only properties both include lists name. Semantics stay `into`'s.
void and_into(item_filter& into, const item_filter& other);

// The instant a window bound stands for at `now` (seconds since 1970 UTC).
std::int64_t resolve_bound(const window_bound& bound, std::chrono::system_clock::time_point now);

}  // namespace syncml::matching
