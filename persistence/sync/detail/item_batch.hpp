#pragma once
// For persistence/ .cpp files only (it includes pqxx): the PostgreSQL side of sync_store::write_items. A
// slow sync's message of a hundred items costs five statements instead of five per item.

#include <pqxx/pqxx>

#include <cstdint>
#include <string>
#include <vector>

#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {

// The content type stored with canonical content (items.content_type).
std::string content_type_of(const std::string& content);

// `owner`: the user whose datastore it is.
std::vector<written_item> write_item_batch(pqxx::work& tx, std::int64_t tenant, std::int64_t owner,
                                           std::int64_t datastore, std::int64_t device_store,
                                           const std::vector<item_write>& writes);

}  // namespace syncml::persistence
