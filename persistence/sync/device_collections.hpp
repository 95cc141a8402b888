#pragma once
// Which collection each of a device's datastores syncs (issue 38): the user's default collection of its kind unless
// an operator chose another (admin device collection, PUT .../devices/{device}/collections/{datastore}); a phone may
// also name one in its datastore URI (./calendar?collection=work), which the opening of a device store reads
// (migrations/functions/syncml_open_collection_store.sql). Each function runs one transaction.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/vocabulary/datastore_kind.hpp"

namespace syncml::persistence {

class database;

struct device_collection {
    common::item_kind kind =
        common::item_kind::contact;  // the device's datastore of this kind (contacts, calendar, ...)
    std::string collection;          // its collection's name: the kind's own for the default
    bool chosen = false;             // an operator chose it; else the default
    // A DAV client deleted the chosen collection: the device gets its deletions in its next sync, then the default.
    bool deleted = false;
};

// The collection of each of the four kinds, in the order contacts, calendar, tasks, memos. not_found for an unknown
// tenant, user or device.
std::vector<device_collection> device_collections(database& db, std::string_view tenant, std::string_view user,
                                                  std::string_view device_uri);

// Points the device's datastore of `kind` at the user's collection `collection`; nullopt or the kind's own name: the
// default again. The device's next sync of that datastore is a slow sync against the collection (a view of it the
// device never synced). not_found for an unknown tenant, user, device or collection; std::invalid_argument for a
// collection that takes no items of the kind (an address book for a calendar, a calendar without VTODO for tasks).
void set_device_collection(database& db, std::string_view tenant, std::string_view user, std::string_view device_uri,
                           common::item_kind kind, const std::optional<std::string>& collection);

}  // namespace syncml::persistence
