#pragma once
// Periodic clean-up of data that outlives its use. src/ calls it from a timer on the worker pool.

#include <cstddef>

namespace syncml::persistence {

class database;

// Deletes sessions past their expires_at, tenant by tenant (no query crosses tenants), in
// transactions of at most `batch` rows so that a large backlog never holds locks for long.
// Returns how many were deleted. Throws db_error.
std::size_t delete_expired_sessions(database& db, std::size_t batch = 1000);

}  // namespace syncml::persistence
