#include "persistence/auth_throttle.hpp"

#include <cmath>

#include "persistence/detail/autocommit.hpp"

namespace syncml::persistence {
namespace {

// $2 user, $3 device; an empty subject matches no row because the other scope's subject differs.
constexpr const char* k_blocked_for =
    "SELECT coalesce(max(extract(epoch FROM window_start + make_interval(secs => $5) - now())), 0) "
    "FROM auth_failures WHERE tenant_id = $1 "
    "AND ((scope = 'user' AND subject = $2 AND $2 <> '') OR (scope = 'device' AND subject = $3 AND $3 <> '')) "
    "AND failures >= $4 AND window_start > now() - make_interval(secs => $5)";

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

}  // namespace

std::chrono::seconds pg_auth_throttle::blocked_for(std::int64_t tenant, const std::string& user,
                                                   const std::string& device) {
    auto window = static_cast<double>(settings_.window.count());
    auto seconds = detail::autocommit(db_, [&](pqxx::nontransaction& tx) {
        return tx.exec_params1(k_blocked_for, tenant, user, device, settings_.max_failures, window)[0].as<double>();
    });
    return std::chrono::seconds(static_cast<std::int64_t>(std::ceil(seconds)));
}

void pg_auth_throttle::record_failure(std::int64_t tenant, const std::string& user, const std::string& device) {
    auto window = static_cast<double>(settings_.window.count());
    in_transaction(db_, [&](pqxx::work& tx) {
        if (!user.empty()) tx.exec_params0(k_record_failure, tenant, "user", user, window);
        if (!device.empty()) tx.exec_params0(k_record_failure, tenant, "device", device, window);
        tx.exec_params0(k_forget_old, tenant, window);
    });
}

void pg_auth_throttle::reset(std::int64_t tenant, const std::string& user, const std::string& device) {
    detail::autocommit(db_, [&](pqxx::nontransaction& tx) { tx.exec_params0(k_reset, tenant, user, device); });
}

std::optional<stored_credentials> find_stored_credentials(database& db, std::int64_t tenant, const std::string& user) {
    return detail::autocommit(db, [&](pqxx::nontransaction& tx) -> std::optional<stored_credentials> {
        auto rows = tx.exec_params(k_stored_credentials, tenant, user);
        if (rows.empty()) return std::nullopt;
        return stored_credentials{rows[0][0].as<std::int64_t>(), rows[0][1].as<std::string>(),
                                  rows[0][2].as<std::string>()};
    });
}

}  // namespace syncml::persistence
