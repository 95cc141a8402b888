#include "persistence/pg/test_query.hpp"

#include "persistence/pg/detail/connection_access.hpp"

namespace syncml::persistence {

std::string query_value(database& db, const std::string& query) {
    return in_transaction(db, [&](pqxx::work& tx) { return tx.exec1(query)[0].as<std::string>("NULL"); });
}

}  // namespace syncml::persistence
