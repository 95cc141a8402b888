#pragma once
// Which stored item an imported item is, so that importing the same file twice adds nothing: the item of the same
// UID (replaced when its content differs), else, for an item without UID, the item of identical content. Identical
// means equal matching::content_key, which ignores what engines rewrite on every sync (REV, DTSTAMP, PRODID, line
// order, folding). Pure: the caller reads the candidates (sync_store::twin_candidates) and writes the items.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "persistence/sync/sync_store.hpp"

namespace syncml::server {

// An imported item's index keys (matching::index_keys) that identify it.
struct import_keys {
    std::string uid;      // "uid:..."; empty when the item has no UID
    std::string content;  // "content:..."
};

// The keys of an item's index keys.
import_keys import_keys_of(const std::vector<std::string>& index_keys);

enum class import_action { add, replace, keep };

struct import_decision {
    import_action action = import_action::add;
    std::string guid;  // replace and keep: the stored item
};

class import_matcher {
  public:
    // `stored`: the datastore's live items having any of the imported items' keys, oldest first, each with the
    // keys it has.
    explicit import_matcher(const std::vector<persistence::twin_candidate>& stored);

    import_decision decide(const import_keys& item) const;
    // The item is now stored as `guid` (added or replaced): later items of the same import match it, and the
    // content it replaced matches nothing any more.
    void record(const import_keys& item, const std::string& guid);

  private:
    std::map<std::string, std::string> guid_by_key_;        // first stored item of each key
    std::map<std::string, std::set<std::string>> keys_of_;  // guid -> its keys among the requested ones
};

}  // namespace syncml::server
