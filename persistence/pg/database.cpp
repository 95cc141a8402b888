#include "persistence/pg/database.hpp"
#include "common/log/log_event.hpp"

#include <poll.h>
#include <spdlog/spdlog.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

#include "persistence/pg/conninfo_mask.hpp"
#include "persistence/pg/detail/connection_access.hpp"

namespace syncml::persistence {

namespace {

// An idle connection has nothing to read unless the server is saying goodbye (a FATAL message
// after pg_terminate_backend or a shutdown, then EOF). Noticing that here costs one poll() and
// spares a failed BEGIN, which libpqxx 6.4 answers by leaking the error result.
bool idle_connection_looks_closed(int socket) {
    if (socket < 0) return true;
    pollfd watch{socket, POLLIN, 0};
    return poll(&watch, 1, 0) > 0 && (watch.revents & (POLLIN | POLLHUP | POLLERR)) != 0;
}

// Client settings the URL does not set itself. Without a connect timeout, an unreachable host
// (packets dropped, not refused) would hold a worker for the operating system's TCP timeout;
// application_name makes our connections recognizable in pg_stat_activity.
std::string with_client_defaults(std::string url) {
    const bool uri = url.starts_with("postgres://") || url.starts_with("postgresql://");
    const auto add = [&](const char* key, const char* value) {
        if (url.find(key) != std::string::npos) return;
        if (uri) {
            url += (url.find('?') == std::string::npos ? "?" : "&");
        } else {
            url += " ";
        }
        url += std::string(key) + "=" + value;
    };
    add("connect_timeout", "5");
    add("application_name", "syncml-server");
    return url;
}

}  // namespace

database::database(std::string url, std::shared_ptr<database_profile> profile)
    : database(std::vector<std::string>{std::move(url)}, 0, std::move(profile)) {}

database::database(std::vector<std::string> candidates, std::size_t preferred,
                   std::shared_ptr<database_profile> profile)
    : candidates_(std::move(candidates)),
      profile_(profile ? std::move(profile) : std::make_shared<database_profile>()),
      impl_(std::make_unique<impl>()) {
    if (candidates_.empty()) throw std::invalid_argument("database: no connection target");
    preferred_ = current_ = preferred % candidates_.size();
}

database::~database() = default;

// Prepared statements are key lookups, best planned once per connection (generic plans). A custom plan (PostgreSQL's
// choice for a statement's first five runs, and whenever it looks cheaper) plans for the user's id; for a user the
// statistics do not know yet (a new user's first slow sync) it takes any index that starts with (tenant_id, user_id)
// and filters the rest, reading all of the user's rows per lookup, and it plans every run again (issue 40;
// tests/integration/hot_path_plans.sh). Statements inside SQL functions too. Citus cannot plan some statements of SQL
// functions generically ("could not create distributed plan"): a distributed schema keeps PostgreSQL's choice, also on
// a connection opened before the schema was found distributed.
void database::match_plan_cache_mode() {
    const bool wanted = profile_->prepared_statements() && !profile_->distributed_schema();
    if (impl_->generic_plans == wanted) return;
    try {
        impl_->connection->set_variable("plan_cache_mode", wanted ? "force_generic_plan" : "auto");
        impl_->generic_plans = wanted;
    } catch (const std::exception&) {
        // A connection that broke just now: the transaction that follows fails on it and reconnects.
        impl_->generic_plans.reset();
    }
}

bool database::ensure_connected() {
    auto& connection = impl_->connection;
    if (connection && connection->is_open() && !idle_connection_looks_closed(connection->sock())) {
        match_plan_cache_mode();
        return true;
    }
    connection.reset();
    std::string first_error;
    for (std::size_t k = 0; k < candidates_.size(); ++k) {
        const std::size_t at = (preferred_ + k) % candidates_.size();
        try {
            connection = std::make_unique<pqxx::connection>(with_client_defaults(candidates_[at]));
        } catch (const std::exception& error) {
            connection.reset();
            if (first_error.empty()) first_error = error.what();
            continue;
        }
        current_ = at;
        impl_->generic_plans.reset();
        match_plan_cache_mode();
        if (impl_->reported_unreachable) spdlog::info("database reachable again");
        impl_->reported_unreachable = false;
        if (at != preferred_) {
            common::log_event(spdlog::level::warn, "database target unreachable, connected to another",
                              {{"unreachable", mask_conninfo_password(candidates_[preferred_])},
                               {"connected", mask_conninfo_password(candidates_[at])},
                               {"error", first_error}});
        }
        return true;
    }
    current_ = preferred_;
    if (!impl_->reported_unreachable)
        common::log_event(spdlog::level::warn, "database unreachable", {{"error", first_error}});
    impl_->reported_unreachable = true;
    return false;
}

bool database::connected() const { return impl_->connection && impl_->connection->is_open(); }

namespace detail {

database_profile& profile_of(const pqxx::transaction_base& tx) {
    if (const auto* context = dynamic_cast<const profile_context*>(&tx)) return context->profile();
    throw std::logic_error("a statement outside in_transaction and autocommit: its database's profile is unknown");
}

std::string with_plain_keys(const std::string& sql) {
    static constexpr std::string_view open = "(SELECT $", close = "::bigint)";
    std::string out;
    out.reserve(sql.size());
    std::size_t at = 0;
    for (auto found = sql.find(open); found != std::string::npos; found = sql.find(open, at)) {
        auto digits = found + open.size();
        auto end = digits;
        while (end < sql.size() && sql[end] >= '0' && sql[end] <= '9') ++end;
        if (end == digits || sql.compare(end, close.size(), close) != 0) {
            out.append(sql, at, digits - at);
            at = digits;
            continue;
        }
        out.append(sql, at, found - at).append("$").append(sql, digits, end - digits).append("::bigint");
        at = end + close.size();
    }
    out.append(sql, at, std::string::npos);
    return out;
}

pqxx::connection& connection_of(database& db) {
    if (!db.ensure_connected()) throw db_error("database unreachable", true);
    return *db.internals().connection;
}

namespace {

bool retryable_sqlstate(const std::string& state) {
    // Class 08: connection exception; 57P01-57P03: server shutting down or starting; 40001 and
    // 40P01: serialization failure and deadlock.
    return state.starts_with("08") || state == "57P01" || state == "57P02" || state == "57P03" || state == "40001" ||
           state == "40P01";
}

// Citus, while a shard moves: a function delegated to the node that held the user's shard runs there once more and
// finds the shard gone at the switch. Run again, the transaction goes to the shard's new node.
bool moved_shard(const pqxx::sql_error& error) {
    return error.sqlstate() == "XX000" &&
           std::string_view(error.what()).find("cannot execute a distributed query from a query on a shard") !=
               std::string_view::npos;
}

}  // namespace

std::string prepared_name(std::string_view sql) {
    // FNV-1a, 64 bits: a collision would need two of our few dozen statements to hash alike.
    std::uint64_t hash = 14695981039346656037ull;
    for (unsigned char c : sql) hash = (hash ^ c) * 1099511628211ull;
    char name[20];
    std::snprintf(name, sizeof name, "s%016llx", static_cast<unsigned long long>(hash));
    return name;
}

void drop_if_broken(database& db, const std::exception& error) {
    auto& connection = db.internals().connection;
    if (!connection) return;
    const auto* sql = dynamic_cast<const pqxx::sql_error*>(&error);
    const bool lost = dynamic_cast<const pqxx::broken_connection*>(&error) != nullptr ||
                      (sql && (sql->sqlstate().starts_with("08") || sql->sqlstate().starts_with("57P")));
    if (lost || !connection->is_open()) connection.reset();
}

bool is_retryable(const std::exception& error, const pqxx::connection* connection) {
    if (dynamic_cast<const pqxx::in_doubt_error*>(&error)) return false;
    if (dynamic_cast<const pqxx::statement_completion_unknown*>(&error)) return false;
    if (dynamic_cast<const pqxx::broken_connection*>(&error)) return true;
    if (dynamic_cast<const pqxx::serialization_failure*>(&error)) return true;
    if (dynamic_cast<const pqxx::deadlock_detected*>(&error)) return true;
    if (!dynamic_cast<const pqxx::pqxx_exception*>(&error)) return false;
    if (auto* sql = dynamic_cast<const pqxx::sql_error*>(&error);
        sql && (retryable_sqlstate(sql->sqlstate()) || moved_shard(*sql))) {
        return true;
    }
    return connection != nullptr && !connection->is_open();
}

void rethrow_as_db_error(bool retryable) {
    auto current = std::current_exception();
    try {
        std::rethrow_exception(current);
    } catch (const pqxx::in_doubt_error& error) {
        throw db_error(std::string("commit outcome unknown: ") + error.what(), false);
    } catch (const pqxx::sql_error& error) {
        throw db_error(error.what(), retryable, error.sqlstate());
    } catch (const pqxx::pqxx_exception& error) {
        throw db_error(error.base().what(), retryable);
    }
}

}  // namespace detail

}  // namespace syncml::persistence

#if defined(__SANITIZE_ADDRESS__)
// libpq 15 / libpqxx 6.4 leak one error result (about 2 KB) when a statement runs into a
// connection the server has closed. It is outside our code and bounded by the number of lost
// connections, so sanitizer builds (tests) of every binary linking persistence/ ignore leaks of
// memory that libpq allocated. (LSan does not match the libpqxx frame by function name.)
extern "C" const char* __lsan_default_suppressions() { return "leak:libpq.so\n"; }
#endif
