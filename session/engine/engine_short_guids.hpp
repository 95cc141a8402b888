#pragma once
// Internal to the engine: the ids of our items for a device that keeps shorter ones than our 36-byte GUIDs (the
// MaxGUIDSize of its DevInf datastore). OMA DS has the server send such a device a temporary id that fits instead,
// and take the device's Map of that id as a Map of the item; the sync store keeps one such short id per item and
// device store for good (sync_store::short_guids_for), as libsynthesis keeps its "#N" temporary GUIDs with a
// session's resume data. A device that declares no MaxGUIDSize gets our GUIDs, as always.

#include <map>
#include <string>
#include <vector>

#include "session/engine/engine_run.hpp"

namespace syncml::session::detail {

// The Source LocURIs of the Adds and Replaces in `out`, a Sync of package 4 for `s`, that are longer than the device
// keeps become their items' short ids. The message only shrinks: it was measured with the GUIDs.
void shorten_item_ids(run& r, const store_state& s, sync& out);

// The GUID each target of these Map items names: a short id the device store was given stands for its item's GUID;
// every other target names itself.
std::map<std::string, std::string> guids_of_map_targets(run& r, const store_state& s,
                                                        const std::vector<map_item>& items);

}  // namespace syncml::session::detail
