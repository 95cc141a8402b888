// REPORT on a collection: multiget and the queries here; sync-collection in dav_sync_collection.cpp.
#include <algorithm>
#include <charconv>
#include <ctime>
#include <optional>
#include <set>

#include "dav/dav_context.hpp"
#include "dav/dav_items.hpp"
#include "dav/dav_listing.hpp"
#include "dav/query/calendar_data.hpp"
#include "dav/query/calendar_match.hpp"
#include "dav/query/card_match.hpp"
#include "dav/query/free_busy.hpp"

namespace syncml::dav::detail {

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

// What a query selects and how it returns it: the filter read into a tree (dav/query), the zone of floating times
// (CALDAV:timezone), and the calendar data rewritten as calendar-data asks (expand, limit-recurrence-set).
struct query_plan {
    std::optional<query::calendar_filter> calendar;
    std::optional<query::card_filter> card;
    query::floating_zone floating;
    query::calendar_data_request data;
    bool by_content() const {
        return (calendar && calendar->root) || (card && !card->props.empty()) ||
               data.kind != query::calendar_data_request::mode::as_stored;
    }
};

dav_response refusal(const query::filter_error& e) { return error_response(e.status, e.ns, e.precondition); }

// The plan of an addressbook-query or calendar-query body; the refusal of one this server does not take.
std::optional<dav_response> read_plan(const xml_element& body, const collection_info& info, query_plan& out) {
    if (info.address_book) {
        const auto* filter = body.child(ns_carddav, "filter");
        if (filter && std::count_if(filter->children.begin(), filter->children.end(), [](const xml_element& e) {
                          return e.is(ns_carddav, "prop-filter");
                      }) > static_cast<std::ptrdiff_t>(k_max_filters))
            return error_response(403, ns_carddav, "supported-filter");
        auto parsed = query::parse_card_filter(filter);
        if (parsed.error) return refusal(*parsed.error);
        out.card = std::move(parsed.filter);
        return std::nullopt;
    }
    auto parsed = query::parse_calendar_filter(body.child(ns_caldav, "filter"));
    if (parsed.error) return refusal(*parsed.error);
    out.calendar = std::move(parsed.filter);
    if (const auto* zone = body.child(ns_caldav, "timezone")) {
        auto floating = query::floating_zone::from_vtimezone(zone->text);
        if (!floating) return error_response(403, ns_caldav, "valid-calendar-data");
        out.floating = std::move(*floating);
    }
    auto data = query::read_calendar_data_request(body.child(ns_dav, "prop"));
    if (!data.error.empty()) return text_response(400, data.error + "\n");
    out.data = data.request;
    return std::nullopt;
}

// Adds one item of a query's result: its body as the client sees it, rewritten when calendar-data asks for it.
bool describe_item(multistatus& out, const request_context& c, const collection_info& info,
                   const persistence::dav_collection& state, const persistence::dav_resource& item,
                   const prop_request& asked, const query_plan& plan) {
    std::optional<std::string> rewritten;
    if (plan.data.kind != query::calendar_data_request::mode::as_stored && !item.content.empty())
        rewritten = query::rewrite_calendar_data(client_body(info, item.content, item.guid), plan.data, plan.floating);
    return describe(out, c, {resource_kind::item, &info, &state, &item, rewritten ? &*rewritten : nullptr}, asked);
}

bool selected(const query_plan& plan, const collection_info& info, const persistence::dav_resource& item) {
    if (plan.card && !plan.card->props.empty())
        return query::card_matches(*plan.card, client_body(info, item.content, item.guid));
    if (plan.calendar && plan.calendar->root)
        return query::calendar_matches(*plan.calendar, client_body(info, item.content, item.guid), plan.floating);
    return true;
}

// The item names of a multiget's hrefs that lie in the requested collection; others are answered 404.
dav_response multiget(const request_context& c, const xml_element& body, const collection_info& info,
                      const persistence::dav_collection& state) {
    auto asked = props_of(body);
    if (!asked) return text_response(400, "too many properties asked for\n");
    query_plan plan;
    if (!info.address_book) {
        auto data = query::read_calendar_data_request(body.child(ns_dav, "prop"));
        if (!data.error.empty()) return text_response(400, data.error + "\n");
        plan.data = data.request;
    }
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
        if (!describe_item(out, c, info, state, item, *asked, plan)) return false;
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

dav_response run_query(const request_context& c, const xml_element& body, const collection_info& info,
                       const persistence::dav_collection& state) {
    auto asked = props_of(body);
    if (!asked) return text_response(400, "too many properties asked for\n");
    query_plan plan;
    if (auto refused = read_plan(body, info, plan)) return *refused;
    const auto limit = info.address_book ? limit_of(body, ns_carddav) : std::nullopt;  // RFC 4791 has no nresults
    if (limit && *limit == 0) return text_response(400, "CARDDAV:limit needs a positive CARDDAV:nresults\n");
    multistatus out(c.account.listing.response_bytes);
    const listing_scope scope{.c = c, .state = state, .with_content = plan.by_content() || asked->needs_content()};
    std::size_t matches = 0;
    const auto listed = list_live(scope, 0, [&](const persistence::dav_resource& item) {
        if (!item.content.empty() && !selected(plan, info, item)) return true;
        if (limit && matches == *limit) return false;  // a match past the client's limit: the result is cut
        ++matches;
        return describe_item(out, c, info, state, item, *asked, plan);
    });
    // RFC 6352 8.6.1 (calendar-query alike): a result cut short, at the client's limit or the response's cap, ends
    // with a 507 for the request-URI and DAV:number-of-matches-within-limits.
    if (listed != listing_end::complete)
        out.add_error(collection_href(c.account.tenant, c.account.user, info.kind), 507, ns_dav,
                      "number-of-matches-within-limits");
    return xml_response(207, out.finish());
}

// CALDAV:free-busy-query (RFC 4791 7.10): one VFREEBUSY of the calendar's busy time in the range, 200 text/calendar.
dav_response free_busy(const request_context& c, const xml_element& body, const collection_info& info,
                       const persistence::dav_collection& state) {
    const auto* element = body.child(ns_caldav, "time-range");
    const auto range = element ? query::parse_time_range(*element) : std::nullopt;
    if (!range || !range->start || !range->end || *range->start >= *range->end)
        return text_response(400, "free-busy-query needs a time-range with a start before its end, in UTC\n");
    std::vector<query::busy_period> busy;
    const listing_scope scope{.c = c, .state = state, .with_content = true};
    list_live(scope, 0, [&](const persistence::dav_resource& item) {
        if (!item.content.empty()) query::add_busy_periods(client_body(info, item.content, item.guid), *range, busy);
        return true;
    });
    dav_response r;
    r.status = 200;
    r.content_type = "text/calendar; charset=utf-8";
    r.body = query::free_busy_calendar(std::move(busy), *range, static_cast<std::int64_t>(std::time(nullptr)));
    return r;
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
        return run_query(c, body, *info, state);
    if (!info->address_book && body.is(ns_caldav, "free-busy-query")) return free_busy(c, body, *info, state);
    return error_response(403, ns_dav, "supported-report");
}

}  // namespace syncml::dav::detail
