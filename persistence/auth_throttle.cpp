#include "persistence/auth_throttle.hpp"

#include <cmath>

#include "persistence/detail/autocommit.hpp"
#include "persistence/detail/md5_secrets.hpp"
#include "persistence/password_hash.hpp"

namespace syncml::persistence {
namespace {

// Failure rows of auth_failures `a` for $2 user, $3 device and the client address parameter `address`; an empty
// subject matches none.
#define SYNCML_FAILURE_SUBJECTS(address)                                                                           \
    "((a.scope = 'user' AND a.subject = $2 AND $2 <> '') OR (a.scope = 'device' AND a.subject = $3 AND $3 <> '') " \
    "OR (a.scope = 'user_address' AND a.subject = $2 || ' ' || " address " AND $2 <> '' AND " address " <> '')) "

// The account columns stored_credentials_of reads, from u (users) and t (tenants).
#define SYNCML_ACCOUNT_COLUMNS                                                           \
    "u.user_id, u.password_hash, u.md5_secret_sealed, u.legacy_md5_secret, t.auth_md5, " \
    "(SELECT value FROM server_secrets WHERE name = 'md5_secret_key') "

// One row always; unknown and disabled users come back with a NULL user_id. A user's failures from anywhere, or a
// device id's for any user, block only devices the user has not authenticated before (no devices row): a stranger who
// knows a user name and a device id can then stop new devices for a while, never the user's own phone, which only its
// own address's failures (user_address) block. A client without a device id (DAV) at an address it logged in from
// within 30 days (known_clients) is treated like such a phone.
constexpr const char* k_check =
    "SELECT coalesce(max(extract(epoch FROM a.window_start + make_interval(secs => $5) - now())) FILTER (WHERE "
    "a.failures >= $4 AND a.window_start > now() - make_interval(secs => $5) "
    "AND (a.scope = 'user_address' OR (d.device_id IS NULL AND k.user_id IS NULL))), 0) AS blocked, "
    "count(a.subject) > 0 AS on_record, " SYNCML_ACCOUNT_COLUMNS
    ", d.device_id IS NOT NULL AS known_device, d.nonce AS device_nonce, "
    "k.user_id IS NOT NULL AS known_client, coalesce(k.last_login < now() - interval '1 day', false) AS client_stale "
    "FROM (SELECT 1) AS one "
    "LEFT JOIN (users u JOIN tenants t USING (tenant_id)) ON u.tenant_id = $1 AND u.name = $2 "
    "AND u.disabled_at IS NULL "
    "LEFT JOIN devices d ON d.tenant_id = $1 AND d.user_id = u.user_id AND d.device_uri = $3 "
    "LEFT JOIN known_clients k ON k.tenant_id = $1 AND k.user_id = u.user_id AND k.address = $6 AND $3 = '' "
    "AND k.last_login > now() - interval '30 days' "
    "LEFT JOIN auth_failures a ON a.tenant_id = $1 AND " SYNCML_FAILURE_SUBJECTS("$6")
    "GROUP BY u.user_id, u.password_hash, u.md5_secret_sealed, u.legacy_md5_secret, t.auth_md5, d.device_id, d.nonce, "
    "k.user_id, k.last_login";

constexpr const char* k_remember_client =
    "INSERT INTO known_clients (tenant_id, user_id, address) VALUES ($1, $2, $3) "
    "ON CONFLICT (tenant_id, user_id, address) DO UPDATE SET last_login = now()";

// A failure after the window has passed starts a new window.
constexpr const char* k_record_failure =
    "INSERT INTO auth_failures (tenant_id, scope, subject, failures, window_start) VALUES ($1, $2, $3, 1, now()) "
    "ON CONFLICT (tenant_id, scope, subject) DO UPDATE SET "
    "failures = CASE WHEN auth_failures.window_start > now() - make_interval(secs => $4) "
    "THEN auth_failures.failures + 1 ELSE 1 END, "
    "window_start = CASE WHEN auth_failures.window_start > now() - make_interval(secs => $4) "
    "THEN auth_failures.window_start ELSE now() END";

// Rows of windows long past, a few at a time, so the table stays as small as the set of recent failures.
constexpr const char* k_forget_old =
    "DELETE FROM auth_failures WHERE ctid IN (SELECT ctid FROM auth_failures WHERE tenant_id = $1 "
    "AND window_start < now() - make_interval(secs => $2) LIMIT 20)";

constexpr const char* k_reset = "DELETE FROM auth_failures a WHERE a.tenant_id = $1 AND " SYNCML_FAILURE_SUBJECTS("$4");

#undef SYNCML_FAILURE_SUBJECTS

constexpr const char* k_stored_credentials = "SELECT " SYNCML_ACCOUNT_COLUMNS
                                             "FROM users u JOIN tenants t USING (tenant_id) "
                                             "WHERE u.tenant_id = $1 AND u.name = $2";

#undef SYNCML_ACCOUNT_COLUMNS

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
    auto window = static_cast<double>(settings_.window.count());
    return detail::autocommit(db_, [&](pqxx::nontransaction& tx) {
        auto row = exec_sql1(tx, k_check, tenant, user, device, settings_.max_failures, window, address);
        credential_check out;
        out.blocked = whole_seconds(row[0].as<double>());
        out.failures_on_record = row[1].as<bool>();
        if (!row[2].is_null()) out.account = stored_credentials_of(row, 2, tenant, user, key());
        out.known_device = row["known_device"].as<bool>();
        if (!row["device_nonce"].is_null()) out.device_nonce = pqxx::binarystring(row["device_nonce"]).str();
        out.known_client = row["known_client"].as<bool>();
        out.client_stale = row["client_stale"].as<bool>();
        return out;
    });
}

void pg_auth_throttle::record_failure(std::int64_t tenant, const std::string& user, const std::string& device,
                                      const std::string& address) {
    auto window = static_cast<double>(settings_.window.count());
    in_transaction(db_, [&](pqxx::work& tx) {
        if (!user.empty()) exec_sql0(tx, k_record_failure, tenant, "user", user, window);
        if (!device.empty()) exec_sql0(tx, k_record_failure, tenant, "device", device, window);
        if (!user.empty() && !address.empty()) {
            exec_sql0(tx, k_record_failure, tenant, "user_address", user + " " + address, window);
        }
        exec_sql0(tx, k_forget_old, tenant, window);
    });
}

void pg_auth_throttle::remember_client(std::int64_t tenant, std::int64_t user_id, const std::string& address) {
    if (address.empty()) return;
    detail::autocommit(db_,
                       [&](pqxx::nontransaction& tx) { exec_sql0(tx, k_remember_client, tenant, user_id, address); });
}

void pg_auth_throttle::reset(std::int64_t tenant, const std::string& user, const std::string& device,
                             const std::string& address) {
    detail::autocommit(db_, [&](pqxx::nontransaction& tx) { exec_sql0(tx, k_reset, tenant, user, device, address); });
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
