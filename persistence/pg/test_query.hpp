#pragma once
// One value read with SQL, for tests of other modules that look at what a message left in the database: they must
// not include libpqxx (tests/checks/layering.sh).

#include <string>

namespace syncml::persistence {

class database;

// The first column of the single row `query` returns, as text ("NULL" for SQL NULL); throws when there is no
// single row.
std::string query_value(database& db, const std::string& query);

}  // namespace syncml::persistence
