#pragma once
// The outbox of server-alerted sync as the sender sees it (push_outbox, migration 0036). A change marks its user's
// opted-in devices pending in the change's own transaction (trigger syncml_push_enqueue); a sender of any instance
// lists the due rows, claims one (a lease, taken with FOR UPDATE SKIP LOCKED so that two senders never wait on each
// other), reads what the notification needs, sends it with no transaction open, and records the outcome. A sender
// that dies leaves its lease to expire: another takes the row then. Every statement but the listing and the gauge
// names one user (on Citus, one shard). Errors: db_error.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "persistence/push/push_settings.hpp"

namespace syncml::persistence {

class database;

struct push_key {
    std::int64_t tenant = 0;
    std::int64_t user = 0;
    std::int64_t device = 0;
    bool operator==(const push_key&) const = default;
};

// A datastore of the device with a change it has neither seen nor made.
struct push_store {
    std::string kind;        // contacts, calendar, tasks, memos (also the server's URI of it)
    std::string client_uri;  // the device's LocURI of its own store
};

struct claimed_push {
    push_key key;
    std::string tenant_name;
    bool tenant_push = false;  // tenants.push_enabled
    int daily_budget = 0;      // tenants.push_daily_budget (0: none)
    std::string user_name;
    bool user_enabled = false;
    std::string device_uri;
    std::string devinf;  // the device's last DevInf (XML or WBXML), empty if none
    push_settings settings;
    std::int64_t changes = 0;    // changes the notification announces
    std::string last_change_at;  // as the database wrote it: the outcome keeps changes that came after
    int attempts = 0;            // failed sends before this one
    // A notification went this long ago and the device has not synced since: the re-notify interval applies.
    std::optional<std::int64_t> unanswered_for_seconds;
    std::optional<std::int64_t> quiet_for_seconds;  // in the device's quiet hours: seconds until they end
    std::vector<push_store> stores;                 // what it would sync
};

// Due rows (pending, due, not leased; the last change at least `settle` ago, or the first `max_wait` ago), oldest
// first. Across tenants and users: on Citus a multi-shard read, like the janitor's.
std::vector<push_key> due_pushes(database& db, std::chrono::milliseconds settle, std::chrono::milliseconds max_wait,
                                 int limit);

// Takes the row for `lease` and reads what the notification needs; nullopt when it is gone, not due any more, or
// another sender holds it.
std::optional<claimed_push> claim_push(database& db, const push_key& key, std::chrono::seconds lease);

// The outcomes; each ends the lease. Changes that came in meanwhile stay pending.
void push_sent(database& db, const claimed_push& claimed, const std::string& result);
// Not sent now, tried again after `delay` (quiet hours, the re-notify interval, the budget); attempts unchanged.
void push_postponed(database& db, const claimed_push& claimed, std::chrono::seconds delay, const std::string& reason);
// A send failed: tried again after `retry_in`, one attempt more.
void push_failed(database& db, const claimed_push& claimed, std::chrono::seconds retry_in, const std::string& error);
// Nothing to send (nothing new for the device, push off for its tenant, its user disabled, given up): the changes
// are forgotten.
void push_dropped(database& db, const claimed_push& claimed, const std::string& reason);

// Counts one notification of the tenant today (UTC) if it is under `daily_budget` (0: no budget); false when over.
bool take_push_budget(database& db, std::int64_t tenant, int daily_budget);

// Pending rows in the outbox, all tenants: the queue's length.
std::int64_t pending_pushes(database& db);

}  // namespace syncml::persistence
