#pragma once
// Field merge of two copies of one item: the server's stored copy and the copy a device sent (a slow-sync twin,
// or a Replace of an item the device had received). Devices send back what they could store, so a missing or
// shortened field usually means "this device cannot hold it", not "the user deleted it": the device's CTCap
// (device_capabilities) decides which reading applies, and every decision is reported for the log.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/vocabulary/conflict_policy.hpp"
#include "matching/model/capabilities.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

// Per-tenant policy for an item changed on both sides (common/vocabulary/conflict_policy.hpp).
using common::conflict_policy;

std::string_view name_of(conflict_policy policy);  // "merge", "server-wins", "client-wins", ...
std::optional<conflict_policy> conflict_policy_from_name(std::string_view name);

enum class merge_mode {
    // Slow-sync twins: the device copy may be old or partial; an absent property never clears a stored one.
    slow_sync,
    // Replace of an item the device received before: with known CTCap, a property the device can store but
    // left out was deleted there and is cleared (without CTCap absent properties are still kept).
    update,
};

struct merge_result {
    item merged;                       // the new stored copy (equal to stored when nothing changed)
    bool stored_changed = false;       // merged != stored: write it and bump the item's modseq
    bool device_needs_update = false;  // the device lacks storable content of merged: send it a Replace
    // duplicate policy: keep stored unchanged, add `merged` (the device copy) as a new server item mapped to the
    // device's LUID, and send the stored item to the device as a new item.
    bool keep_both = false;
    std::vector<std::string> decisions;  // one human-readable line per non-trivial decision ("NOTE: kept ...")
};

// `caps` are the device's capabilities for the content type of the device copy (device_capability_set::
// for_content_type). Copies of different kinds (contact vs calendar) cannot merge: the result keeps both.
merge_result merge(const item& stored, const item& incoming, const device_capabilities& caps,
                   conflict_policy policy = conflict_policy::merge, merge_mode mode = merge_mode::slow_sync);

}  // namespace syncml::matching
