#pragma once
// For persistence/ .cpp files only: the PostgreSQL sync_store on a transaction, for other stores that write items
// the way SyncML does (dav_store.cpp).

#include <memory>

#include <pqxx/pqxx>

#include "persistence/sync_store.hpp"

namespace syncml::persistence::detail {

std::unique_ptr<sync_store> make_pg_sync_store(pqxx::work& tx);

}  // namespace syncml::persistence::detail
