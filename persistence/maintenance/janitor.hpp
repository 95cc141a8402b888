#pragma once
// Periodic clean-up of data that outlives its use, so that the database does not grow forever. src/ runs
// run_janitor() from a timer; every instance may, and a lease in the database makes one pass run at a time.

#include <chrono>
#include <cstddef>
#include <string>

namespace syncml::persistence {

class database;

// Deletes sessions (and resume pointers) past their expires_at, tenant by tenant (no query crosses tenants), in
// transactions of at most `batch` rows so that a large backlog never holds locks for long. Returns how many were
// deleted. Throws db_error.
std::size_t delete_expired_sessions(database& db, std::size_t batch = 1000);

struct janitor_settings {
    std::size_t batch = 1000;
    // Failed-login counters whose window started and whose last failure was this long ago (longer than any
    // auth_failure_window and than the throttle's backoff_cap of a day).
    std::chrono::seconds auth_failure_age{std::chrono::hours(48)};
    // Chunks of a large object that received no chunk for this long: the device gave it up.
    std::chrono::seconds chunk_age{std::chrono::hours(24)};
    // Audit log entries of admin actions (admin_audit.hpp) older than this: a year and a month covers a yearly
    // review.
    std::chrono::seconds audit_age{std::chrono::hours(24 * 396)};
    // How long one pass may hold the lease before another instance may take over (a pass that died).
    std::chrono::seconds lease{std::chrono::minutes(30)};
};

struct janitor_report {
    bool ran = false;  // false: another instance holds the lease
    std::size_t sessions = 0;
    std::size_t resume_pointers = 0;
    std::size_t auth_failures = 0;
    std::size_t known_clients = 0;  // DAV client addresses not seen for 30 days
    std::size_t session_routes =
        0;  // distributed schema: routes and session starts of sessions that cannot live anymore
    std::size_t chunks = 0;
    std::size_t tombstones = 0;
    std::size_t collections = 0;  // deleted by DAV clients, past the tombstone retention
    std::size_t audit_entries = 0;
    // Device stores that had not seen a purged tombstone: their next sync is slow instead of missing the delete.
    std::size_t slow_syncs_forced = 0;
};

// One pass over every tenant, under the janitor lease (`holder` names this instance in it): expired sessions and
// resume pointers, old failed-login counters and known DAV client addresses, abandoned large-object chunks, tombstones
// (deleted items) and deleted collections older than their tenant's tombstone_retention_days, and old audit log
// entries. Throws db_error.
janitor_report run_janitor(database& db, const std::string& holder, const janitor_settings& settings = {});

}  // namespace syncml::persistence
