#pragma once
// For persistence/ .cpp files only (it includes pqxx): the connection behind a `database`, and the
// one way repositories run SQL: in a transaction, with retry of failures that retrying can fix,
// and every pqxx exception turned into db_error before it leaves persistence/.

#include <pqxx/pqxx>

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>

#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::persistence {

struct database::impl {
    std::unique_ptr<pqxx::connection> connection;
    // Logs "unreachable" once per outage rather than once per attempt.
    bool reported_unreachable = false;
    // What the connection was told to plan its prepared statements as (database::match_plan_cache_mode).
    std::optional<bool> generic_plans;
};

namespace detail {

// The live connection of db. Throws db_error (retryable) when the server is unreachable.
pqxx::connection& connection_of(database& db);

// What exec_sql needs of a transaction's database. in_transaction and autocommit open transactions that carry it, so
// the repositories' functions keep taking pqxx's transaction types.
class profile_context {
  public:
    explicit profile_context(database_profile& profile) : profile_(profile) {}
    database_profile& profile() const { return profile_; }

  protected:
    ~profile_context() = default;

  private:
    database_profile& profile_;
};

// pqxx names a transaction through a virtual base, which the most derived class constructs: these keep pqxx's names.
template <pqxx::isolation_level level>
class profiled_transaction final : public pqxx::transaction<level>, public profile_context {
  public:
    profiled_transaction(pqxx::connection_base& connection, database_profile& profile)
        : pqxx::internal::namedclass(
              pqxx::transaction<level>::fullname("transaction", pqxx::isolation_traits<level>::name())),
          pqxx::transaction<level>(connection),
          profile_context(profile) {}
};

class profiled_nontransaction final : public pqxx::nontransaction, public profile_context {
  public:
    profiled_nontransaction(pqxx::connection_base& connection, database_profile& profile)
        : pqxx::internal::namedclass("nontransaction"), pqxx::nontransaction(connection), profile_context(profile) {}
};

// The profile of the database tx runs on. Throws std::logic_error for a transaction in_transaction or autocommit
// did not open.
database_profile& profile_of(const pqxx::transaction_base& tx);

// Converts the pqxx exception in flight (call it inside a catch block) into a db_error with the
// given retryable flag (in-doubt commits are never retryable). Non-pqxx exceptions are rethrown
// unchanged. Never returns.
[[noreturn]] void rethrow_as_db_error(bool retryable);

// Forgets db's connection when error says it is lost, so the next attempt connects afresh
// instead of trying a dead socket again.
void drop_if_broken(database& db, const std::exception& error);

// True when running the whole transaction again may succeed: never for in-doubt commits or
// non-pqxx exceptions.
bool is_retryable(const std::exception& error, const pqxx::connection* connection);

// The name `sql` is prepared under on every connection: derived from its text, so call sites need no
// registry and two statements never share a name.
std::string prepared_name(std::string_view sql);

// Runs `sql` as a prepared statement, so PostgreSQL parses and plans it once per connection instead of on
// every call. pqxx only records the definition here and sends it to the server on first use (again on a new
// connection after a reconnect), which makes this safe inside a transaction.
template <typename Tx, typename... Args>
pqxx::result exec_prepared_sql(Tx& tx, const std::string& sql, Args&&... args) {
    auto name = prepared_name(sql);
    tx.conn().prepare(name, sql);
    return tx.exec_prepared(name, std::forward<Args>(args)...);
}

// `sql` with every key hidden from the planner as "(SELECT $n::bigint)" as the plain parameter "$n::bigint". The hiding
// keeps PostgreSQL's planner off indexes its stale statistics make look unique; a distributed database plans each
// shard's query with the values instead, and there a hidden key costs a scan of the shard per probe (measured: 7 min
// instead of 17 ms for 100 LUIDs among 5000 mappings).
std::string with_plain_keys(const std::string& sql);

// The hot repositories' way to run SQL: prepared when enabled, else one unnamed statement per call. On a distributed
// schema always unnamed: Citus routes a statement by the values of its distribution columns, and the generic plan a
// prepared statement gets from its sixth run on sends an UPDATE or DELETE that joins two tables to every shard.
// exec_sql0/exec_sql1 expect no row/exactly one row, like pqxx's exec_params0/exec_params1.
template <typename Tx, typename... Args>
pqxx::result exec_sql(Tx& tx, const std::string& sql, Args&&... args) {
    const auto& profile = profile_of(tx);
    if (profile.distributed_schema()) return tx.exec_params(with_plain_keys(sql), std::forward<Args>(args)...);
    if (!profile.prepared_statements()) return tx.exec_params(sql, std::forward<Args>(args)...);
    return exec_prepared_sql(tx, sql, std::forward<Args>(args)...);
}

template <typename Tx, typename... Args>
pqxx::result exec_sql0(Tx& tx, const std::string& sql, Args&&... args) {
    auto rows = exec_sql(tx, sql, std::forward<Args>(args)...);
    if (!rows.empty()) throw pqxx::unexpected_rows("expected no rows from: " + sql);
    return rows;
}

template <typename Tx, typename... Args>
pqxx::row exec_sql1(Tx& tx, const std::string& sql, Args&&... args) {
    auto rows = exec_sql(tx, sql, std::forward<Args>(args)...);
    if (rows.size() != 1) throw pqxx::unexpected_rows("expected one row from: " + sql);
    return rows[0];
}

struct retry_policy {
    int attempts = 3;
    std::chrono::milliseconds backoff{20};  // doubled after each failed attempt
};

// Runs fn(tx) in one transaction of the given isolation level and commits it. Lost connections
// (reconnecting first), serialization failures and deadlocks run fn again, up to policy.attempts;
// a commit whose outcome is unknown (in_doubt_error) never is. fn must therefore have no effects
// outside the transaction. Exceptions from fn that are not pqxx's pass through unchanged.
template <pqxx::isolation_level level = pqxx::isolation_level::read_committed, typename Fn>
auto in_transaction(database& db, Fn&& fn, retry_policy policy = {})
    -> std::invoke_result_t<Fn&, profiled_transaction<level>&> {
    using result = std::invoke_result_t<Fn&, profiled_transaction<level>&>;
    auto backoff = policy.backoff;
    for (int attempt = 1;; ++attempt) {
        try {
            auto& connection = connection_of(db);
            profiled_transaction<level> tx(connection, db.profile());
            if constexpr (std::is_void_v<result>) {
                fn(tx);
                tx.commit();
                return;
            } else {
                result value = fn(tx);
                tx.commit();
                return value;
            }
        } catch (const std::exception& error) {
            const bool retryable = is_retryable(error, db.internals().connection.get());
            drop_if_broken(db, error);
            if (attempt >= policy.attempts || !retryable) rethrow_as_db_error(retryable);
        }
        std::this_thread::sleep_for(backoff);
        backoff *= 2;
    }
}

}  // namespace detail

// The names the brief promised, for repositories outside detail.
using detail::connection_of;
using detail::exec_prepared_sql;
using detail::exec_sql;
using detail::exec_sql0;
using detail::exec_sql1;
using detail::in_transaction;
using detail::prepared_name;
using detail::profile_of;
using detail::retry_policy;

}  // namespace syncml::persistence
