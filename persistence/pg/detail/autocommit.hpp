#pragma once
// For persistence/ .cpp files only: one statement outside any transaction (autocommit), for single reads and
// writes where BEGIN/COMMIT would only add round trips. No retry: a failure becomes a
// db_error, and the caller answers the client with a retryable error.

#include "persistence/pg/detail/connection_access.hpp"

namespace syncml::persistence::detail {

template <typename Fn>
auto autocommit(database& db, Fn&& fn) {
    try {
        profiled_nontransaction tx(connection_of(db), db.profile());
        return fn(tx);
    } catch (const db_error&) {
        throw;
    } catch (const std::exception& error) {
        const bool retryable = is_retryable(error, db.internals().connection.get());
        drop_if_broken(db, error);
        rethrow_as_db_error(retryable);
    }
}

}  // namespace syncml::persistence::detail
