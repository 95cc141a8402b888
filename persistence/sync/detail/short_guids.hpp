#pragma once
// For persistence/ .cpp files only (it includes pqxx): the PostgreSQL side of sync_store's short ids
// (short_guids_for, guids_of_short_ids).

#include <pqxx/pqxx>

#include <cstdint>
#include <string>
#include <vector>

#include "persistence/sync/sync_records.hpp"

namespace syncml::persistence {

std::vector<short_guid> give_short_guids(pqxx::work& tx, std::int64_t tenant, std::int64_t owner,
                                         std::int64_t device_store, const std::vector<std::string>& guids);
std::vector<short_guid> find_short_guids(pqxx::work& tx, std::int64_t tenant, std::int64_t owner,
                                         std::int64_t device_store, const std::vector<std::string>& ids);

}  // namespace syncml::persistence
