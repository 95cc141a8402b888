#include "persistence/auth_throttle.hpp"

#include <cmath>

#include "persistence/detail/autocommit.hpp"

namespace syncml::persistence {
namespace {

// $2 user, $3 device; an empty subject matches no row because the other scope's subject differs.
#define SYNCML_FAILURES_OF_USER_OR_DEVICE      \
    "FROM auth_failures WHERE tenant_id = $1 " \
    "AND ((scope = 'user' AND subject = $2 AND $2 <> '') OR (scope = 'device' AND subject = $3 AND $3 <> '')) "
#define SYNCML_SECONDS_BLOCKED                                                                          \
    "coalesce(max(extract(epoch FROM window_start + make_interval(secs => $5) - now())) FILTER (WHERE " \
    "failures >= $4 AND window_start > now() - make_interval(secs => $5)), 0) "

constexpr const char* k_blocked_for = "SELECT " SYNCML_SECONDS_BLOCKED SYNCML_FAILURES_OF_USER_OR_DEVICE;

// Unknown users come back with a NULL user_id.
constexpr const char* k_check =
    "SELECT f.blocked, f.on_record, u.user_id, u.password_hash, u.md5_secret FROM (SELECT " SYNCML_SECONDS_BLOCKED
    "AS blocked, count(*) > 0 AS on_record " SYNCML_FAILURES_OF_USER_OR_DEVICE
    ") f LEFT JOIN users u ON u.tenant_id = $1 AND u.name = $2";

#undef SYNCML_SECONDS_BLOCKED
#undef SYNCML_FAILURES_OF_USER_OR_DEVICE

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

constexpr const char* k_reset =
    "DELETE FROM auth_failures WHERE tenant_id = $1 "
    "AND ((scope = 'user' AND subject = $2) OR (scope = 'device' AND subject = $3))";

constexpr const char* k_stored_credentials =
    "SELECT user_id, password_hash, md5_secret FROM users WHERE tenant_id = $1 AND name = $2";

std::chrono::seconds whole_seconds(double seconds) {
    return std::chrono::seconds(static_cast<std::int64_t>(std::ceil(seconds)));
}

}  // namespace

std::chrono::seconds pg_auth_throttle::blocked_for(std::int64_t tenant, const std::string& user,
                                                   const std::string& device) {
    auto window = static_cast<double>(settings_.window.count());
    auto seconds = detail::autocommit(db_, [&](pqxx::nontransaction& tx) {
        return exec_sql1(tx, k_blocked_for, tenant, user, device, settings_.max_failures, window)[0].as<double>();
    });
    return whole_seconds(seconds);
}

credential_check pg_auth_throttle::check(std::int64_t tenant, const std::string& user, const std::string& device) {
    auto window = static_cast<double>(settings_.window.count());
    return detail::autocommit(db_, [&](pqxx::nontransaction& tx) {
        auto row = exec_sql1(tx, k_check, tenant, user, device, settings_.max_failures, window);
        credential_check out;
        out.blocked = whole_seconds(row[0].as<double>());
        out.failures_on_record = row[1].as<bool>();
        if (!row[2].is_null()) {
            out.account =
                stored_credentials{row[2].as<std::int64_t>(), row[3].as<std::string>(), row[4].as<std::string>()};
        }
        return out;
    });
}

void pg_auth_throttle::record_failure(std::int64_t tenant, const std::string& user, const std::string& device) {
    auto window = static_cast<double>(settings_.window.count());
    in_transaction(db_, [&](pqxx::work& tx) {
        if (!user.empty()) exec_sql0(tx, k_record_failure, tenant, "user", user, window);
        if (!device.empty()) exec_sql0(tx, k_record_failure, tenant, "device", device, window);
        exec_sql0(tx, k_forget_old, tenant, window);
    });
}

void pg_auth_throttle::reset(std::int64_t tenant, const std::string& user, const std::string& device) {
    detail::autocommit(db_, [&](pqxx::nontransaction& tx) { exec_sql0(tx, k_reset, tenant, user, device); });
}

std::optional<stored_credentials> find_stored_credentials(database& db, std::int64_t tenant, const std::string& user) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) -> std::optional<stored_credentials> {
        auto rows = exec_sql(tx, k_stored_credentials, tenant, user);
        if (rows.empty()) return std::nullopt;
        return stored_credentials{rows[0][0].as<std::int64_t>(), rows[0][1].as<std::string>(),
                                  rows[0][2].as<std::string>()};
    });
}

}  // namespace syncml::persistence
