// REPORT on a collection: multiget and the queries here; sync-collection in dav_sync_collection.cpp.
#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

#include "common/text/ascii_case.hpp"
#include "dav/dav_context.hpp"
#include "dav/dav_items.hpp"
#include "dav/dav_listing.hpp"

namespace syncml::dav::detail {
namespace {

// The item names of a multiget's hrefs that lie in the requested collection; others are answered 404.
dav_response multiget(const request_context& c, const xml_element& body, const collection_info& info,
                      const persistence::dav_collection& state) {
    auto asked = props_of(body);
    if (!asked) return text_response(400, "too many properties asked for\n");
    std::vector<std::string> names, stray;
    std::set<std::string> seen;
    for (const auto& child : body.children) {
        if (!child.is(ns_dav, "href")) continue;
        const auto href = child.trimmed_text();
        if (!seen.insert(href).second) continue;  // each resource once, however often it is named
        if (seen.size() > k_max_hrefs) return text_response(400, "too many hrefs in one multiget\n");
        auto path = parse_dav_path(href_path(href));
        if (path && path->kind == resource_kind::item && path->tenant == c.account.tenant &&
            path->user == c.account.user && path->collection == info.kind) {
            names.push_back(path->name);
        } else {
            stray.push_back(href);
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    // Like a listing: contents a batch at a time, the response within the listing's cap. Beyond it, each resource
    // not described gets 507 (a short line each, past the cap), so that the client asks for those again.
    multistatus out(c.account.listing.response_bytes);
    const listing_scope scope{.c = c, .state = state, .with_content = asked->needs_content()};
    std::set<std::string> answered;
    const auto listed = list_named(scope, names, [&](const persistence::dav_resource& item) {
        if (!describe(out, c, {resource_kind::item, &info, &state, &item}, *asked)) return false;
        answered.insert(item.name);
        return true;
    });
    const int unanswered = listed == listing_end::complete ? 404 : 507;
    for (const auto& name : names) {
        if (!answered.count(name))
            out.add_status_past_cap(item_href(c.account.tenant, c.account.user, info.kind, name), unanswered);
    }
    for (const auto& href : stray) out.add_status_past_cap(href, 404);
    return xml_response(207, out.finish());
}

}  // namespace

std::optional<std::size_t> limit_of(const xml_element& body, std::string_view ns) {
    const auto* limit = body.child(ns, "limit");
    if (!limit) return std::nullopt;
    const auto* n = limit->child(ns, "nresults");
    if (!n) return 0;
    const auto text = n->trimmed_text();
    std::size_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return 0;
    return value;
}

namespace {

// A text-match of an addressbook-query prop-filter, case-insensitively for ASCII.
bool text_matches(const std::string& value, const xml_element& match) {
    const auto v = common::to_lower(value), want = common::to_lower(match.text);
    const auto type = match.attribute("match-type");
    bool hit = type == "equals"        ? v == want
               : type == "starts-with" ? v.starts_with(want)
               : type == "ends-with"   ? v.ends_with(want)
                                       : v.find(want) != std::string::npos;
    return match.attribute("negate-condition") == "yes" ? !hit : hit;
}

bool contact_matches(const std::string& content, const xml_element* filter) {
    if (!filter) return true;
    const auto properties = properties_of(content);
    const bool all_of = filter->attribute("test") == "allof";
    bool any = false, all = true, some_filter = false;
    for (const auto& prop : filter->children) {
        if (!prop.is(ns_carddav, "prop-filter")) continue;
        some_filter = true;
        const std::string name = common::to_upper(prop.attribute("name"));
        std::vector<std::string> values;
        for (const auto& [property, value] : properties) {
            if (property == name) values.push_back(value);
        }
        bool hit;
        if (prop.child(ns_carddav, "is-not-defined")) {
            hit = values.empty();
        } else if (const auto* match = prop.child(ns_carddav, "text-match")) {
            hit = false;
            for (const auto& v : values) hit = hit || text_matches(v, *match);
        } else {
            hit = !values.empty();
        }
        any = any || hit;
        all = all && hit;
    }
    return !some_filter || (all_of ? all : any);
}

// The innermost comp-filter's time-range of a calendar-query (VCALENDAR > VEVENT > time-range).
const xml_element* time_range_of(const xml_element* filter) {
    for (const xml_element* at = filter; at;) {
        if (const auto* range = at->child(ns_caldav, "time-range")) return range;
        at = at->child(ns_caldav, "comp-filter");
    }
    return nullptr;
}

// What a query selects: the items its filter matches (an address book's prop-filters, a calendar's time range).
struct query_filter {
    const xml_element* filter = nullptr;
    std::optional<std::int64_t> start, end;
    bool by_content = false;  // whether the items' contents decide
    bool matches(const collection_info& info, const persistence::dav_resource& item) const {
        if (!by_content) return true;
        return info.address_book ? contact_matches(item.content, filter) : overlaps(item.content, start, end);
    }
};

// The filter of a query into `out`; the refusal of one this server does not take.
std::optional<dav_response> read_filter(const xml_element& body, const collection_info& info, query_filter& out) {
    out.filter = body.child(info.address_book ? ns_carddav : ns_caldav, "filter");
    if (info.address_book) {
        if (out.filter && std::count_if(out.filter->children.begin(), out.filter->children.end(),
                                        [](const xml_element& e) { return e.is(ns_carddav, "prop-filter"); }) >
                              static_cast<std::ptrdiff_t>(k_max_filters))
            return error_response(403, ns_carddav, "supported-filter");
        out.by_content = out.filter != nullptr;
        return std::nullopt;
    }
    if (const auto* range = time_range_of(out.filter)) {
        auto s = range->attribute("start"), e = range->attribute("end");
        if (!s.empty() && !(out.start = parse_utc(s))) return error_response(403, ns_caldav, "valid-filter");
        if (!e.empty() && !(out.end = parse_utc(e))) return error_response(403, ns_caldav, "valid-filter");
    }
    out.by_content = out.start || out.end;
    return std::nullopt;
}

dav_response query(const request_context& c, const xml_element& body, const collection_info& info,
                   const persistence::dav_collection& state) {
    auto asked = props_of(body);
    if (!asked) return text_response(400, "too many properties asked for\n");
    query_filter selected;
    if (auto refused = read_filter(body, info, selected)) return *refused;
    const auto limit = info.address_book ? limit_of(body, ns_carddav) : std::nullopt;  // RFC 4791 has no nresults
    if (limit && *limit == 0) return text_response(400, "CARDDAV:limit needs a positive CARDDAV:nresults\n");
    multistatus out(c.account.listing.response_bytes);
    const listing_scope scope{.c = c, .state = state, .with_content = selected.by_content || asked->needs_content()};
    std::size_t matches = 0;
    const auto listed = list_live(scope, 0, [&](const persistence::dav_resource& item) {
        if (!selected.matches(info, item)) return true;
        if (limit && matches == *limit) return false;  // a match past the client's limit: the result is cut
        ++matches;
        return describe(out, c, {resource_kind::item, &info, &state, &item}, *asked);
    });
    // RFC 6352 8.6.1 (calendar-query alike): a result cut short, at the client's limit or the response's cap, ends
    // with a 507 for the request-URI and DAV:number-of-matches-within-limits.
    if (listed != listing_end::complete)
        out.add_error(collection_href(c.account.tenant, c.account.user, info.kind), 507, ns_dav,
                      "number-of-matches-within-limits");
    return xml_response(207, out.finish());
}

}  // namespace

dav_response report(const request_context& c) {
    auto parsed = parse_xml(c.request.body);
    if (!parsed.root) return text_response(400, "malformed XML body: " + parsed.error + "\n");
    const auto& body = *parsed.root;
    if (c.path.kind != resource_kind::collection && c.path.kind != resource_kind::item)
        return error_response(403, ns_dav, "supported-report");
    const auto* info = c.info;
    const auto& state = *c.state;
    const auto data_ns = info->address_book ? ns_carddav : ns_caldav;
    if (body.is(data_ns, info->address_book ? "addressbook-multiget" : "calendar-multiget"))
        return multiget(c, body, *info, state);
    if (c.path.kind != resource_kind::collection) return error_response(403, ns_dav, "supported-report");
    if (body.is(ns_dav, "sync-collection")) return sync_collection(c, body, *info, state);
    if (body.is(data_ns, info->address_book ? "addressbook-query" : "calendar-query"))
        return query(c, body, *info, state);
    return error_response(403, ns_dav, "supported-report");
}

}  // namespace syncml::dav::detail
