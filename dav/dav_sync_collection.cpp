// REPORT sync-collection (RFC 6578): a first sync lists the live items, a sync with a token the changes since; in
// pages when the client sets a DAV:limit.
#include <charconv>
#include <map>
#include <optional>

#include "dav/dav_context.hpp"

namespace syncml::dav::detail {
namespace {

// Where a sync token of this collection stands: changes after `modseq`; for a first sync in pages
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

// The DAV:limit of a report (RFC 5323 5.17, RFC 6578 3.6): nullopt when absent; 0 when malformed.
std::optional<std::size_t> limit_of(const xml_element& body) {
    const auto* limit = body.child(ns_dav, "limit");
    if (!limit) return std::nullopt;
    const auto* n = limit->child(ns_dav, "nresults");
    if (!n) return 0;
    const auto text = n->trimmed_text();
    std::size_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return 0;
    return value;
}

// Cuts a change list ordered by modseq to at most `limit` entries without splitting changes of one modseq, so that
// a token of the last kept modseq misses nothing. Returns false when not even the first modseq fits.
bool truncate_changes(std::vector<persistence::dav_resource>& changed, std::size_t limit) {
    std::size_t cut = limit;
    while (cut > 0 && changed[cut].modseq == changed[cut - 1].modseq) --cut;
    if (cut == 0) return false;
    changed.resize(cut);
    return true;
}

// One response per resource: 404 for a deletion, else the asked properties (contents read in one go).
void describe_changes(multistatus& out, const request_context& c, const collection_info& info,
                      const persistence::dav_collection& state, const prop_request& asked,
                      const std::vector<persistence::dav_resource>& changed) {
    std::vector<std::string> live;
    for (const auto& item : changed) {
        if (!item.deleted) live.push_back(item.name);
    }
    std::map<std::string, persistence::dav_resource> contents;
    if (asked.needs_content()) {
        for (auto& item : c.store.named(state, live, false)) contents.emplace(item.name, std::move(item));
    }
    for (const auto& item : changed) {
        if (item.deleted) {
            out.add_status(item_href(c.account.tenant, c.account.user, info.kind, item.name), 404);
            continue;
        }
        auto with_content = contents.find(item.name);
        const auto& described_item = with_content != contents.end() ? with_content->second : item;
        describe(out, c, {resource_kind::item, &info, &state, &described_item}, asked);
    }
}

// What one sync-collection report describes, and at most how many resources (none: all).
struct sync_scope {
    const request_context& c;
    const collection_info& info;
    const persistence::dav_collection& state;
    const prop_request& asked;
    std::optional<std::size_t> limit;
};

// Without a token or a limit: every live item, and the collection's token.
dav_response full_listing(const sync_scope& s) {
    multistatus out;
    for (const auto& item : s.c.store.resources(s.state, s.asked.needs_content()))
        describe(out, s.c, {resource_kind::item, &s.info, &s.state, &item}, s.asked);
    out.sync_token(sync_token_of(s.state));
    return xml_response(207, out.finish());
}

// The next page of a first sync in pages, after at.listing_after, which moves past it (none after the last page).
// True when the page is cut at the limit.
bool listing_page(multistatus& out, const sync_scope& s, sync_position& at) {
    const std::size_t fetch = s.limit ? *s.limit + 1 : 0;
    // A first sync in pages: the live items by id, as they are now. What changes meanwhile after `at.modseq`
    // comes again in the changes that follow the listing, so nothing is missed whatever the janitor purges.
    auto page = s.c.store.live_after(s.state, *at.listing_after, fetch);
    const bool truncated = s.limit && page.size() > *s.limit;
    if (truncated) page.resize(*s.limit);
    describe_changes(out, s.c, s.info, s.state, s.asked, page);
    at.listing_after = truncated ? std::optional<std::int64_t>(page.back().item_id) : std::nullopt;
    return truncated;
}

// The changes after at.modseq, which moves past them. Whether they are cut at the limit; nullopt when not even the
// changes of one modseq fit in it.
std::optional<bool> changes_page(multistatus& out, const sync_scope& s, sync_position& at) {
    const std::size_t fetch = s.limit ? *s.limit + 1 : 0;
    auto changed = s.c.store.changed_since(s.state, at.modseq, fetch);
    const bool truncated = s.limit && changed.size() > *s.limit;
    if (truncated) {
        if (!truncate_changes(changed, *s.limit)) return std::nullopt;
        at.modseq = changed.back().modseq;
    } else {
        at.modseq = s.state.modseq;
    }
    describe_changes(out, s.c, s.info, s.state, s.asked, changed);
    return truncated;
}

}  // namespace

dav_response sync_collection(const request_context& c, const xml_element& body, const collection_info& info,
                             const persistence::dav_collection& state) {
    auto props = props_of(body);
    if (!props) return text_response(400, "too many properties asked for\n");
    const auto* level = body.child(ns_dav, "sync-level");
    if (level && level->trimmed_text() != "1") return error_response(403, ns_dav, "supported-sync-level");
    const auto limit = limit_of(body);
    if (limit && *limit == 0) return text_response(400, "DAV:limit needs a positive DAV:nresults\n");
    const auto* token = body.child(ns_dav, "sync-token");
    const std::string given = token ? token->trimmed_text() : std::string();
    const sync_scope scope{c, info, state, *props, limit};
    if (given.empty() && !limit) return full_listing(scope);
    sync_position at{state.modseq, 0};
    if (!given.empty()) {
        auto known = position_of(given, state);
        if (!known) return error_response(403, ns_dav, "valid-sync-token");
        at = *known;
    }
    multistatus out;
    const auto truncated =
        at.listing_after ? std::optional<bool>(listing_page(out, scope, at)) : changes_page(out, scope, at);
    if (!truncated) return error_response(507, ns_dav, "number-of-matches-within-limits");
    // RFC 6578 3.6: a truncated report says so on the collection itself; its token continues after the last entry.
    if (*truncated)
        out.add_error(collection_href(c.account.tenant, c.account.user, info.kind), 507, ns_dav,
                      "number-of-matches-within-limits");
    out.sync_token(token_at(state, at));
    return xml_response(207, out.finish());
}

}  // namespace syncml::dav::detail
