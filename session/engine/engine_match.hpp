#pragma once
// Internal to the engine: applying the client's Add/Replace/Delete to the stored items with twin
// pairing (slow and refresh-from-client syncs), field merge against the device's CTCap and conflict
// resolution by the tenant's policy (issue 7).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "matching/merge/merge_items.hpp"
#include "matching/model/capabilities.hpp"
#include "session/engine/engine_conflict.hpp"
#include "session/engine/engine_filter.hpp"
#include "session/engine/engine_run.hpp"

namespace syncml::session::detail {

struct candidate_set;

// One complete client item (Add or Replace), already converted to the canonical form.
struct incoming_item {
    std::size_t status_index = 0;  // its Status in run::statuses, whose code is set once applied
    bool as_add = true;
    std::string luid;    // Source LocURI
    std::string target;  // Target LocURI (our GUID), when the client sent one
    std::string mime;    // the device's content type of the item
    std::string content;
    std::vector<std::string> keys{};  // index_keys of the content, once a slow sync computed them
};

// Applies the items of one Sync command. Device capabilities and the tenant's policy are loaded on
// first use, at most once per command.
class item_applier {
  public:
    item_applier(run& r, store_state& s) : r_(r), s_(s) {}

    // Slow sync and refresh from client: pairs the batch with stored twins found by ONE index lookup,
    // merges pairs, adds the rest. Two-way modes: each item on its own, with conflict detection.
    void apply(std::vector<incoming_item>& batch);
    // Delete of the item the device knows as `luid` (or `target`); returns the status code.
    int remove(const std::string& luid, const std::string& target);

  private:
    struct paired {
        persistence::item_record stored;
        std::optional<matching::item> stored_item;
        bool identical = false;            // same content: nothing to merge
        bool held_before = false;          // a twin the device held before this slow sync (twin_candidate::mapped)
        std::int64_t sent_by_device = -1;  // twin_candidate::sent_by_device
    };

    void apply_slow(std::vector<incoming_item>& batch);
    // `mapped`: the device's mappings of the batch's LUIDs, by LUID.
    std::vector<std::optional<paired>> held_pairs(const std::vector<incoming_item>& batch,
                                                  const std::map<std::string, persistence::luid_mapping>& mapped);
    // Slow sync after an interrupted session: the device's copy predates a change or delete the server made since the
    // device's last completed sync.
    bool recovering(std::int64_t modseq) const;
    bool changed_since_last_sync(const paired& p);
    bool deleted_since_last_sync(const persistence::luid_mapping& m, const matching::item* incoming);
    void leave_deleted(const incoming_item& in, const persistence::luid_mapping& m);
    void apply_one(incoming_item& in);
    // Pairs batch items with candidates; result[i] is the pair of batch[i], if any.
    std::vector<std::optional<paired>> pair_batch(const std::vector<incoming_item>& batch,
                                                  const std::vector<std::optional<matching::item>>& parsed,
                                                  const std::map<std::string, persistence::luid_mapping>& mapped);
    void pair_scored(candidate_set& found, const std::vector<std::vector<std::string>>& keys,
                     const std::vector<std::optional<matching::item>>& parsed, std::vector<std::optional<paired>>& out);
    // The functions that queue a write return false when a tenant limit refused it; the item's status then says so
    // (420) and nothing of it is written.
    bool add_new(incoming_item& in, const matching::item* parsed);
    // Writes the outcome of a merge and maps the device's LUID to the result.
    bool store_merged(incoming_item& in, const persistence::item_record& stored, const matching::merge_result& result,
                      const matching::item* parsed);
    // The same for content the item codecs cannot read: the device copy replaces the stored one whole.
    bool write_whole(incoming_item& in, const persistence::item_record& existing, const matching::merge_result& result);
    // Queues new content for `stored` (nullopt: unchanged; no `stored`: a new item), within the user's byte quota, and
    // the device's mapping of it; `resend`: the device's copy lacks something, so package 4 sends the item back.
    bool queue_write(const incoming_item& in, const persistence::item_record* stored,
                     std::optional<std::string> content, std::vector<std::string> keys, bool resend);
    // Writes what the batch queued with one store call.
    void flush();
    // Slow sync: whether the datastore holds nothing but what this device sent in this sync (see
    // store_state::own_modseqs), so that no stored item can be a twin.
    bool only_own_items();
    // Replace (or Add) of an item the device holds; `revision`: what it last sent or received, if known.
    void update(incoming_item& in, const persistence::item_record& existing, std::optional<std::int64_t> revision,
                const matching::item* parsed);
    void report_conflict(const std::string& guid, conflict_resolution resolution);
    void set_status(const incoming_item& in, int code);

    const matching::device_capabilities& caps(const std::string& mime);
    // caps(), with the properties of `stored` the store's field filter kept from the device withheld, so that the
    // merge keeps the server's values of them (engine_filter.hpp).
    matching::device_capabilities caps_for(const std::string& mime, const matching::item& stored);
    matching::conflict_policy policy();

    run& r_;
    store_state& s_;
    std::optional<matching::device_capability_set> caps_;
    std::optional<matching::conflict_policy> policy_;
    std::optional<filter_check> filter_;
    std::vector<persistence::item_write> writes_;
};

}  // namespace syncml::session::detail
