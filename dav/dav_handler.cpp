#include "dav/dav_handler.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "dav/dav_context.hpp"
#include "dav/dav_items.hpp"
#include "dav/dav_listing.hpp"
#include "matching/match/match_keys.hpp"
#include "persistence/sync/storage_quota.hpp"

namespace syncml::dav {
namespace detail {

dav_response xml_response(int status, std::string body) {
    dav_response r;
    r.status = status;
    r.content_type = "application/xml; charset=utf-8";
    r.body = std::move(body);
    return r;
}

dav_response text_response(int status, std::string text) {
    dav_response r;
    r.status = status;
    r.content_type = "text/plain; charset=utf-8";
    r.body = std::move(text);
    if (status >= 400) r.outcome = "refused";
    return r;
}

dav_response error_response(int status, std::string_view ns, std::string_view precondition, std::string_view inner) {
    auto r = xml_response(status, error_body(ns, precondition, inner));
    r.outcome = "refused";
    return r;
}

}  // namespace detail

namespace {

using namespace detail;

// The entity tags an If-Match / If-None-Match header lists ("*" as itself); weak tags compare as strong ones.
std::vector<std::string> entity_tags(const std::string& header) {
    std::vector<std::string> tags;
    std::size_t pos = 0;
    while (pos < header.size()) {
        while (pos < header.size() && (header[pos] == ' ' || header[pos] == ',' || header[pos] == '\t')) ++pos;
        if (pos >= header.size()) break;
        if (header.compare(pos, 2, "W/") == 0) pos += 2;
        std::size_t end;
        if (header[pos] == '"') {
            end = header.find('"', pos + 1);
            end = end == std::string::npos ? header.size() : end + 1;
        } else {
            end = header.find(',', pos);
            if (end == std::string::npos) end = header.size();
        }
        auto tag = header.substr(pos, end - pos);
        while (!tag.empty() && (tag.back() == ' ' || tag.back() == '\t')) tag.pop_back();
        tags.push_back(tag);
        pos = end;
    }
    return tags;
}

bool matches(const std::string& header, const std::optional<persistence::dav_resource>& current) {
    for (const auto& tag : entity_tags(header)) {
        if (tag == "*" ? current.has_value() : current && tag == etag_of(current->modseq)) return true;
    }
    return false;
}

// The preconditions of a write (RFC 9110 13.1): nullopt when they hold.
std::optional<dav_response> preconditions_fail(const dav_request& request,
                                               const std::optional<persistence::dav_resource>& current) {
    if (!request.if_match.empty() && !matches(request.if_match, current))
        return text_response(412, "the resource is not at the version If-Match names\n");
    if (!request.if_none_match.empty() && matches(request.if_none_match, current))
        return text_response(412, "the resource exists at a version If-None-Match names\n");
    return std::nullopt;
}

std::optional<persistence::dav_resource> find_item(const request_context& c, const persistence::dav_collection& state,
                                                   bool for_update) {
    auto found = c.store.named(state, {c.path.name}, for_update);
    if (found.empty()) return std::nullopt;
    return std::move(found.front());
}

// The properties a PROPFIND body asks for into `asked` (an empty body asks for all); a 400 for a body that is no
// DAV:propfind.
std::optional<dav_response> read_propfind(const std::string& body, prop_request& asked) {
    if (body.empty()) return std::nullopt;
    auto parsed = parse_xml(body);
    if (!parsed.root) return text_response(400, "malformed XML body: " + parsed.error + "\n");
    if (!parsed.root->is(ns_dav, "propfind")) return text_response(400, "the body is no DAV:propfind\n");
    auto props = props_of(*parsed.root);
    if (!props) return text_response(400, "too many properties asked for\n");
    asked = std::move(*props);
    return std::nullopt;
}

// The user's collections, each kind's default among them (created when missing), by datastore id.
std::vector<persistence::dav_collection> all_collections(const request_context& c) {
    auto all = c.store.collections(c.account.tenant_id, c.account.user_id);
    bool missing = false;
    for (auto info = collections_begin(); info != collections_end(); ++info) {
        const bool there =
            std::any_of(all.begin(), all.end(), [&](const auto& s) { return s.kind == info->datastore; });
        if (!there) {
            c.store.collection(c.account.tenant_id, c.account.user_id, info->datastore, std::string(info->suffix));
            missing = true;
        }
    }
    if (missing) all = c.store.collections(c.account.tenant_id, c.account.user_id);
    return all;
}

// The user's home and, `deep`, its collections.
void describe_home(multistatus& out, const request_context& c, const prop_request& asked, bool deep) {
    describe(out, c, {resource_kind::home}, asked);
    if (!deep) return;
    for (auto& state : all_collections(c)) {
        const auto info = info_of(state);
        state.suffix = std::string(info.suffix);
        describe(out, c, {resource_kind::collection, &info, &state}, asked);
    }
}

// A collection with, `deep`, its items, or one item; a 404 for an unknown item.
std::optional<dav_response> describe_in_collection(multistatus& out, const request_context& c,
                                                   const prop_request& asked, bool deep) {
    const auto kind = c.path.kind;
    const auto* info = c.info;
    const auto& state = *c.state;
    if (kind == resource_kind::collection) {
        describe(out, c, {kind, info, &state}, asked);
        if (!deep) return std::nullopt;
        const auto end = list_live({.c = c, .state = state, .with_content = asked.needs_content()}, 0,
                                   [&](const persistence::dav_resource& item) {
                                       return describe(out, c, {resource_kind::item, info, &state, &item}, asked);
                                   });
        // RFC 4918 has no truncated PROPFIND: the 507 and postcondition of a truncated report (RFC 6578 3.6) say
        // that the list is cut short, in a body that stays well-formed.
        if (end != listing_end::complete)
            out.add_error(href_of(c, {kind, info, &state}), 507, ns_dav, "number-of-matches-within-limits");
        return std::nullopt;
    }
    auto item = find_item(c, state, false);
    if (!item) return text_response(404, "no such item\n");
    if (!asked.needs_content()) item->content.clear();
    describe(out, c, {kind, info, &state, &*item}, asked);
    return std::nullopt;
}

dav_response propfind(const request_context& c) {
    const auto& depth = c.request.depth;
    prop_request asked;
    if (auto refused = read_propfind(c.request.body, asked)) return *refused;
    if (depth != "0" && depth != "1" && c.path.kind != resource_kind::item)
        return error_response(403, ns_dav, "propfind-finite-depth");
    multistatus out(c.account.listing.response_bytes);
    const bool deep = depth != "0";
    const auto kind = c.path.kind;
    if (kind == resource_kind::root || kind == resource_kind::principal) {
        describe(out, c, {kind}, asked);
    } else if (kind == resource_kind::home) {
        describe_home(out, c, asked, deep);
    } else if (auto missing = describe_in_collection(out, c, asked, deep)) {
        return *missing;
    }
    return xml_response(207, out.finish());
}

dav_response get(const request_context& c) {
    if (c.path.kind != resource_kind::item) {
        auto r = text_response(405, "only items can be fetched; use PROPFIND or REPORT on collections\n");
        r.headers.emplace_back("Allow", allowed_methods(c.path));
        return r;
    }
    const auto* info = c.info;
    const auto& state = *c.state;
    auto item = find_item(c, state, false);
    if (!item) return text_response(404, "no such item\n");
    dav_response r;
    r.content_type = content_type_of(*info, item->content);
    r.body = client_body(*info, item->content, item->guid);
    r.headers.emplace_back("ETag", etag_of(item->modseq));
    return r;
}

// RFC 6352 6.3.2.1, RFC 4791 5.3.2.1: a UID names one resource of a collection. Another live item holding the
// incoming item's UID, if any. A replace that keeps its item's UID is never refused: items from phones may share a
// UID already (SyncML does not forbid it), and refusing would make both uneditable.
std::optional<persistence::dav_resource> uid_holder(const request_context& c, const persistence::dav_collection& state,
                                                    const incoming_item& incoming,
                                                    const std::optional<persistence::dav_resource>& current) {
    if (current) {
        const auto kept = first_property(current->content, "UID").value_or(current->guid);
        if (first_property(incoming.canonical, "UID").value_or(current->guid) == kept) return std::nullopt;
    }
    const std::string uid_prefix = std::string(matching::key_kind::uid) + ":";
    for (const auto& key : incoming.keys) {
        if (!key.starts_with(uid_prefix) || key.size() == uid_prefix.size()) continue;
        for (auto& holder : c.store.holding_key(state, key)) {
            if (!current || holder.item_id != current->item_id) return std::move(holder);
        }
    }
    return std::nullopt;
}

// A body the collection cannot take: a calendar component of another kind (its own precondition), else a 400.
dav_response invalid_item(const incoming_item& incoming) {
    const bool wrong_component = incoming.error.starts_with("this collection holds only");
    if (wrong_component) return error_response(403, ns_caldav, "supported-calendar-component");
    return text_response(400, "invalid item: " + incoming.error + "\n");
}

dav_response uid_conflict(const request_context& c, const collection_info& info,
                          const persistence::dav_resource& other) {
    const auto href =
        element(ns_dav, "href", xml_escape(item_href(c.account.tenant, c.account.user, info.kind, other.name)));
    return error_response(403, info.address_book ? ns_carddav : ns_caldav, "no-uid-conflict", href);
}

// 507 Insufficient Storage for a write beyond a tenant limit; `limit` names it in the front end's log line.
dav_response insufficient_storage(dav_response refusal, const char* limit) {
    refusal.refused_by = limit;
    return refusal;
}

// Whether the write fits the user's byte quota (persistence/sync/storage_quota.hpp); asked after the collection's
// lock, so that it counts every earlier write of the collection.
bool quota_allows(const request_context& c, const persistence::dav_collection& state, const incoming_item& incoming,
                  const std::optional<persistence::dav_resource>& current) {
    const persistence::item_growth growth{.before = current ? static_cast<std::int64_t>(current->content.size()) : 0,
                                          .after = static_cast<std::int64_t>(incoming.canonical.size())};
    if (!persistence::quota_applies(c.account.max_user_bytes, growth)) return true;
    return persistence::quota_allows(c.account.max_user_bytes, c.store.user_stored_bytes(state), growth);
}

// Replaces the current item or creates one, within the tenant's item limit and the user's byte quota.
dav_response store_item(const request_context& c, const collection_info& info, const persistence::dav_collection& state,
                        const incoming_item& incoming, const std::optional<persistence::dav_resource>& current) {
    // RFC 4331: a write the user's quota cannot take fails the precondition DAV:quota-not-exceeded, with 507.
    if (!quota_allows(c, state, incoming, current))
        return insufficient_storage(error_response(507, ns_dav, "quota-not-exceeded"), "user_bytes");
    dav_response r;
    r.outcome = "write";
    // RFC 4791 5.3.4, RFC 6352 6.3.2.3: no strong ETag for a body not stored octet for octet (converted, or given a
    // UID): the client must GET what the server holds instead of taking its own copy for it.
    const auto stored_as_sent = [&](const std::string& guid) {
        return client_body(info, incoming.canonical, guid) == c.request.body;
    };
    if (current) {
        auto modseq = c.store.replace(state, *current, incoming.canonical, incoming.keys);
        r.status = 204;
        if (stored_as_sent(current->guid)) r.headers.emplace_back("ETag", etag_of(modseq));
        return r;
    }
    if (c.store.live_count(state) >= c.account.max_items)
        return insufficient_storage(text_response(507, "the collection holds as many items as the tenant allows\n"),
                                    "items_per_datastore");
    auto created = c.store.create(state, c.path.name, incoming.canonical, incoming.keys);
    r.status = 201;
    if (stored_as_sent(created.guid)) r.headers.emplace_back("ETag", etag_of(created.modseq));
    return r;
}

dav_response put(const request_context& c) {
    if (c.path.kind != resource_kind::item) {
        auto r = text_response(405, "PUT creates or replaces items only\n");
        r.headers.emplace_back("Allow", allowed_methods(c.path));
        return r;
    }
    const auto* info = c.info;
    if (c.request.body.size() > c.account.max_object_bytes)
        return text_response(413, "the item is larger than the tenant allows\n");
    auto incoming = read_client_body(*info, c.request.body);
    if (!incoming.error.empty()) return invalid_item(incoming);
    const auto& state = *c.state;
    auto current = find_item(c, state, true);
    if (auto refused = preconditions_fail(c.request, current)) return *refused;
    // From here on no other create of this collection commits before this request does: the UID check and the item
    // limit see every item that can compete.
    c.store.lock_collection(state);
    if (auto other = uid_holder(c, state, incoming, current)) return uid_conflict(c, *info, *other);
    return store_item(c, *info, state, incoming, current);
}

dav_response remove(const request_context& c) {
    if (c.path.kind == resource_kind::collection) {
        // A collection's entity tag is its ctag: If-Match names the version a client last saw of its items.
        persistence::dav_resource as_seen;
        as_seen.modseq = c.state->modseq;
        if (auto refused = preconditions_fail(c.request, as_seen)) return *refused;
    }
    if (c.path.kind != resource_kind::item) return delete_collection(c);
    const auto& state = *c.state;
    auto current = find_item(c, state, true);
    if (!current) return text_response(404, "no such item\n");
    if (auto refused = preconditions_fail(c.request, current)) return *refused;
    c.store.remove(state, *current);
    dav_response r;
    r.status = 204;
    r.outcome = "delete";
    return r;
}

}  // namespace

std::string etag_of(std::int64_t modseq) { return "\"" + std::to_string(modseq) + "\""; }

bool known_method(std::string_view method) {
    for (std::string_view known : k_known_methods) {
        if (method == known) return true;
    }
    return false;
}

dav_response options_response(std::string_view path) {
    dav_response r;
    r.headers.emplace_back("DAV", "1, 3, addressbook, calendar-access, extended-mkcol");
    auto parsed = parse_dav_path(path);
    r.headers.emplace_back("Allow", parsed ? allowed_methods(*parsed) : std::string(k_allowed_methods));
    return r;
}

namespace {

// The collection a collection or item path names: a kind's name is its default collection (created when missing),
// any other name a collection the user made.
struct found_collection {
    collection_info info;
    persistence::dav_collection state;
};

std::optional<found_collection> find_named(const request_context& c) {
    const auto& segment = c.path.collection;
    if (const auto* kind = find_collection(segment)) {
        auto state =
            c.store.collection(c.account.tenant_id, c.account.user_id, kind->datastore, std::string(kind->suffix));
        return found_collection{info_of(state), std::move(state)};
    }
    for (auto& state : c.store.collections(c.account.tenant_id, c.account.user_id)) {
        if (state.name != segment) continue;
        auto info = info_of(state);
        state.suffix = std::string(info.suffix);
        return found_collection{std::move(info), std::move(state)};
    }
    return std::nullopt;
}

dav_response dispatch(const request_context& c) {
    const auto& m = c.request.method;
    if (m == "PROPFIND") return propfind(c);
    if (m == "REPORT") return report(c);
    if (m == "GET" || m == "HEAD") return get(c);
    if (m == "PUT") return put(c);
    if (m == "DELETE") return remove(c);
    if (m == "PROPPATCH") return proppatch(c);
    if (m == "MKCOL" || m == "MKCALENDAR") return make_collection(c);
    auto r = text_response(405, "method not allowed\n");
    r.headers.emplace_back("Allow", allowed_methods(c.path));
    return r;
}

}  // namespace

dav_response handle_dav(const dav_request& request, const dav_account& account, persistence::dav_store& store) {
    const auto& m = request.method;
    auto path = parse_dav_path(request.path);
    if (!path || path->tenant != account.tenant) return text_response(404, "no such resource\n");
    if (path->kind != resource_kind::root && path->user != account.user)
        return text_response(403, "another user's data\n");
    request_context c{request, account, store, *path};
    if (m == "OPTIONS") return options_response(request.path);
    if (path->kind != resource_kind::collection && path->kind != resource_kind::item) return dispatch(c);
    auto found = find_named(c);
    if (found) {
        c.info = &found->info;
        c.state = &found->state;
    } else if (m == "PUT") {
        return text_response(409, "no such collection: create it first (MKCALENDAR, MKCOL)\n");
    } else if (m != "MKCOL" && m != "MKCALENDAR") {
        return text_response(404, "no such collection\n");
    }
    return dispatch(c);
}

}  // namespace syncml::dav
