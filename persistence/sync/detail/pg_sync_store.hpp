#pragma once
// For persistence/ .cpp files only: the PostgreSQL sync_store on a transaction, for other stores that write items
// the way SyncML does (dav_store.cpp).

#include <cstdint>
#include <memory>

#include <pqxx/pqxx>

#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence::detail {

// Bound to `owner`, the user whose items it writes, or (0) to the user of its first call that names one (see
// pg_session_store::bind_owner).
std::unique_ptr<sync_store> make_pg_sync_store(pqxx::work& tx, std::int64_t owner = 0);

}  // namespace syncml::persistence::detail
