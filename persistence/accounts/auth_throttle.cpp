#include "persistence/accounts/auth_throttle.hpp"

#include <algorithm>
#include <cmath>

#include "common/net/ip_network.hpp"
#include "persistence/accounts/detail/md5_secrets.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/detail/autocommit.hpp"

namespace syncml::persistence {
namespace {

// On a distributed database auth_failures is keyed by `shard_key` (migration 0023): the user key of the name for
// the scopes user and user_address, the device key of the device id for the scope device. Every statement below names
// one of them, so it runs on one shard; the two kinds of rows are read and written by separate statements.
#define SYNCML_USER_KEY "syncml_user_key($1, $2)"

// The user's failure rows of auth_failures `a`: $2 user, $2 at the client address parameter `address` and $2 with
// the device id parameter `device` (none for an empty user name: record_failure writes none). No condition on
// parameters alone may make a join of a distributed table false when the statement is planned: Citus then plans it
// for every shard (measured on 13.2.2).
#define SYNCML_USER_FAILURES(address, device)                                            \
    "a.tenant_id = $1 AND a.shard_key = " SYNCML_USER_KEY                                \
    " AND ((a.scope = 'user' AND a.subject = $2) "                                       \
    "OR (a.scope = 'user_address' AND a.subject = $2 || ' ' || " address " AND " address \
    " <> '') OR (a.scope = 'user_device' AND a.subject = $2 || ' ' || " device " AND " device " <> '')) "

// The device id's failure row of auth_failures `a`, for device `device`.
#define SYNCML_DEVICE_FAILURES(device)                                 \
    "a.tenant_id = $1 AND a.shard_key = syncml_device_key($1, " device \
    ") AND a.scope = 'device' AND a.subject = " device " "

// The account columns stored_credentials_of reads, from u (users) and t (tenants).
#define SYNCML_ACCOUNT_COLUMNS                                                           \
    "u.user_id, u.password_hash, u.md5_secret_sealed, u.legacy_md5_secret, t.auth_md5, " \
    "(SELECT value FROM server_secrets WHERE name = 'md5_secret_key') "

// When the block of row `a` with at least `least` failures ends: a user-wide counter ('user', 'user_device') blocks
// for the window after the allowed failures and twice as long after each further one, at most `cap` seconds; the
// others block until their window of `window` seconds has passed.
#define SYNCML_BLOCK_END(least, window, cap)                                                                        \
    "CASE WHEN a.scope IN ('user', 'user_device') THEN a.last_failure + make_interval(secs => least(" window        \
    " * power(2, least(a.failures - " least ", 30)), " cap ")) ELSE a.window_start + make_interval(secs => " window \
    ") END"

// How long the failures of rows `a` that satisfy `condition` block, and whether there are any that a success resets
// (`resettable`).
#define SYNCML_BLOCKED_SECONDS(least, window, cap, condition, resettable) \
    "greatest(coalesce(max(extract(epoch FROM " SYNCML_BLOCK_END(least, window, cap) " - now())) FILTER (WHERE " \
    "a.failures >= " least " AND " condition "), 0), 0) AS blocked, count(a.subject) FILTER (WHERE " resettable \
    ") > 0 AS on_record "

// One row always; unknown and disabled users come back with a NULL user_id. At an address the user logged in from
// within 30 days (known_clients) only that address's failures (user_address) block: a stranger elsewhere never locks
// her out there. Elsewhere the user-wide counter of the user with this device id blocks too, so that a guesser who
// knows her phone's id gains nothing by rotating addresses; and for a device the user has not authenticated before
// (no devices row) or a client without a device id (DAV), the user's own and the device id's (k_check_device): a
// stranger who knows only a user name never stops her phone, only new devices at new addresses. Every user table is
// bound by the user key of the name, which finds no row for an unknown name.
#define SYNCML_KNOWN_ADDRESS "(k.user_id IS NOT NULL)"
constexpr const char* k_check =
    "SELECT " SYNCML_BLOCKED_SECONDS(
        "$4", "$5", "$7",
        "(a.scope = 'user_address' OR (NOT " SYNCML_KNOWN_ADDRESS
        " AND (a.scope = 'user_device' OR d.device_id IS NULL)))",
        "a.scope = 'user_address'") ", "
    SYNCML_ACCOUNT_COLUMNS ", d.device_id IS NOT NULL AS known_device, d.nonce AS device_nonce, "
    SYNCML_KNOWN_ADDRESS " AS known_address, "
    SYNCML_KNOWN_ADDRESS " AND k.last_login < now() - interval '1 day' AS address_stale "
    "FROM (SELECT 1) AS one "
    "LEFT JOIN (users u JOIN tenants t USING (tenant_id)) ON u.tenant_id = $1 AND u.user_id = " SYNCML_USER_KEY
    " AND u.name = $2 AND u.disabled_at IS NULL "
    "LEFT JOIN devices d ON d.tenant_id = $1 AND d.user_id = " SYNCML_USER_KEY
    " AND d.user_id = u.user_id AND d.device_uri = $3 "
    "LEFT JOIN known_clients k ON k.tenant_id = $1 AND k.user_id = " SYNCML_USER_KEY
    " AND k.user_id = u.user_id AND k.address = $6 AND k.last_login > now() - interval '30 days' "
    "LEFT JOIN auth_failures a ON " SYNCML_USER_FAILURES("$6", "$3")
    "GROUP BY u.user_id, u.password_hash, u.md5_secret_sealed, u.legacy_md5_secret, t.auth_md5, d.device_id, d.nonce, "
    "k.user_id, k.last_login";

#undef SYNCML_KNOWN_ADDRESS

// The device id $2's own counter, with $3 and $4 as k_check's $4 and $5. It blocks only where k_check says a device
// id's failures do.
constexpr const char* k_check_device = "SELECT " SYNCML_BLOCKED_SECONDS(
    "$3", "$4", "$4", "true", "true") "FROM auth_failures a WHERE " SYNCML_DEVICE_FAILURES("$2");

constexpr const char* k_remember_client =
    "INSERT INTO known_clients (tenant_id, user_id, address, last_login) VALUES ($1, $2, $3, now()) "
    "ON CONFLICT (tenant_id, user_id, address) DO UPDATE SET last_login = EXCLUDED.last_login";

// $2 scope, $3 subject, $4 seconds: a counter restarts at one failure when `restart`. On a distributed database the
// update may use only IMMUTABLE functions: the time comes in as EXCLUDED.window_start and EXCLUDED.last_failure
// (now()), and timestamptz - timestamptz and interval comparison are IMMUTABLE where timestamptz - interval is not.
#define SYNCML_RECORD_FAILURE(key, restart)                                                                   \
    "INSERT INTO auth_failures (tenant_id, shard_key, scope, subject, failures, window_start, last_failure) " \
    "VALUES ($1, " key                                                                                        \
    ", $2, $3, 1, now(), now()) "                                                                             \
    "ON CONFLICT (tenant_id, shard_key, scope, subject) DO UPDATE SET "                                       \
    "failures = CASE WHEN " restart                                                                           \
    " THEN 1 ELSE auth_failures.failures + 1 END, "                                                           \
    "window_start = CASE WHEN " restart                                                                       \
    " THEN EXCLUDED.window_start ELSE auth_failures.window_start END, "                                       \
    "last_failure = EXCLUDED.last_failure"
// A windowed counter after its window of $4 seconds; a user-wide one after $4 seconds without a failure.
#define SYNCML_WINDOW_PASSED "EXCLUDED.window_start - auth_failures.window_start >= make_interval(secs => $4)"
#define SYNCML_QUIET_PASSED "EXCLUDED.last_failure - auth_failures.last_failure >= make_interval(secs => $4)"
// $5 the user name whose key the row has.
constexpr const char* k_record_address_failure = SYNCML_RECORD_FAILURE("syncml_user_key($1, $5)", SYNCML_WINDOW_PASSED);
constexpr const char* k_record_user_wide_failure =
    SYNCML_RECORD_FAILURE("syncml_user_key($1, $5)", SYNCML_QUIET_PASSED);
constexpr const char* k_record_device_failure =
    SYNCML_RECORD_FAILURE("syncml_device_key($1, $3)", SYNCML_WINDOW_PASSED);

// The user's rows that no longer count (windows past $3 seconds, user-wide counters quiet for $4 seconds), such as
// the user's failures at other addresses, so that the table stays as small as the set of recent failures without a
// statement across users; the janitor deletes the rest (janitor_sql.hpp). A device id has only its own row, which
// k_record_device_failure restarts. Run as an unnamed statement, like every UPDATE and DELETE that finds its shard by
// a function of the parameters: Citus 13.2.2 runs such a statement on one shard only while PostgreSQL plans it with
// the parameters' values, not in the generic plan a prepared statement gets from its sixth execution on (measured;
// SELECT and INSERT route either way). No CASE: Citus refuses now() in a CASE of a DELETE.
constexpr const char* k_forget_old =
    "DELETE FROM auth_failures WHERE tenant_id = $1 AND shard_key = " SYNCML_USER_KEY
    " AND ((scope IN ('user', 'user_device') AND last_failure < now() - make_interval(secs => $4)) "
    "OR (scope NOT IN ('user', 'user_device') AND window_start < now() - make_interval(secs => $3)))";

// $3 the client address. Only the counter of the user at that address: the user-wide ones stay, or the user's own
// client polling every minute would wipe a guesser's failures elsewhere after each and give him a fresh allowance.
constexpr const char* k_reset_user =
    "DELETE FROM auth_failures a WHERE a.tenant_id = $1 AND a.shard_key = " SYNCML_USER_KEY
    " AND a.scope = 'user_address' AND a.subject = $2 || ' ' || $3";
constexpr const char* k_reset_device = "DELETE FROM auth_failures a WHERE " SYNCML_DEVICE_FAILURES("$2");

#undef SYNCML_QUIET_PASSED
#undef SYNCML_WINDOW_PASSED
#undef SYNCML_RECORD_FAILURE
#undef SYNCML_BLOCKED_SECONDS
#undef SYNCML_BLOCK_END
#undef SYNCML_DEVICE_FAILURES
#undef SYNCML_USER_FAILURES

constexpr const char* k_stored_credentials =
    "SELECT " SYNCML_ACCOUNT_COLUMNS
    "FROM users u JOIN tenants t USING (tenant_id) "
    "WHERE u.tenant_id = $1 AND u.user_id = " SYNCML_USER_KEY " AND u.name = $2";

#undef SYNCML_ACCOUNT_COLUMNS
#undef SYNCML_USER_KEY

// The SYNCML_ACCOUNT_COLUMNS from column `at` on.
stored_credentials stored_credentials_of(const pqxx::row& row, pqxx::row::size_type at, std::int64_t tenant,
                                         const std::string& user, const secret_key* md5_key) {
    stored_credentials out;
    out.user_id = row[at].as<std::int64_t>();
    out.password_hash = row[at + 1].as<std::string>();
    const auto sealed = detail::optional_bytes(row[at + 2]);
    const bool md5_allowed = row[at + 4].as<bool>();
    if (md5_allowed) {
        out.md5_secret = detail::usable_md5_secret(sealed, detail::optional_text(row[at + 3]), md5_key,
                                                   detail::optional_text(row[at + 5]), tenant, user);
    }
    // An md5 secret that does not open (a lost key) is replaced like a missing one.
    out.needs_upgrade = needs_rehash(out.password_hash) || (md5_allowed && out.md5_secret.empty());
    return out;
}

std::chrono::seconds whole_seconds(double seconds) {
    return std::chrono::seconds(static_cast<std::int64_t>(std::ceil(seconds)));
}

}  // namespace

credential_check pg_auth_throttle::check(std::int64_t tenant, const std::string& user, const std::string& device,
                                         const std::string& address) {
    const auto window = static_cast<double>(settings_.window.count());
    const auto cap = static_cast<double>(settings_.backoff_cap.count());
    return detail::autocommit(db_, [&](pqxx::nontransaction& tx) {
        auto row = exec_sql1(tx, k_check, tenant, user, device, settings_.max_failures, window,
                             common::client_group(address), cap);
        credential_check out;
        out.blocked = whole_seconds(row["blocked"].as<double>());
        out.failures_on_record = row["on_record"].as<bool>();
        if (!row["user_id"].is_null()) out.account = stored_credentials_of(row, 2, tenant, user, key());
        out.known_device = row["known_device"].as<bool>();
        if (!row["device_nonce"].is_null()) out.device_nonce = pqxx::binarystring(row["device_nonce"]).str();
        out.known_address = row["known_address"].as<bool>();
        out.address_stale = row["address_stale"].as<bool>();
        if (!device.empty()) {
            // A second statement: the device id's counter lives on another shard than the user's rows.
            auto counter = exec_sql1(tx, k_check_device, tenant, device, settings_.max_failures, window);
            if (!out.known_device && !out.known_address) {
                out.blocked = std::max(out.blocked, whole_seconds(counter["blocked"].as<double>()));
            }
            out.failures_on_record = out.failures_on_record || counter["on_record"].as<bool>();
        }
        return out;
    });
}

// The user's rows and the device id's row are on different shards: one transaction each.
void pg_auth_throttle::record_failure(std::int64_t tenant, const std::string& user, const std::string& device,
                                      const std::string& address) {
    const auto window = static_cast<double>(settings_.window.count());
    const auto cap = static_cast<double>(settings_.backoff_cap.count());
    const auto group = common::client_group(address);
    if (!user.empty()) {
        in_transaction(db_, [&](pqxx::work& tx) {
            exec_sql0(tx, k_record_user_wide_failure, tenant, "user", user, cap, user);
            if (!device.empty()) {
                exec_sql0(tx, k_record_user_wide_failure, tenant, "user_device", user + " " + device, cap, user);
            }
            if (!group.empty()) {
                exec_sql0(tx, k_record_address_failure, tenant, "user_address", user + " " + group, window, user);
            }
            tx.exec_params0(k_forget_old, tenant, user, window, cap);  // unnamed: see k_forget_old
        });
    }
    if (!device.empty()) {
        detail::autocommit(db_, [&](pqxx::nontransaction& tx) {
            exec_sql0(tx, k_record_device_failure, tenant, "device", device, window);
        });
    }
}

void pg_auth_throttle::remember_client(std::int64_t tenant, std::int64_t user_id, const std::string& address) {
    const auto group = common::client_group(address);
    if (group.empty()) return;
    detail::autocommit(db_,
                       [&](pqxx::nontransaction& tx) { exec_sql0(tx, k_remember_client, tenant, user_id, group); });
}

void pg_auth_throttle::reset(std::int64_t tenant, const std::string& user, const std::string& device,
                             const std::string& address) {
    detail::autocommit(db_, [&](pqxx::nontransaction& tx) {
        // Unnamed statements: see k_forget_old.
        if (!user.empty()) tx.exec_params0(k_reset_user, tenant, user, common::client_group(address));
        if (!device.empty()) tx.exec_params0(k_reset_device, tenant, device);
    });
}

std::optional<stored_credentials> find_stored_credentials(database& db, std::int64_t tenant, const std::string& user,
                                                          const secret_key* md5_key) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) -> std::optional<stored_credentials> {
        auto rows = exec_sql(tx, k_stored_credentials, tenant, user);
        if (rows.empty()) return std::nullopt;
        return stored_credentials_of(rows[0], 0, tenant, user, md5_key);
    });
}

}  // namespace syncml::persistence
