#pragma once
// For persistence/ .cpp files only (it includes pqxx): the PostgreSQL side of sync_store's chunk store for large
// incoming objects (append_chunk, take_chunks, drop_chunks) and of live_items.

#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>

namespace syncml::persistence {

void append_object_chunk(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t device_store,
                         std::int64_t offset, const std::string& data);
std::optional<std::string> take_object_chunks(pqxx::work& tx, std::int64_t tenant, int64_t owner,
                                              std::int64_t device_store, std::int64_t size);
void drop_object_chunks(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t device_store);
std::int64_t count_live_items(pqxx::work& tx, std::int64_t tenant, int64_t owner, std::int64_t datastore,
                              std::int64_t limit);

}  // namespace syncml::persistence
