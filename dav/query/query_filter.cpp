#include "dav/query/query_filter.hpp"

#include <ctime>

#include "common/text/ascii_case.hpp"
#include "dav/query/text_match.hpp"

namespace syncml::dav::query {
namespace {

using common::xml_element;

// One filter being read: its namespace, what its text-match defaults to, how many elements so far, the first error.
struct reader {
    std::string_view ns;
    collation default_collation;
    std::string_view invalid;  // the precondition of a malformed filter
    std::size_t elements = 0;
    std::optional<filter_error> error{};

    bool fail(int status, std::string_view precondition, std::string detail) {
        if (!error) error = filter_error{status, ns, precondition, std::move(detail)};
        return false;
    }
    bool invalid_filter(std::string detail) { return fail(403, invalid, std::move(detail)); }
    bool count() {
        if (++elements <= k_max_filter_elements) return true;
        return fail(403, "supported-filter", "more than " + std::to_string(k_max_filter_elements) + " elements");
    }
    bool mine(const xml_element& e) const { return e.ns == ns; }
};

std::optional<match_type> match_type_named(std::string_view name) {
    if (name.empty() || name == "contains") return match_type::contains;
    if (name == "equals") return match_type::equals;
    if (name == "starts-with") return match_type::starts_with;
    if (name == "ends-with") return match_type::ends_with;
    return std::nullopt;
}

std::optional<text_match> read_text_match(reader& r, const xml_element& e) {
    if (!r.count()) return std::nullopt;
    text_match out;
    out.text = e.text;
    const auto by = collation_named(e.attribute("collation"), r.default_collation);
    if (!by) {
        r.fail(412, "supported-collation", "collation " + e.attribute("collation"));
        return std::nullopt;
    }
    out.by = *by;
    const auto type = match_type_named(e.attribute("match-type"));
    if (!type) {
        r.invalid_filter("match-type " + e.attribute("match-type"));
        return std::nullopt;
    }
    out.type = *type;
    const auto negate = e.attribute("negate-condition");
    if (negate != "" && negate != "yes" && negate != "no") {
        r.invalid_filter("negate-condition " + negate);
        return std::nullopt;
    }
    out.negate = negate == "yes";
    return out;
}

std::optional<time_range> read_time_range(reader& r, const xml_element& e) {
    if (!r.count()) return std::nullopt;
    auto range = parse_time_range(e);
    if (!range)
        r.invalid_filter("time-range start=\"" + e.attribute("start") + "\" end=\"" + e.attribute("end") + "\"");
    return range;
}

// The upper-case name attribute of a filter element; empty (an error recorded) when it has none.
std::string name_of(reader& r, const xml_element& e) {
    auto name = common::to_upper(e.attribute("name"));
    if (name.empty()) r.invalid_filter(e.name + " without a name");
    return name;
}

std::optional<param_filter> read_param_filter(reader& r, const xml_element& e) {
    if (!r.count()) return std::nullopt;
    param_filter out{.name = name_of(r, e)};
    for (const auto& child : e.children) {
        if (!r.mine(child)) continue;
        if (child.name == "is-not-defined" && r.count()) {
            out.is_not_defined = true;
        } else if (child.name == "text-match" && !out.match) {
            out.match = read_text_match(r, child);
        } else {
            r.invalid_filter("param-filter holds " + child.name);
        }
    }
    if (out.is_not_defined && out.match) r.invalid_filter("param-filter with is-not-defined and text-match");
    if (r.error) return std::nullopt;
    return out;
}

std::optional<prop_filter> read_prop_filter(reader& r, const xml_element& e, bool calendar) {
    if (!r.count()) return std::nullopt;
    prop_filter out{.name = name_of(r, e)};
    const auto test = e.attribute("test");
    if (!calendar && test != "" && test != "anyof" && test != "allof") r.invalid_filter("test=" + test);
    out.all_of = test == "allof";
    for (const auto& child : e.children) {
        if (!r.mine(child)) continue;
        if (child.name == "is-not-defined" && r.count()) {
            out.is_not_defined = true;
        } else if (child.name == "text-match" && (!calendar || out.matches.empty())) {
            if (auto m = read_text_match(r, child)) out.matches.push_back(std::move(*m));
        } else if (child.name == "time-range" && calendar && !out.range) {
            out.range = read_time_range(r, child);
        } else if (child.name == "param-filter") {
            if (auto p = read_param_filter(r, child)) out.params.push_back(std::move(*p));
        } else {
            r.invalid_filter("prop-filter holds " + child.name);
        }
    }
    const bool tests = !out.matches.empty() || out.range || !out.params.empty();
    if (out.is_not_defined && tests) r.invalid_filter("prop-filter with is-not-defined and other tests");
    if (calendar && out.range && !out.matches.empty()) r.invalid_filter("prop-filter with time-range and text-match");
    if (r.error) return std::nullopt;
    return out;
}

std::optional<comp_filter> read_comp_filter(reader& r, const xml_element& e) {
    if (!r.count()) return std::nullopt;
    comp_filter out{.name = name_of(r, e)};
    for (const auto& child : e.children) {
        if (!r.mine(child)) continue;
        if (child.name == "is-not-defined" && r.count()) {
            out.is_not_defined = true;
        } else if (child.name == "time-range" && !out.range) {
            out.range = read_time_range(r, child);
        } else if (child.name == "prop-filter") {
            if (auto p = read_prop_filter(r, child, true)) out.props.push_back(std::move(*p));
        } else if (child.name == "comp-filter") {
            if (auto c = read_comp_filter(r, child)) out.comps.push_back(std::move(*c));
        } else {
            r.invalid_filter("comp-filter holds " + child.name);
        }
    }
    const bool tests = out.range || !out.props.empty() || !out.comps.empty();
    if (out.is_not_defined && tests) r.invalid_filter("comp-filter with is-not-defined and other tests");
    if (r.error) return std::nullopt;
    return out;
}

template <class T>
parsed<T> done(reader& r, T filter) {
    if (r.error) return {.filter = std::nullopt, .error = r.error};
    return {.filter = std::move(filter), .error = std::nullopt};
}

}  // namespace

parsed<calendar_filter> parse_calendar_filter(const xml_element* filter) {
    reader r{.ns = ns_caldav, .default_collation = collation::ascii_casemap, .invalid = "valid-filter"};
    calendar_filter out;
    if (!filter) return done(r, out);
    for (const auto& child : filter->children) {
        if (!r.mine(child)) continue;
        if (child.name != "comp-filter" || out.root) {
            r.invalid_filter("a filter holds one comp-filter");
            break;
        }
        out.root = read_comp_filter(r, child);
        if (out.root && out.root->name != "VCALENDAR") r.invalid_filter("the filter's comp-filter is not VCALENDAR");
    }
    return done(r, std::move(out));
}

parsed<card_filter> parse_card_filter(const xml_element* filter) {
    reader r{.ns = ns_carddav, .default_collation = collation::unicode_casemap, .invalid = "supported-filter"};
    card_filter out;
    if (!filter) return done(r, out);
    const auto test = filter->attribute("test");
    if (test != "" && test != "anyof" && test != "allof") r.invalid_filter("test=" + test);
    out.all_of = test == "allof";
    for (const auto& child : filter->children) {
        if (!r.mine(child)) continue;
        if (child.name != "prop-filter") {
            r.invalid_filter("a filter holds prop-filters, not " + child.name);
            break;
        }
        if (auto p = read_prop_filter(r, child, false)) out.props.push_back(std::move(*p));
    }
    return done(r, std::move(out));
}

std::optional<std::int64_t> parse_utc(std::string_view text) {
    if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
    int v[6] = {};
    const std::size_t at[6] = {0, 4, 6, 9, 11, 13}, len[6] = {4, 2, 2, 2, 2, 2};
    for (int i = 0; i < 6; ++i) {
        for (std::size_t k = 0; k < len[i]; ++k) {
            const char ch = text[at[i] + k];
            if (ch < '0' || ch > '9') return std::nullopt;
            v[i] = v[i] * 10 + (ch - '0');
        }
    }
    if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 60) return std::nullopt;
    std::tm tm{};
    tm.tm_year = v[0] - 1900;
    tm.tm_mon = v[1] - 1;
    tm.tm_mday = v[2];
    tm.tm_hour = v[3];
    tm.tm_min = v[4];
    tm.tm_sec = v[5];
    return static_cast<std::int64_t>(timegm(&tm));
}

std::optional<time_range> parse_time_range(const xml_element& range) {
    const auto start = range.attribute("start"), end = range.attribute("end");
    if (start.empty() && end.empty()) return std::nullopt;
    time_range out;
    if (!start.empty() && !(out.start = parse_utc(start))) return std::nullopt;
    if (!end.empty() && !(out.end = parse_utc(end))) return std::nullopt;
    return out;
}

}  // namespace syncml::dav::query
