#include "session/engine/engine_filter.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <set>
#include <utility>
#include <vector>

#include "common/log/log_event.hpp"
#include "matching/convert/item_convert.hpp"
#include "matching/filter/filter_codec.hpp"
#include "matching/filter/filter_fields.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

void log_refusal(const run& r, const std::string& datastore, int code, const std::string& reason) {
    common::log_event(spdlog::level::info, "sync: datastore filter refused",
                      {{"datastore", datastore},
                       {"status", code},
                       {"reason", reason},
                       {"device", r.in.header.source.loc_uri},
                       {"session", r.in.header.session_id}});
}

bool has_record_condition(const matching::item_filter& filter) {
    return !filter.record.where.empty() || !filter.record.windows.empty() || filter.record.kind;
}

// for_each_content reads at most this many items per query, and their contents while they take less than
// this many bytes (so large items are not all in memory at once).
constexpr std::size_t k_refresh_batch = 200;
constexpr std::size_t k_refresh_batch_bytes = std::size_t{8} << 20;

// An item limit beyond any datastore's size.
constexpr std::size_t k_no_limit = std::size_t{1} << 40;

constexpr std::array<std::string_view, 6> k_applied_keywords{"SINCE",    "BEFORE",  "LIMIT",
                                                             "MAXCOUNT", "MAXSIZE", "NOATT"};

// Calls `fn` with each live item of `items` as stored, read a batch at a time.
template <class Fn>
void for_each_content(run& r, const store_state& s, const std::vector<persistence::change_record>& items, Fn fn) {
    std::set<std::string> seen;  // a batch after one with unread items reads some items again
    std::size_t next = 0;
    while (next < items.size()) {
        std::vector<persistence::item_ref> refs;
        std::map<std::string, const persistence::change_record*> by_guid;
        for (auto i = next; i < items.size() && refs.size() < k_refresh_batch; ++i) {
            refs.push_back({items[i].guid, items[i].item_id});
            by_guid[items[i].guid] = &items[i];
        }
        std::set<std::string> unread;  // beyond the batch's bytes: read again by the next batch
        for (const auto& o :
             r.store.outgoing_items(r.tenant(), s.datastore_id, s.device_store_id, refs, k_refresh_batch_bytes, 0)) {
            if (!o.content_read) {
                unread.insert(o.item.guid);
            } else if (!o.item.deleted && seen.insert(o.item.guid).second) {
                fn(*by_guid.at(o.item.guid), o.item);
            }
        }
        // The first item is always read, so every batch moves on.
        std::size_t taken = 0;
        while (taken < refs.size() && !unread.count(refs[taken].guid)) ++taken;
        next += taken;
    }
}

}  // namespace

std::span<const std::string_view> applied_filter_keywords() { return k_applied_keywords; }

std::optional<store_filter> alert_filter(run& r, const alert& cmd, const item& it) {
    if (!it.target) return store_filter{};
    const auto& target = it.target->loc_uri;
    auto wanted = client_filter(target, it.target->filter ? &*it.target->filter : nullptr);
    const auto* refusal = std::get_if<filter_refusal>(&wanted);
    if (!refusal) return std::get<store_filter>(std::move(wanted));
    log_refusal(r, target, refusal->status, refusal->reason);
    auto& s = r.add_status(cmd.cmd_id, "Alert", refusal->status);
    s.target_refs = {target};
    s.source_refs = {it.source ? it.source->loc_uri : ""};
    return std::nullopt;
}

void set_store_filter(store_state& s, const store_filter& client, const persistence::device_store_record& ds) {
    auto effective = with_window(client, ds.window);
    // A collection that holds other kinds too (a calendar of events and tasks): the device syncs the items of its
    // datastore's kind only, and a refresh or slow sync touches no other.
    if (ds.other_kinds) effective.filter.record.kind = s.kind;
    s.filter = effective.filter == matching::item_filter{} ? std::string{} : matching::encode_filter(effective.filter);
    // Under a limit, items left out for want of room go out once the device has room again.
    s.rescan =
        has_record_condition(effective.filter) || effective.filter.record.max_items || s.filter != ds.sync_filter;
}

filter_check::filter_check(std::int64_t now_ms)
    : now_(std::chrono::system_clock::time_point{std::chrono::milliseconds{now_ms}}) {}

const matching::item_filter* filter_check::filter_of(const store_state& s) {
    if (s.filter.empty()) return nullptr;
    auto found = decoded_.find(s.filter);
    if (found == decoded_.end()) {
        auto decoded = matching::decode_filter(s.filter);
        found = decoded_.emplace(s.filter, decoded ? std::optional(std::move(*decoded)) : std::nullopt).first;
    }
    // A stored filter this version cannot read lets everything through rather than hide items.
    return found->second ? &*found->second : nullptr;
}

bool filter_check::inside(const store_state& s, const std::string& canonical_content) {
    const auto* filter = filter_of(s);
    if (!filter) return true;
    auto parsed = matching::parse_canonical(canonical_content);
    if (!parsed) return true;
    return matching::matches(filter->record, *parsed, now_);
}

std::string filter_check::sendable(const store_state& s, const std::string& canonical_content) {
    const auto* filter = filter_of(s);
    if (!filter || filter->fields.empty()) return canonical_content;
    auto parsed = matching::parse_canonical(canonical_content);
    if (!parsed || matching::apply_field_filter(filter->fields, *parsed).empty()) return canonical_content;
    return matching::write_canonical(*parsed, canonical_content).value_or(canonical_content);
}

std::vector<std::string> filter_check::withheld(const store_state& s, const matching::item& stored) {
    const auto* filter = filter_of(s);
    if (!filter || filter->fields.empty()) return {};
    auto copy = stored;
    return matching::apply_field_filter(filter->fields, copy);
}

bool filter_check::exclusive(const store_state& s) {
    const auto* filter = filter_of(s);
    return filter && has_record_condition(*filter) && filter->record.semantics == matching::filter_semantics::exclusive;
}

std::optional<std::size_t> filter_check::limit(const store_state& s) {
    const auto* filter = filter_of(s);
    return filter ? filter->record.max_items : std::nullopt;
}

std::int64_t delete_unheld_inside(run& r, const store_state& s, std::int64_t upto) {
    filter_check check(r.ctx.now_ms);
    // Under a limit the device may not have received an item inside the filter: only what it held (a mapping the
    // refresh unconfirmed) and did not send is gone.
    const bool limited = check.limit(s).has_value();
    std::int64_t deleted = 0;
    for_each_content(r, s, r.store.changes(r.tenant(), s.device_store_id, 0, upto, false),
                     [&](const persistence::change_record& change, const persistence::item_record& stored) {
                         if (limited && !change.mapped) return;
                         if (!check.inside(s, stored.content)) return;
                         if (r.store.delete_item(r.tenant(), s.datastore_id, stored.guid)) ++deleted;
                         r.store.remove_mapping(r.tenant(), s.device_store_id, stored.guid);
                     });
    return deleted;
}

void drop_unconfirmed_mappings(run& r, const store_state& s) {
    const auto upto = r.store.current_modseq(r.tenant(), s.datastore_id);
    for (const auto& change : r.store.changes(r.tenant(), s.device_store_id, 0, upto, true)) {
        if (change.mapped && !change.luid) r.store.remove_mapping(r.tenant(), s.device_store_id, change.guid);
    }
}

void plan_filtered_package(run& r, store_state& s) {
    s.out.limit_room.reset();
    filter_check check(r.ctx.now_ms);
    const bool exclusive = check.exclusive(s);
    const auto limit = check.limit(s);
    if (!exclusive && !limit) return;
    auto held = r.store.held_items(r.tenant(), s.device_store_id);
    // s.out.removals may already list items: copies of deleted items a slow sync found on the device
    // (engine_match.cpp), and what a resumed session had not sent yet.
    std::set<std::string> leaving;
    for (const auto& removal : s.out.removals) leaving.insert(removal.guid);
    if (exclusive) {
        for_each_content(r, s, held, [&](const persistence::change_record& h, const persistence::item_record& stored) {
            if (check.inside(s, stored.content) || !leaving.insert(h.guid).second) return;
            s.out.removals.push_back({h.guid, h.modseq, true, h.luid.value_or(""), h.item_id});
        });
    }
    if (limit) {
        auto keeps = std::count_if(held.begin(), held.end(), [&](const auto& h) { return !leaving.contains(h.guid); });
        const auto most = static_cast<std::int64_t>(std::min<std::size_t>(*limit, k_no_limit));
        s.out.limit_room = std::max<std::int64_t>(0, most - keeps);
    }
}

}  // namespace syncml::session::detail
