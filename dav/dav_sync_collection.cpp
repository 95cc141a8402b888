// REPORT sync-collection (RFC 6578): a first sync lists the live items, a sync with a token the changes since; both
// in parts when the client sets a DAV:limit or the response reaches its cap (RFC 6578 3.6: a 507 for the
// collection and a token that continues where the part ends).
#include <charconv>
#include <optional>

#include "dav/dav_context.hpp"
#include "dav/dav_listing.hpp"

namespace syncml::dav::detail {
namespace {

using persistence::dav_resource;

// Where a sync token of this collection stands: changes after `modseq`; for a first sync in parts
// ("<token of modseq>:<item id>"), the live items after `listing_after` are still to be listed, and then the
// changes after `modseq`. Nullopt for a token of another collection, from the future, or from before tombstones
// were purged.
struct sync_position {
    std::int64_t modseq = 0;
    std::optional<std::int64_t> listing_after;
};

std::optional<sync_position> position_of(const std::string& token, const persistence::dav_collection& state) {
    auto at_zero = state;
    at_zero.modseq = 0;
    const auto prefix = sync_token_of(at_zero);
    const auto stem = prefix.substr(0, prefix.size() - 1);  // without the "0"
    if (!token.starts_with(stem)) return std::nullopt;
    sync_position at;
    const char* last = token.data() + token.size();
    auto [end, ec] = std::from_chars(token.data() + stem.size(), last, at.modseq);
    if (ec != std::errc{} || at.modseq < 0 || at.modseq > state.modseq || at.modseq < state.purged_modseq)
        return std::nullopt;
    if (end != last) {
        std::int64_t after = -1;
        if (*end != ':') return std::nullopt;
        auto [listing_end, listing_ec] = std::from_chars(end + 1, last, after);
        if (listing_ec != std::errc{} || listing_end != last || after < 0) return std::nullopt;
        at.listing_after = after;
    }
    return at;
}

std::string token_at(const persistence::dav_collection& state, const sync_position& at) {
    auto reached = state;
    reached.modseq = at.modseq;
    auto token = sync_token_of(reached);
    if (at.listing_after) token += ":" + std::to_string(*at.listing_after);
    return token;
}

// What one sync-collection report describes.
struct sync_scope {
    const request_context& c;
    const collection_info& info;
    const persistence::dav_collection& state;
    const prop_request& asked;
    std::optional<std::size_t> limit;
    listing_scope listing() const {
        return {.c = c, .state = state, .with_content = asked.needs_content(), .limit = limit};
    }
};

// One response per resource: 404 for a deletion, else the asked properties. False when the response is full.
bool describe_change(multistatus& out, const sync_scope& s, const dav_resource& item) {
    if (item.deleted)
        return out.add_status(item_href(s.c.account.tenant, s.c.account.user, s.info.kind, item.name), 404);
    return describe(out, s.c, {resource_kind::item, &s.info, &s.state, &item}, s.asked);
}

// The next part of a first sync, after at.listing_after, which moves past the items described (none after the last
// part). A first sync lists the live items by id, as they are now: what changes meanwhile after `at.modseq` comes
// again in the changes that follow the listing, so nothing is missed whatever the janitor purges.
listing_end listing_part(multistatus& out, const sync_scope& s, sync_position& at) {
    const auto end = list_live(s.listing(), *at.listing_after, [&](const dav_resource& item) {
        if (!describe_change(out, s, item)) return false;
        at.listing_after = item.item_id;
        return true;
    });
    if (end == listing_end::complete) at.listing_after = std::nullopt;
    return end;
}

// The changes after at.modseq, which moves past those described; nullopt when not even the changes of one modseq
// fit in the client's limit.
std::optional<listing_end> changes_part(multistatus& out, const sync_scope& s, sync_position& at) {
    const auto end = list_changes(s.listing(), at.modseq, [&](const dav_resource& change) {
        if (!describe_change(out, s, change)) {
            // The response is full: the token stands before this change's modseq, so that a change sharing it (no
            // write makes one: each takes a modseq of its own) comes again rather than never.
            at.modseq = change.modseq - 1;
            return false;
        }
        at.modseq = change.modseq;
        return true;
    });
    if (end == listing_end::complete) at.modseq = s.state.modseq;
    return end;
}

}  // namespace

dav_response sync_collection(const request_context& c, const xml_element& body, const collection_info& info,
                             const persistence::dav_collection& state) {
    auto props = props_of(body);
    if (!props) return text_response(400, "too many properties asked for\n");
    const auto* level = body.child(ns_dav, "sync-level");
    if (level && level->trimmed_text() != "1") return error_response(403, ns_dav, "supported-sync-level");
    const auto limit = limit_of(body, ns_dav);
    if (limit && *limit == 0) return text_response(400, "DAV:limit needs a positive DAV:nresults\n");
    const auto* token = body.child(ns_dav, "sync-token");
    const std::string given = token ? token->trimmed_text() : std::string();
    sync_position at{state.modseq, 0};  // without a token: every live item, as of now
    if (!given.empty()) {
        auto known = position_of(given, state);
        if (!known) return error_response(403, ns_dav, "valid-sync-token");
        at = *known;
    }
    const sync_scope scope{c, info, state, *props, limit};
    multistatus out(c.account.listing.response_bytes);
    const auto end =
        at.listing_after ? std::optional<listing_end>(listing_part(out, scope, at)) : changes_part(out, scope, at);
    if (!end) return error_response(507, ns_dav, "number-of-matches-within-limits");
    // RFC 6578 3.6: a truncated report says so on the collection itself; its token continues after the last entry.
    if (*end != listing_end::complete)
        out.add_error(collection_href(c.account.tenant, c.account.user, info.kind), 507, ns_dav,
                      "number-of-matches-within-limits");
    out.sync_token(token_at(state, at));
    return xml_response(207, out.finish());
}

}  // namespace syncml::dav::detail
