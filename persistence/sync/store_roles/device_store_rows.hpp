#pragma once
// The sync store's role for datastores and a device's view of them: anchors, seen modseq, slow-sync flag, filter and
// the opening an Alert makes (see sync_store.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include "persistence/sync/sync_records.hpp"

namespace syncml::persistence {

class device_store_rows {
  public:
    virtual ~device_store_rows() = default;

    // The user's datastore of `kind`, created on first use.
    virtual std::int64_t datastore(std::int64_t tenant, std::int64_t user, item_kind kind) = 0;
    virtual device_store_record device_store(std::int64_t tenant, std::int64_t device, std::int64_t datastore,
                                             const std::string& remote_uri) = 0;
    // Every view the device has of the user's datastores (any kind, any remote URI) with the format each last synced
    // in; none is created. One query: an Alert reads whether the device's calendar also holds its tasks (the task
    // datastore seen under the calendar's remote URI) and the format a device remembered.
    virtual std::vector<device_store_view> device_store_views(std::int64_t tenant, std::int64_t device) = 0;
    // A sync completed: its anchors, seen modseq, slow-sync flag and filter, and its content type and version when not
    // empty; the ones it replaces become the previous.
    virtual void save_device_store(std::int64_t tenant, const device_store_record& store) = 0;
    // The device store's next sync must be slow (needs_slow_sync); nothing else of the row changes.
    virtual void require_slow_sync(std::int64_t tenant, std::int64_t device_store) = 0;
    // datastore() and device_store() together: the device's view of the user's datastore of `kind`, created on
    // first use. The default makes both calls; PostgreSQL needs one statement.
    virtual device_store_record device_store_of_kind(std::int64_t tenant, std::int64_t user, std::int64_t device,
                                                     item_kind kind, const std::string& remote_uri) {
        return device_store(tenant, device, datastore(tenant, user, kind), remote_uri);
    }
    // device_store_of_kind on the collection the device's datastore syncs (store_opening::collection), then (with a
    // session_id) the device store's resume pointer: set_resume_pointer of the row named `resume_prefix` + the device
    // store's id (sync_store's default makes those calls and knows the default collections only; PostgreSQL needs one
    // statement). A record with id 0, and nothing written, when the collection named does not exist or takes no
    // items of the kind.
    virtual device_store_record open_device_store(std::int64_t tenant, const store_opening& o) = 0;
};

}  // namespace syncml::persistence
