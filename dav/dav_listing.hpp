#pragma once
// Listings of a collection's items (PROPFIND Depth 1, the query reports, sync-collection) that never hold the
// collection: pages of resources without content, and their contents read a batch at a time
// (dav_account::listing). A listing holds one page, one batch of contents and its response.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dav/dav_context.hpp"

namespace syncml::dav::detail {

// Takes one resource of a listing, with its content when the listing reads contents; false stops the listing (its
// response is full).
using resource_visitor = std::function<bool(const persistence::dav_resource&)>;

// How a listing ended: every resource visited; at the caller's limit with more to come; stopped by the visitor.
enum class listing_end { complete, at_limit, stopped };

struct listing_scope {
    const request_context& c;
    const persistence::dav_collection& state;
    bool with_content = false;
    std::optional<std::size_t> limit{};  // resources visited at most
};

// The live items after item id `after`, by item id. An item deleted while the listing runs may be left out: its
// tombstone comes with the changes after the listing.
listing_end list_live(const listing_scope& s, std::int64_t after, const resource_visitor& visit);

// The changes after modseq `after`, by modseq, tombstones (never with content) included; a live item deleted while
// the listing runs may be left out, as above. The limit never splits the changes of one modseq, so that a sync
// token of the last one visited misses nothing: nullopt when the changes of the first modseq alone are more than
// the limit (RFC 6578 3.7).
std::optional<listing_end> list_changes(const listing_scope& s, std::int64_t after, const resource_visitor& visit);

// The live resources of these names (a multiget's), a page of names at a time, with their contents in batches as
// above when the scope asks for them; complete or stopped (the scope's limit is not used).
listing_end list_named(const listing_scope& s, const std::vector<std::string>& names, const resource_visitor& visit);

}  // namespace syncml::dav::detail
