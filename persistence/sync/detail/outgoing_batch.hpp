#pragma once
// For persistence/ .cpp files only (it includes pqxx): the PostgreSQL side of package 4's batched calls
// (sync_store::server_changes, outgoing_items, record_delivery, delete_unheld_items), so that sending a
// message of a hundred items costs a fixed number of statements instead of one or two per item.

#include <pqxx/pqxx>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {

server_changes_record read_server_changes(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t datastore,
                                          std::int64_t device_store, bool wanted, bool from_start,
                                          bool include_deleted);

std::vector<outgoing_item> read_outgoing_items(pqxx::work& tx, std::int64_t tenant, int64_t owner,
                                               std::int64_t datastore, std::int64_t device_store,
                                               const std::vector<item_ref>& items, std::size_t budget,
                                               std::size_t overhead);

void write_delivery(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t datastore,
                    std::int64_t device_store, const std::vector<std::pair<item_ref, std::int64_t>>& held,
                    const std::vector<item_ref>& removed);

std::int64_t delete_unheld(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t datastore,
                           std::int64_t device_store, std::int64_t upto);

}  // namespace syncml::persistence
