#pragma once
// The sync store's role for a datastore's items: writes that take modseqs, reads by GUID and slow-sync twin lookup
// by match keys (see sync_store.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "persistence/sync/sync_records.hpp"

namespace syncml::persistence {

class item_rows {
  public:
    virtual ~item_rows() = default;

    // Each change takes the next modseq of its datastore; the datastore's counter stays locked until
    // commit so that modseqs become visible in order and a reader never skips one.
    // `match_keys` (matching::to_string of each key) replace the item's keys in the index.
    virtual item_record add_item(std::int64_t tenant, std::int64_t datastore, const std::string& content,
                                 const std::vector<std::string>& match_keys) = 0;
    virtual std::optional<item_record> replace_item(std::int64_t tenant, std::int64_t datastore,
                                                    const std::string& guid, const std::string& content,
                                                    const std::vector<std::string>& match_keys) = 0;
    virtual std::optional<item_record> delete_item(std::int64_t tenant, std::int64_t datastore,
                                                   const std::string& guid) = 0;
    virtual std::optional<item_record> find_item(std::int64_t tenant, std::int64_t datastore,
                                                 const std::string& guid) = 0;
    // Applies `writes` as add_item/replace_item and then set_mapping (touch_mapping for a Map) would, in order.
    // sync_store's default does exactly that; the PostgreSQL store needs a fixed number of statements for the batch.
    virtual std::vector<written_item> write_items(std::int64_t tenant, std::int64_t datastore,
                                                  std::int64_t device_store, const std::vector<item_write>& writes) = 0;
    // Live items with one of `match_keys` that `device_store` does not hold confirmed, oldest first, at
    // most k_candidates_per_key per key so a key thousands of items share stays cheap. One query.
    virtual std::vector<twin_candidate> twin_candidates(std::int64_t tenant, std::int64_t datastore,
                                                        std::int64_t device_store,
                                                        const std::vector<std::string>& match_keys) = 0;
    virtual std::int64_t current_modseq(std::int64_t tenant, std::int64_t datastore) = 0;
};

// The tenant's limits on items per datastore and bytes per user need a count (engine_quota.cpp).
class item_quota {
  public:
    virtual ~item_quota() = default;

    // Live (not deleted) items of the datastore, counted up to `limit` at most: enough to check a quota without
    // counting a large datastore whole.
    virtual std::int64_t live_items(std::int64_t tenant, std::int64_t datastore, std::int64_t limit) = 0;
    // The bytes of the owner's live items in all its datastores, as the writes counted them (storage_quota.hpp):
    // a read of the user's few datastore rows, whatever the items.
    virtual std::int64_t user_stored_bytes(std::int64_t tenant) = 0;
};

}  // namespace syncml::persistence
