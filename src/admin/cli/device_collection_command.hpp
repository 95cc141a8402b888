#pragma once
// `admin device collection --tenant T --user U --device D [--datastore KIND (--collection NAME | --default)] [--json]`
// (issue 38): shows which of the user's collections each of the device's datastores syncs, points the device's
// datastore of a kind (contacts, calendar, tasks, memos) at another collection of the user, or back at the kind's
// default collection. The device's next sync of that datastore is a slow sync against the collection.

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "persistence/sync/device_collections.hpp"

namespace syncml::persistence {
class database;
}

namespace syncml::server {

struct device_collection_request {
    std::string tenant;
    std::string user;
    std::string device;
    std::string datastore;                  // the kind's name; empty: show only
    std::optional<std::string> collection;  // with datastore: the collection to sync; nullopt: show, or --default
    bool to_default = false;                // with datastore: the kind's default collection again
    bool json = false;
};

// Carries the request out and returns every datastore's collection afterwards. not_found for an unknown tenant, user,
// device or collection; std::invalid_argument for a bad combination, an unknown datastore name or a collection that
// takes no items of the kind (nothing is stored then).
std::vector<persistence::device_collection> apply_device_collection(persistence::database& db,
                                                                    const device_collection_request& request);

// The command: apply_device_collection, then one line per datastore (or --json, one object) to out.
void run_device_collection(persistence::database& db, const device_collection_request& request, std::ostream& out);

}  // namespace syncml::server
