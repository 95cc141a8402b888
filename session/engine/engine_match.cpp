#include "session/engine/engine_match.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

#include "common/log/log_event.hpp"
#include "matching/convert/item_convert.hpp"
#include "session/engine/device_caps.hpp"
#include "session/engine/engine_conflict.hpp"
#include "session/engine/engine_filter.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/engine/engine_quota.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

using matching::conflict_policy;

bool same_written_form(const std::string& merged, const std::string& stored_content) {
    auto stored = matching::parse_canonical(stored_content);
    if (!stored) return false;
    auto rewritten = matching::write_canonical(*stored, stored_content);
    return rewritten && matching::comparable_form(*rewritten) == matching::comparable_form(merged);
}

}  // namespace

const matching::device_capabilities& item_applier::caps(const std::string& mime) {
    if (!caps_) caps_ = capabilities_of_stored(r_.device.devinf);
    return caps_->for_content_type(mime.empty() ? s_.device_mime : mime);
}

matching::device_capabilities item_applier::caps_for(const std::string& mime, const matching::item& stored) {
    auto out = caps(mime);
    if (s_.filter.empty()) return out;
    if (!filter_) filter_.emplace(r_.ctx.now_ms);  // decodes the store's filter once per message
    for (auto& name : filter_->withheld(s_, stored)) out.withheld.insert(std::move(name));
    return out;
}

conflict_policy item_applier::policy() {
    if (!policy_) policy_ = r_.store.conflict_policy(r_.tenant());
    return *policy_;
}

void item_applier::set_status(const incoming_item& in, int code) {
    r_.statuses.at(in.status_index).data = std::to_string(code);
}

void item_applier::apply(std::vector<incoming_item>& batch) {
    if (sync_mode::granted(s_.mode).client_sends_all_items()) {
        if (!batch.empty()) apply_slow(batch);
        flush();
    } else {
        // Each item reads what the ones before it wrote (a Replace after an Add of the same LUID).
        for (auto& in : batch) {
            apply_one(in);
            flush();
        }
    }
    batch.clear();
}

void item_applier::flush() {
    if (writes_.empty()) return;
    r_.store.write_items(r_.tenant(), s_.datastore_id, s_.device_store_id, writes_);
    // Every write with content takes one modseq.
    if (s_.start_contents == datastore_start::was_empty) {
        s_.own_modseqs +=
            std::count_if(writes_.begin(), writes_.end(), [](const auto& w) { return w.content.has_value(); });
    }
    writes_.clear();
}

void item_applier::apply_one(incoming_item& in) {
    auto parsed = matching::parse_canonical(in.content);
    const matching::item* item = parsed ? &*parsed : nullptr;
    auto mapping = r_.store.mapping_of_luid(r_.tenant(), s_.device_store_id, in.luid);
    std::optional<persistence::item_record> existing;
    std::optional<std::int64_t> revision;
    if (mapping) {
        existing = r_.store.find_item(r_.tenant(), s_.datastore_id, mapping->guid);
        revision = mapping->revision;
    }
    if ((!existing || existing->deleted) && !in.target.empty()) {
        existing = r_.store.find_item(r_.tenant(), s_.datastore_id, in.target);
        revision.reset();
    }
    if (!existing || existing->deleted) {
        add_new(in, item);
        return;
    }
    update(in, *existing, revision, item);
}

void item_applier::update(incoming_item& in, const persistence::item_record& existing,
                          std::optional<std::int64_t> revision, const matching::item* item) {
    // Changed on the server since the device last sent or received it: both sides changed it.
    bool conflict = revision && *revision >= 0 && existing.modseq > *revision;
    if (matching::comparable_form(existing.content) == matching::comparable_form(in.content)) {
        queue_write(in, &existing, std::nullopt, {}, false);
        set_status(in, status_codes::ok);
        return;
    }
    auto stored = matching::parse_canonical(existing.content);
    // Without a conflict the device's copy is authoritative for what it can store. In a conflict both
    // sides changed the item since the device last saw it: nothing is cleared for being absent.
    auto p = conflict ? policy() : conflict_policy::client_wins;
    auto mode = conflict ? matching::merge_mode::slow_sync : matching::merge_mode::update;
    matching::merge_result result;
    if (stored && item) {
        result = matching::merge(*stored, *item, caps_for(in.mime, *stored), p, mode);
    } else {
        // Content the item codecs cannot read is replaced whole, unless the server's copy wins.
        bool server = p == conflict_policy::server_wins || p == conflict_policy::merge;
        result.stored_changed = !server && p != conflict_policy::duplicate;
        result.device_needs_update = server;
        result.keep_both = p == conflict_policy::duplicate;
    }
    const bool queued = !stored || !item ? write_whole(in, existing, result) : store_merged(in, existing, result, item);
    if (!queued) return;  // refused by the user's quota, with its status
    if (!conflict) {
        set_status(in, status_codes::ok);
        return;
    }
    auto resolution = resolution_of(p, result);
    report_conflict(existing.guid, resolution);
    set_status(in, conflict_status(resolution));
}

bool item_applier::write_whole(incoming_item& in, const persistence::item_record& existing,
                               const matching::merge_result& result) {
    if (result.keep_both) return add_new(in, nullptr);
    if (result.stored_changed) {
        return queue_write(in, &existing, in.content, matching::index_keys(in.content, nullptr),
                           result.device_needs_update);
    }
    return queue_write(in, &existing, std::nullopt, {}, result.device_needs_update);
}

bool item_applier::store_merged(incoming_item& in, const persistence::item_record& stored,
                                const matching::merge_result& result, const matching::item* item) {
    for (const auto& decision : result.decisions) {
        common::log_event(spdlog::level::debug, "merge",
                          {{"device", r_.in.header.source.loc_uri}, {"guid", stored.guid}, {"decision", decision}});
    }
    // The stored copy stays and reaches the device as a new item once the LUID maps to the new one.
    if (result.keep_both) return add_new(in, item);
    auto content = result.stored_changed ? matching::write_canonical(result.merged, stored.content) : std::nullopt;
    // The item model can differ where the written item does not (property order, empty values): only a
    // different written form is a change other devices must receive.
    if (content && same_written_form(*content, stored.content)) content.reset();
    auto keys = content ? matching::index_keys(*content, &result.merged) : std::vector<std::string>{};
    return queue_write(in, &stored, std::move(content), std::move(keys), result.device_needs_update);
}

// A mapping revision below the item's modseq makes package 4 send the item back as a Replace. A refresh
// from the client sends nothing back: there the device's copy is simply taken as held.
bool item_applier::queue_write(const incoming_item& in, const persistence::item_record* stored,
                               std::optional<std::string> content, std::vector<std::string> keys, bool resend) {
    if (content) {
        const persistence::item_growth growth{.before = stored ? static_cast<std::int64_t>(stored->content.size()) : 0,
                                              .after = static_cast<std::int64_t>(content->size())};
        if (!take_user_bytes(r_, s_, growth)) {
            // Nothing of it is stored and the device keeps its copy: the item stays as the server had it.
            set_status(in, status_codes::device_full);
            return false;
        }
    }
    const bool send_back = resend && sync_mode::granted(s_.mode) != sync_modes::refresh_from_client;
    persistence::item_write w{{}, std::move(content), std::move(keys), in.luid, 0, send_back, 0};
    if (stored) {
        w.guid = stored->guid;
        w.modseq = stored->modseq;
        w.item_id = stored->item_id;
    }
    writes_.push_back(std::move(w));
    return true;
}

bool item_applier::add_new(incoming_item& in, const matching::item* item) {
    auto unflushed = std::count_if(writes_.begin(), writes_.end(), [](const auto& w) { return w.guid.empty(); });
    // The tenant's item limit, then the user's byte quota (queue_write).
    if (!take_item_slot(r_, s_, unflushed)) {
        set_status(in, status_codes::device_full);
        return false;
    }
    auto keys = in.keys.empty() ? matching::index_keys(in.content, item) : std::move(in.keys);
    if (!queue_write(in, nullptr, in.content, std::move(keys), false)) {
        give_back_item_slot(s_);
        return false;
    }
    // A Replace of an item we do not know adds it, and says so (OMA DS Representation Protocol, Replace): 201, not
    // 200, so that the client knows a new item holds its data.
    set_status(in, status_codes::item_added);
    return true;
}

int item_applier::remove(const std::string& luid, const std::string& target) {
    auto mapping = luid.empty() ? std::nullopt : r_.store.mapping_of_luid(r_.tenant(), s_.device_store_id, luid);
    std::string guid = mapping ? mapping->guid : target;
    if (guid.empty()) return status_codes::item_not_deleted;
    auto existing = r_.store.find_item(r_.tenant(), s_.datastore_id, guid);
    bool conflict =
        existing && !existing->deleted && mapping && mapping->revision >= 0 && existing->modseq > mapping->revision;
    r_.store.remove_mapping(r_.tenant(), s_.device_store_id, guid);
    if (conflict && policy() != conflict_policy::client_wins) {
        // The server's newer copy survives; without a mapping it goes back to the device as a new item.
        report_conflict(guid, conflict_resolution::server_won);
        return status_codes::conflict_server_won;
    }
    auto deleted = r_.store.delete_item(r_.tenant(), s_.datastore_id, guid);
    if (!deleted) return status_codes::item_not_deleted;
    give_back_user_bytes(r_, static_cast<std::int64_t>(deleted->content.size()));
    ++s_.counts.received_delete;
    if (!conflict) return status_codes::ok;
    report_conflict(guid, conflict_resolution::client_won);
    return status_codes::conflict_client_won;
}

void item_applier::report_conflict(const std::string& guid, conflict_resolution resolution) {
    const std::string label(common::to_string(policy()));
    const std::string outcome(to_string(resolution));
    if (r_.ctx.metrics) r_.ctx.metrics->conflict(label, outcome);
    common::log_event(spdlog::level::info, "conflict",
                      {{"user", r_.st.user_name},
                       {"device", r_.in.header.source.loc_uri},
                       {"datastore", s_.server_uri},
                       {"guid", guid},
                       {"policy", label},
                       {"resolution", outcome}});
}

}  // namespace syncml::session::detail
