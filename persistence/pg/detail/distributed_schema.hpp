#pragma once
// The distributed schema mode (persistence/DISTRIBUTED.md): on a database with the citus extension, `migrate` makes
// the small shared tables reference tables, distributes every table of a user's rows by the user's key in one
// colocation group, and delegates the hot path's functions to the node that holds the user.

#include <pqxx/pqxx>

namespace syncml::persistence {

// Whether the database of `tx` has the citus extension.
bool citus_installed(pqxx::work& tx);

// Distributes what of the schema of `tx`'s search path is not distributed yet: everything the first time, a table or
// function a later migration added afterwards; a no-op when there is nothing. Run on the coordinator in the
// migrations' transaction, after them; the shard count is the database's citus.shard_count.
void distribute_schema(pqxx::work& tx);

// Whether the tables of `tx`'s search path are distributed.
bool schema_distributed(pqxx::work& tx);

}  // namespace syncml::persistence
