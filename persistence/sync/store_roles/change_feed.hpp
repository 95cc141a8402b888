#pragma once
// The sync store's role for package 4: the server changes a device has not seen, read a page and a message at a
// time, and what the device confirmed it holds (see sync_store.hpp).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "persistence/sync/sync_records.hpp"

namespace syncml::persistence {

class change_feed {
  public:
    virtual ~change_feed() = default;

    // Changes with after < modseq <= upto that this device has not sent or received itself. With
    // include_deleted false, only live items (for slow and refresh syncs).
    virtual std::vector<change_record> changes(std::int64_t tenant, std::int64_t device_store, std::int64_t after,
                                               std::int64_t upto, bool include_deleted) = 0;
    // The start of package 4 in one query: the datastore's current modseq, the device store's last seen one and,
    // with `wanted`, changes() after that (after 0 with `from_start`) up to the current modseq.
    virtual server_changes_record server_changes(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                                 bool wanted, bool from_start, bool include_deleted) = 0;
    // The live items the device holds (a confirmed mapping, at any revision), in modseq order, with their LUIDs and
    // item ids: what a filtered sync checks for items that left the device's filter. One query.
    virtual std::vector<change_record> held_items(std::int64_t tenant, std::int64_t device_store) = 0;
    // Package 4's next page: at most `limit` of changes() after `after` up to `upto` in modseq order, with item
    // ids, without deleted items the device holds no confirmed LUID of (it never had them). sync_store's default
    // filters changes(); PostgreSQL needs one query that reads no further than the page.
    virtual std::vector<change_record> change_page(std::int64_t tenant, std::int64_t datastore,
                                                   std::int64_t device_store, std::int64_t after, std::int64_t upto,
                                                   bool include_deleted, std::size_t limit) = 0;
    // The items of `items` that exist (deleted ones too, in any order) with the device's confirmed LUID of each.
    // Contents are read only while the items before one in `items`, at their stored size plus `overhead` each,
    // take less than `budget` bytes (the first item's always): what one message can carry, so large items are
    // not read ahead. sync_store's default reads item by item; PostgreSQL needs one query.
    virtual std::vector<outgoing_item> outgoing_items(std::int64_t tenant, std::int64_t datastore,
                                                      std::int64_t device_store, const std::vector<item_ref>& items,
                                                      std::size_t budget, std::size_t overhead) = 0;
    // Package 4 arrived: the device holds each (item, modseq) of `held` (touch_mapping) and none of `removed`: the
    // mapping of a live one goes (remove_mapping), that of a deleted one records the Delete (touch_mapping at the
    // deletion's modseq) and goes with the tombstone. sync_store's default makes those calls; PostgreSQL needs one
    // statement.
    virtual void record_delivery(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                 const std::vector<std::pair<item_ref, std::int64_t>>& held,
                                 const std::vector<item_ref>& removed) = 0;
    // Refresh from client: deletes (as delete_item, each with its own modseq) every live item that changes()
    // from 0 up to modseq `upto` lists for `device_store`, the ones the device neither sent nor received, and drops
    // their mappings. Returns how many. sync_store's default makes those calls; PostgreSQL needs one statement.
    virtual std::int64_t delete_unheld_items(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                             std::int64_t upto) = 0;
};

}  // namespace syncml::persistence
