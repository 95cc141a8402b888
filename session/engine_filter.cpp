#include "session/engine_filter.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <set>
#include <utility>
#include <vector>

#include "matching/filter_codec.hpp"
#include "matching/filter_fields.hpp"
#include "persistence/log_event.hpp"
#include "session/item_convert.hpp"
#include "session/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

void log_refusal(const run& r, const std::string& datastore, int code, const std::string& reason) {
    persistence::log_event(spdlog::level::info, "sync: datastore filter refused",
                           {{"datastore", datastore},
                            {"status", code},
                            {"reason", reason},
                            {"device", r.in.header.source.loc_uri},
                            {"session", r.in.header.session_id}});
}

// Why the engine cannot honour this filter yet (empty: it can).
std::string not_applied(const matching::item_filter& filter) {
    if (filter.record.max_items) return "item limits are not supported yet";
    return {};
}

// The parts of a window the engine applies: the date range and the photo size.
persistence::sync_window applied_part(const persistence::sync_window& window) {
    return {window.past_days, window.future_days, 0, window.max_photo_bytes};
}

bool has_record_condition(const matching::item_filter& filter) {
    return !filter.record.where.empty() || !filter.record.windows.empty();
}

// for_each_content reads at most this many items per query, and their contents while they take less than
// this many bytes (so large items are not all in memory at once).
constexpr std::size_t k_refresh_batch = 200;
constexpr std::size_t k_refresh_batch_bytes = std::size_t{8} << 20;

// LIMIT and MAXCOUNT (item limits) are refused.
constexpr std::array<std::string_view, 4> k_applied_keywords{"SINCE", "BEFORE", "MAXSIZE", "NOATT"};

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
    int code = 0;
    std::string reason;
    if (const auto* refusal = std::get_if<filter_refusal>(&wanted)) {
        code = refusal->status;
        reason = refusal->reason;
    } else if (auto why = not_applied(std::get<store_filter>(wanted).filter); !why.empty()) {
        code = status_codes::optional_feature_not_supported;
        reason = std::move(why);
    }
    if (code == 0) return std::get<store_filter>(std::move(wanted));
    log_refusal(r, target, code, reason);
    auto& s = r.add_status(cmd.cmd_id, "Alert", code);
    s.target_refs = {target};
    s.source_refs = {it.source ? it.source->loc_uri : ""};
    return std::nullopt;
}

void set_store_filter(store_state& s, const store_filter& client, const persistence::device_store_record& ds) {
    auto effective = with_window(client, applied_part(ds.window));
    s.filter = effective.filter == matching::item_filter{} ? std::string{} : matching::encode_filter(effective.filter);
    s.rescan = has_record_condition(effective.filter) || s.filter != ds.sync_filter;
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
    auto parsed = parse_canonical(canonical_content);
    if (!parsed) return true;
    return matching::matches(filter->record, *parsed, now_);
}

std::string filter_check::sendable(const store_state& s, const std::string& canonical_content) {
    const auto* filter = filter_of(s);
    if (!filter || filter->fields.empty()) return canonical_content;
    auto parsed = parse_canonical(canonical_content);
    if (!parsed || matching::apply_field_filter(filter->fields, *parsed).empty()) return canonical_content;
    return write_canonical(*parsed, canonical_content).value_or(canonical_content);
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

std::int64_t delete_unheld_inside(run& r, const store_state& s) {
    const auto upto = r.store.current_modseq(r.tenant(), s.datastore_id);
    filter_check check(r.ctx.now_ms);
    std::int64_t deleted = 0;
    for_each_content(r, s, r.store.changes(r.tenant(), s.device_store_id, 0, upto, false),
                     [&](const persistence::change_record&, const persistence::item_record& stored) {
                         if (!check.inside(s, stored.content)) return;
                         if (r.store.delete_item(r.tenant(), s.datastore_id, stored.guid)) ++deleted;
                         r.store.remove_mapping(r.tenant(), s.device_store_id, stored.guid);
                     });
    return deleted;
}

void plan_removals(run& r, store_state& s) {
    s.removals.clear();
    filter_check check(r.ctx.now_ms);
    if (!check.exclusive(s)) return;
    for_each_content(r, s, r.store.held_items(r.tenant(), s.device_store_id),
                     [&](const persistence::change_record& held, const persistence::item_record& stored) {
                         if (check.inside(s, stored.content)) return;
                         s.removals.push_back({held.guid, held.modseq, true, held.luid.value_or(""), held.item_id});
                     });
}

}  // namespace syncml::session::detail
