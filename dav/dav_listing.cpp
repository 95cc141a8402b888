#include "dav/dav_listing.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace syncml::dav::detail {
namespace {

using persistence::dav_resource;

// Where the batch of contents that starts at `begin` ends: live resources while their stored contents stay within
// the batch's bytes, and at least one however large (max_object_bytes bounds it).
std::size_t batch_end(const std::vector<dav_resource>& page, std::size_t begin, std::size_t batch_bytes) {
    std::size_t end = begin, bytes = 0;
    bool some = false;
    for (; end < page.size(); ++end) {
        if (page[end].deleted) continue;
        if (some && bytes + page[end].content_bytes > batch_bytes) break;
        bytes += page[end].content_bytes;
        some = true;
    }
    return end;
}

// The live resources of page[begin, end) with their contents, by item id: a name that another item holds by now
// (the first deleted, its name taken) does not stand for the first.
std::map<std::int64_t, dav_resource> contents_of(const listing_scope& s, const std::vector<dav_resource>& page,
                                                 std::size_t begin, std::size_t end) {
    std::vector<std::string> names;
    for (auto i = begin; i < end; ++i) {
        if (!page[i].deleted) names.push_back(page[i].name);
    }
    std::map<std::int64_t, dav_resource> contents;
    for (auto& found : s.c.store.named(s.state, names, false)) contents.emplace(found.item_id, std::move(found));
    return contents;
}

// Visits the resources of `page` in order, with their contents when the scope asks for them; false when the visitor
// stopped. The contents of one batch are dropped before the next batch is read.
bool visit_page(const listing_scope& s, const std::vector<dav_resource>& page, const resource_visitor& visit) {
    if (!s.with_content) return std::all_of(page.begin(), page.end(), visit);
    for (std::size_t begin = 0; begin < page.size();) {
        const auto end = batch_end(page, begin, s.c.account.listing.content_batch_bytes);
        const auto contents = contents_of(s, page, begin, end);
        for (auto i = begin; i < end; ++i) {
            if (page[i].deleted) {
                if (!visit(page[i])) return false;
                continue;
            }
            const auto found = contents.find(page[i].item_id);
            if (found != contents.end() && !visit(found->second)) return false;
        }
        begin = end;
    }
    return true;
}

// How many of the first `n` changes of `page` (which holds more) end a modseq: a cut there splits none.
std::size_t whole_modseqs(const std::vector<dav_resource>& page, std::size_t n) {
    while (n > 0 && page[n].modseq == page[n - 1].modseq) --n;
    return n;
}

std::size_t page_items_of(const listing_scope& s) { return std::max<std::size_t>(s.c.account.listing.page_items, 1); }

}  // namespace

listing_end list_live(const listing_scope& s, std::int64_t after, const resource_visitor& visit) {
    const auto page_items = page_items_of(s);
    std::size_t visited = 0;
    for (;;) {
        auto want = page_items;
        if (s.limit) want = std::min(want, *s.limit - visited + 1);  // one more tells whether the limit cuts
        auto page = s.c.store.live_after(s.state, after, want);
        const bool cut = s.limit && visited + page.size() > *s.limit;
        if (cut) page.resize(*s.limit - visited);
        if (!visit_page(s, page, visit)) return listing_end::stopped;
        if (cut) return listing_end::at_limit;
        if (page.size() < want) return listing_end::complete;
        visited += page.size();
        after = page.back().item_id;
    }
}

std::optional<listing_end> list_changes(const listing_scope& s, std::int64_t after, const resource_visitor& visit) {
    auto page_items = page_items_of(s);
    std::size_t visited = 0;
    for (;;) {
        auto want = page_items;
        const bool limited = s.limit && *s.limit - visited <= want;
        if (limited) want = *s.limit - visited;
        auto page = s.c.store.changed_since(s.state, after, want + 1);
        const bool more = page.size() > want;
        if (more) {
            const auto cut = whole_modseqs(page, want);
            if (cut == 0 && limited) return visited == 0 ? std::nullopt : std::optional(listing_end::at_limit);
            if (cut == 0) {
                page_items *= 2;  // one modseq's changes fill the page (no write makes that: each takes its own)
                continue;
            }
            page.resize(cut);
        }
        if (!visit_page(s, page, visit)) return listing_end::stopped;
        if (!more) return listing_end::complete;
        if (limited) return listing_end::at_limit;
        visited += page.size();
        after = page.back().modseq;
    }
}

listing_end list_named(const listing_scope& s, const std::vector<std::string>& names, const resource_visitor& visit) {
    const auto page_items = page_items_of(s);
    for (std::size_t begin = 0; begin < names.size(); begin += page_items) {
        const std::vector<std::string> slice(
            names.begin() + static_cast<std::ptrdiff_t>(begin),
            names.begin() + static_cast<std::ptrdiff_t>(std::min(names.size(), begin + page_items)));
        if (!visit_page(s, s.c.store.named_without_content(s.state, slice), visit)) return listing_end::stopped;
    }
    return listing_end::complete;
}

}  // namespace syncml::dav::detail
