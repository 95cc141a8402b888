#pragma once
// What the protocol engine needs from the database, as interfaces free of pqxx so that the state machine can be
// unit-tested with an in-memory fake. Every call runs inside the one transaction of the message being handled (see
// sync_transaction), so a message is applied completely or not at all. Each role (store_roles/) states what one
// kind of caller needs; sync_store is all of them, what one transaction offers.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "persistence/sync/store_roles/change_feed.hpp"
#include "persistence/sync/store_roles/chunk_rows.hpp"
#include "persistence/sync/store_roles/device_rows.hpp"
#include "persistence/sync/store_roles/device_store_rows.hpp"
#include "persistence/sync/store_roles/item_rows.hpp"
#include "persistence/sync/store_roles/mapping_rows.hpp"
#include "persistence/sync/store_roles/session_rows.hpp"
#include "persistence/sync/store_roles/tenant_policy.hpp"
#include "persistence/sync/sync_records.hpp"

namespace syncml::persistence {

class database;

// The defaults here compose calls of more than one role; a store that can do better overrides them.
class sync_store : public session_rows,
                   public device_rows,
                   public device_store_rows,
                   public item_rows,
                   public item_quota,
                   public change_feed,
                   public mapping_rows,
                   public chunk_rows,
                   public tenant_policy {
  public:
    device_store_record open_device_store(std::int64_t tenant, const store_opening& o) override {
        if (!o.collection.empty() && o.collection != common::datastore_name(o.kind)) return {};
        auto ds = device_store_of_kind(tenant, o.user, o.device, o.kind, o.remote_uri);
        if (!o.session_id.empty()) {
            set_resume_pointer(tenant, o.device_uri, o.resume_prefix + std::to_string(ds.id), o.session_id);
        }
        return ds;
    }
    std::vector<written_item> write_items(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                          const std::vector<item_write>& writes) override;
    std::vector<change_record> change_page(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                           std::int64_t after, std::int64_t upto, bool include_deleted,
                                           std::size_t limit) override;
    std::vector<outgoing_item> outgoing_items(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                              const std::vector<item_ref>& items, std::size_t budget,
                                              std::size_t overhead) override;
    void record_delivery(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                         const std::vector<std::pair<item_ref, std::int64_t>>& held,
                         const std::vector<item_ref>& removed) override;
    std::int64_t delete_unheld_items(std::int64_t tenant, std::int64_t datastore, std::int64_t device_store,
                                     std::int64_t upto) override;
};

// Runs `work` in one transaction on `db` and commits when it returns normally; retries the whole
// function on serialization failures and lost connections. Returns false when the database failed
// (after retries); exceptions thrown by `work` itself propagate after rollback.
bool run_sync_transaction(database& db, const std::function<void(sync_store&)>& work);
// As run_sync_transaction, with the store bound to `owner` from the start (see pg_session_store::bind_owner): for
// work that knows its user before its first call names one.
bool run_sync_transaction(database& db, std::int64_t owner, const std::function<void(sync_store&)>& work);
// As run_sync_transaction, but `work` decides: true commits, false rolls everything it wrote back.
enum class transaction_outcome { committed, rolled_back, failed };
transaction_outcome run_sync_transaction_if(database& db, const std::function<bool(sync_store&)>& work);

}  // namespace syncml::persistence
