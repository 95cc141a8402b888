// Slow sync and refresh from client: pairing the client's items with stored twins, and what a device that lost its
// last session's end still holds (see item_applier::apply).

#include "session/engine/engine_match.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

#include "common/log/log_event.hpp"
#include "matching/convert/item_convert.hpp"
#include "matching/match/match_score.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

using matching::conflict_policy;

// index_keys always holds the content key.
std::string content_key_of(const std::vector<std::string>& keys) {
    for (const auto& key : keys) {
        if (key.starts_with("content:")) return key;
    }
    return {};
}

persistence::item_record record_of(const persistence::twin_candidate& c) {
    return {c.guid, c.content, c.modseq, false, c.item_id};
}

}  // namespace

bool item_applier::only_own_items() {
    if (s_.start_contents == datastore_start::was_not_empty) return false;
    auto modseq = r_.store.current_modseq(r_.tenant(), s_.datastore_id);
    if (s_.start_contents == datastore_start::not_checked)
        s_.start_contents = modseq == 0 ? datastore_start::was_empty : datastore_start::was_not_empty;
    // Another device's change since (or a Delete of this one's) takes a modseq this session did not count.
    return s_.start_contents == datastore_start::was_empty && modseq == s_.own_modseqs;
}

void item_applier::apply_slow(std::vector<incoming_item>& batch) {
    std::vector<std::optional<matching::item>> parsed;
    parsed.reserve(batch.size());
    std::vector<std::string> luids;
    for (auto& in : batch) {
        parsed.push_back(matching::parse_canonical(in.content));
        in.keys = matching::index_keys(in.content, parsed.back() ? &*parsed.back() : nullptr);
        luids.push_back(in.luid);
    }
    std::map<std::string, persistence::luid_mapping> mapped;
    for (auto& m : r_.store.mappings_of_luids(r_.tenant(), s_.device_store_id, luids)) mapped[m.luid] = std::move(m);
    auto pairs = pair_batch(batch, parsed, mapped);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        auto& in = batch[i];
        const matching::item* item = parsed[i] ? &*parsed[i] : nullptr;
        auto m = mapped.find(in.luid);
        const persistence::luid_mapping* mapping = m == mapped.end() ? nullptr : &m->second;
        if (!pairs[i]) {
            if (mapping && deleted_since_last_sync(*mapping, item)) {
                leave_deleted(in, *mapping);
            } else {
                add_new(in, item);
            }
            continue;
        }
        const auto& p = *pairs[i];
        if (p.identical || !item || !p.stored_item) {
            queue_write(in, &p.stored, std::nullopt, {}, false);
            set_status(in, status_codes::ok);
            continue;
        }
        auto chosen = changed_since_last_sync(p) ? conflict_policy::server_wins : policy();
        auto result = matching::merge(*p.stored_item, *item, caps_for(in.mime, *p.stored_item), chosen,
                                      matching::merge_mode::slow_sync);
        if (store_merged(in, p.stored, result, item) && !result.keep_both) set_status(in, status_codes::ok);
    }
}

// After a session that did not complete (a device that rolled it back, a client that slow-syncs after any failure),
// the device's copy of an item may predate what the server did since the device's last completed sync (as its Last
// anchor tells: see last_seen_by_device). That holds only for items the device held before this slow sync (it has a
// mapping of them, unconfirmed now), and only in a sync where the server sends its items: a refresh from the client
// makes the device's data the server's, whatever it was.
bool item_applier::recovering(std::int64_t modseq) const {
    return s_.last_seen_modseq > 0 && modseq > *s_.last_seen_modseq && sync_mode::granted(s_.mode).server_sends();
}

// The device sends its copy of an item it held, changed on the server since it last saw it: the server's is newer,
// unless the device changed it too, which a slow sync cannot tell. The server's copy wins; the device gets it back.
// A change the device itself sent (the server's copy is at the modseq of its last write from the device) is no news to
// it: whatever it holds now is as new or newer, and the tenant's policy applies as in any slow sync.
bool item_applier::changed_since_last_sync(const paired& p) {
    if (!p.held_before || !recovering(p.stored.modseq) || p.stored.modseq <= p.sent_by_device) return false;
    const auto& stored = p.stored;
    common::log_event(spdlog::level::debug, "merge",
                      {{"device", r_.in.header.source.loc_uri},
                       {"guid", stored.guid},
                       {"decision", "slow sync: the server's copy changed since the device's last sync wins"}});
    return true;
}

// The device sends its copy of an item deleted on the server since it last saw it (the Delete never reached it, or
// the device rolled back the session it came in): it goes from the device, unless the copy holds something the
// deleted item did not (an edit made on the device), which then comes back as a new item, as a Replace of a deleted
// item does in a two-way sync.
bool item_applier::deleted_since_last_sync(const persistence::luid_mapping& m, const matching::item* incoming) {
    if (m.revision >= 0 || !m.item_deleted || !recovering(m.item_modseq) || !incoming) return false;
    auto tombstone = r_.store.find_item(r_.tenant(), s_.datastore_id, m.guid);
    if (!tombstone || !tombstone->deleted) return false;
    auto last = matching::parse_canonical(tombstone->content);
    if (!last) return false;
    auto result = matching::merge(*last, *incoming, caps(""), conflict_policy::merge, matching::merge_mode::slow_sync);
    return !result.stored_changed && !result.keep_both;
}

// Package 4 deletes the device's copy (engine_out.cpp: a removal); the server keeps its tombstone.
void item_applier::leave_deleted(const incoming_item& in, const persistence::luid_mapping& m) {
    set_status(in, status_codes::ok);
    bool queued =
        std::any_of(s_.out.removals.begin(), s_.out.removals.end(), [&](const auto& c) { return c.guid == m.guid; });
    if (!queued) s_.out.removals.push_back({m.guid, m.item_modseq, true, in.luid, m.item_id});
    common::log_event(spdlog::level::debug, "merge",
                      {{"device", r_.in.header.source.loc_uri},
                       {"guid", m.guid},
                       {"decision", "slow sync: deleted on the server since the device's last sync"}});
}

// Items the device already sent in this slow sync (before an interruption it resumes from) update
// their item instead of looking for a twin: the device holds them confirmed.
std::vector<std::optional<item_applier::paired>> item_applier::held_pairs(
    const std::vector<incoming_item>& batch, const std::map<std::string, persistence::luid_mapping>& mapped) {
    std::vector<std::optional<paired>> out(batch.size());
    std::map<std::string, std::string> guid_of;
    for (const auto& [luid, mapping] : mapped) {
        if (mapping.revision >= 0 && !mapping.item_deleted) guid_of[luid] = mapping.guid;
    }
    for (std::size_t i = 0; i < batch.size() && !guid_of.empty(); ++i) {
        auto found = guid_of.find(batch[i].luid);
        if (found == guid_of.end()) continue;
        auto stored = r_.store.find_item(r_.tenant(), s_.datastore_id, found->second);
        if (!stored || stored->deleted) continue;
        bool identical = matching::comparable_form(stored->content) == matching::comparable_form(batch[i].content);
        out[i] = paired{*stored, identical ? std::nullopt : matching::parse_canonical(stored->content), identical};
    }
    return out;
}

// The stored items one message's keys found, indexed by key.
struct candidate_set {
    std::vector<persistence::twin_candidate> items;
    std::map<std::string, std::vector<std::size_t>> by_key;
    std::vector<bool> used;

    explicit candidate_set(std::vector<persistence::twin_candidate> found) : items(std::move(found)) {
        for (std::size_t c = 0; c < items.size(); ++c) {
            for (const auto& k : items[c].keys) by_key[k].push_back(c);
        }
        used.assign(items.size(), false);
    }
    const std::vector<std::size_t>* with_key(const std::string& key) const {
        auto found = by_key.find(key);
        return found == by_key.end() ? nullptr : &found->second;
    }
};

std::vector<std::optional<item_applier::paired>> item_applier::pair_batch(
    const std::vector<incoming_item>& batch, const std::vector<std::optional<matching::item>>& parsed,
    const std::map<std::string, persistence::luid_mapping>& mapped) {
    auto out = held_pairs(batch, mapped);
    std::vector<std::vector<std::string>> keys(batch.size());
    std::vector<std::string> all;
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (out[i]) continue;
        keys[i] = batch[i].keys;
        all.insert(all.end(), keys[i].begin(), keys[i].end());
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    candidate_set found(only_own_items()
                            ? std::vector<persistence::twin_candidate>{}
                            : r_.store.twin_candidates(r_.tenant(), s_.datastore_id, s_.device_store_id, all));
    // Byte-identical resends pair first and need no scoring (they may have no name, phone or UID).
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const auto* same = out[i] ? nullptr : found.with_key(content_key_of(batch[i].keys));
        if (!same) continue;
        for (auto c : *same) {
            if (found.used[c]) continue;
            found.used[c] = true;
            out[i] = paired{record_of(found.items[c]), std::nullopt, true, found.items[c].mapped,
                            found.items[c].sent_by_device};
            break;
        }
    }
    pair_scored(found, keys, parsed, out);
    return out;
}

// The rest pair by twin score, each stored item with one incoming item at most.
void item_applier::pair_scored(candidate_set& found, const std::vector<std::vector<std::string>>& keys,
                               const std::vector<std::optional<matching::item>>& parsed,
                               std::vector<std::optional<paired>>& out) {
    std::vector<matching::item> stored;
    std::vector<std::size_t> stored_at;
    std::vector<std::optional<std::size_t>> position(found.items.size());
    for (std::size_t c = 0; c < found.items.size(); ++c) {
        auto p = found.used[c] ? std::nullopt : matching::parse_canonical(found.items[c].content);
        if (!p) continue;
        position[c] = stored.size();
        stored.push_back(std::move(*p));
        stored_at.push_back(c);
    }
    std::vector<matching::item> incoming;
    std::vector<std::size_t> incoming_at;
    std::vector<std::vector<std::size_t>> lists;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] || !parsed[i]) continue;
        std::vector<std::size_t> list;
        for (const auto& k : keys[i]) {
            const auto* with = found.with_key(k);
            for (std::size_t n = 0; with && n < with->size(); ++n) {
                if (position[(*with)[n]]) list.push_back(*position[(*with)[n]]);
            }
        }
        if (list.empty()) continue;
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
        incoming.push_back(*parsed[i]);
        incoming_at.push_back(i);
        lists.push_back(std::move(list));
    }
    for (const auto& pair : matching::assign_twins(incoming, stored, lists)) {
        const auto& twin = found.items[stored_at[pair.stored]];
        out[incoming_at[pair.incoming]] =
            paired{record_of(twin), std::move(stored[pair.stored]), false, twin.mapped, twin.sent_by_device};
    }
}

}  // namespace syncml::session::detail
