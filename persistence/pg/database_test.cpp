#include "persistence/pg/database.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using database_test = testing::database_test;

int backend_pid(database& db) {
    return in_transaction(db, [](pqxx::work& tx) { return tx.exec1("SELECT pg_backend_pid()")[0].as<int>(); });
}

void terminate_backend(const std::string& url, int pid) {
    database killer(url);
    in_transaction(killer, [&](pqxx::work& tx) { tx.exec_params("SELECT pg_terminate_backend($1, 10000)", pid); });
}

TEST(database, reports_an_unreachable_server_without_throwing) {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    database db("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2");
    EXPECT_FALSE(db.ensure_connected());
    EXPECT_FALSE(db.connected());
    try {
        in_transaction(db, [](pqxx::work& tx) { tx.exec("SELECT 1"); });
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        EXPECT_TRUE(error.retryable());
    }
}

std::string with_application_name(const std::string& url, const std::string& name) {
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "application_name=" + name;
}

std::string application_name(database& db) {
    return in_transaction(
        db, [](pqxx::work& tx) { return tx.exec1("SELECT current_setting('application_name')")[0].as<std::string>(); });
}

std::string plan_cache_mode(database& db) {
    return in_transaction(
        db, [](pqxx::work& tx) { return tx.exec1("SELECT current_setting('plan_cache_mode')")[0].as<std::string>(); });
}

// Prepared statements planned generically once per connection (issue 40: a custom plan for a user the statistics do
// not know yet filters all the user's rows), except where Citus cannot plan them so and behind a transaction pooler
// (no prepared statements), also on a connection that was open before the schema was found distributed.
TEST_F(database_test, prepared_statements_are_planned_generically_except_on_a_distributed_schema) {
    database db(url());
    EXPECT_EQ(plan_cache_mode(db), "force_generic_plan");
    db.profile().use_distributed_schema(true);
    EXPECT_EQ(plan_cache_mode(db), "auto") << "the next transaction of the open connection";
    db.profile().use_distributed_schema(false);
    EXPECT_EQ(plan_cache_mode(db), "force_generic_plan");

    database pooled(url(), std::make_shared<database_profile>(false));
    EXPECT_EQ(plan_cache_mode(pooled), "auto");
}

const std::string k_nothing_listens = "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2";

TEST_F(database_test, connects_to_its_preferred_target_of_several) {
    const auto first = with_application_name(url(), "first"), second = with_application_name(url(), "second");
    database db({first, second}, 1);
    ASSERT_TRUE(db.ensure_connected());
    EXPECT_EQ(db.url(), second);
    EXPECT_EQ(application_name(db), "second");
    database wrapped({first, second}, 2);
    EXPECT_EQ(application_name(wrapped), "first") << "the preferred index counts modulo the list";
}

TEST_F(database_test, falls_back_to_the_others_while_its_target_is_unreachable) {
    const auto other = with_application_name(url(), "other");
    database db({k_nothing_listens, other}, 0);
    ASSERT_TRUE(db.ensure_connected());
    EXPECT_EQ(db.url(), other);
    EXPECT_EQ(application_name(db), "other");
    database from_the_end({other, k_nothing_listens}, 1);
    EXPECT_EQ(application_name(from_the_end), "other") << "after the last target comes the first";
}

TEST(database, reports_unreachable_only_when_every_target_is) {
    database db({k_nothing_listens, "postgresql://nobody@127.0.0.1:2/none?connect_timeout=2"}, 1);
    EXPECT_FALSE(db.ensure_connected());
    EXPECT_EQ(db.url(), "postgresql://nobody@127.0.0.1:2/none?connect_timeout=2");
    EXPECT_THROW(database(std::vector<std::string>{}, 0), std::invalid_argument);
}

TEST_F(database_test, reconnects_after_its_backend_was_terminated) {
    database db(url());
    const int first = backend_pid(db);
    terminate_backend(url(), first);
    // The next transaction notices the closed connection and runs on a new one.
    const int second = backend_pid(db);
    EXPECT_NE(first, second);
    EXPECT_TRUE(db.connected());
}

TEST_F(database_test, retries_a_transaction_whose_connection_died_midway) {
    database db(url());
    int attempts = 0;
    std::vector<int> pids;
    in_transaction(db, [&](pqxx::work& tx) {
        pids.push_back(tx.exec1("SELECT pg_backend_pid()")[0].as<int>());
        if (++attempts == 1) {
            terminate_backend(url(), pids.back());
            tx.exec("SELECT 1");  // the connection is gone: the whole function runs again
        }
    });
    EXPECT_EQ(attempts, 2);
    ASSERT_EQ(pids.size(), 2u);
    EXPECT_NE(pids[0], pids[1]);
}

TEST_F(database_test, prepares_a_statement_once_per_connection_and_again_after_a_reconnect) {
    database db(url());
    const std::string sql = "SELECT $1::int + 1";
    auto run = [&] {
        return in_transaction(db, [&](pqxx::work& tx) { return exec_prepared_sql(tx, sql, 41)[0][0].as<int>(); });
    };
    auto prepared_here = [&] {
        return in_transaction(db, [&](pqxx::work& tx) {
            return tx.exec_params1("SELECT count(*) FROM pg_prepared_statements WHERE name = $1", prepared_name(sql))[0]
                .as<int>();
        });
    };
    EXPECT_EQ(prepared_here(), 0);
    EXPECT_EQ(run(), 42);
    EXPECT_EQ(run(), 42);
    EXPECT_EQ(prepared_here(), 1);
    terminate_backend(url(), backend_pid(db));
    EXPECT_EQ(run(), 42);  // the new connection prepares it again instead of failing on an unknown name
    EXPECT_EQ(prepared_here(), 1);
}

TEST_F(database_test, exec_sql_runs_unprepared_when_prepared_statements_are_off) {
    database db(url(), std::make_shared<database_profile>(false));
    database prepared(url());
    const std::string sql = "SELECT $1::int * 2";
    auto prepared_count = [&](database& on) {
        return in_transaction(
            on, [](pqxx::work& tx) { return tx.exec1("SELECT count(*) FROM pg_prepared_statements")[0].as<int>(); });
    };
    const int off = in_transaction(db, [&](pqxx::work& tx) { return exec_sql1(tx, sql, 21)[0].as<int>(); });
    const int count_off = prepared_count(db);
    const int on = in_transaction(prepared, [&](pqxx::work& tx) { return exec_sql1(tx, sql, 21)[0].as<int>(); });
    EXPECT_EQ(off, 42);
    EXPECT_EQ(on, 42);
    EXPECT_EQ(count_off, 0);
    EXPECT_EQ(prepared_count(prepared), 1);
    EXPECT_THROW(in_transaction(prepared, [&](pqxx::work& tx) { exec_sql0(tx, sql, 1); }), db_error);
}

// Citus routes by the values of the distribution columns: unnamed statements, keys as plain parameters. The literal
// shows the rewrite of the hidden key.
TEST_F(database_test, exec_sql_runs_unnamed_with_plain_keys_when_the_shared_profile_says_distributed) {
    auto profile = std::make_shared<database_profile>();
    database db(url(), profile);
    database readiness(url(), profile);
    const std::string sql = "SELECT '(SELECT $1::bigint)' || $1::bigint";
    const auto run = [&] {
        const auto value =
            in_transaction(db, [&](pqxx::work& tx) { return exec_sql1(tx, sql, 21)[0].as<std::string>(); });
        return value + " " + in_transaction(db, [](pqxx::work& tx) {
                   return tx.exec1("SELECT count(*) FROM pg_prepared_statements")[0].as<std::string>();
               });
    };
    EXPECT_EQ(run(), "(SELECT $1::bigint)21 1");
    readiness.profile().use_distributed_schema(true);
    EXPECT_TRUE(db.distributed_schema_in_use());
    in_transaction(db, [](pqxx::work& tx) { tx.exec("DEALLOCATE ALL"); });
    EXPECT_EQ(run(), "$1::bigint21 0");
}

TEST_F(database_test, exec_sql_refuses_a_transaction_that_does_not_know_its_database) {
    database db(url());
    ASSERT_TRUE(db.ensure_connected());
    pqxx::work tx(connection_of(db));
    EXPECT_THROW(exec_sql(tx, "SELECT 1"), std::logic_error);
}

TEST(database, has_the_default_profile_without_one) {
    database db("postgresql://nobody@127.0.0.1:1/none");
    EXPECT_TRUE(db.profile().prepared_statements());
    EXPECT_FALSE(db.distributed_schema_in_use());
    EXPECT_FALSE(db.profile().all_analyzed());
    database other("postgresql://nobody@127.0.0.1:1/none");
    EXPECT_NE(&db.profile(), &other.profile());
}

TEST(database, names_different_statements_differently) {
    EXPECT_EQ(prepared_name("SELECT 1"), prepared_name("SELECT 1"));
    EXPECT_NE(prepared_name("SELECT 1"), prepared_name("SELECT 2"));
}

TEST_F(database_test, names_itself_in_pg_stat_activity) {
    database db(url());
    const auto name = in_transaction(
        db, [](pqxx::work& tx) { return tx.exec1("SELECT current_setting('application_name')")[0].as<std::string>(); });
    EXPECT_EQ(name, "syncml-server");
}

TEST_F(database_test, turns_sql_errors_into_non_retryable_db_errors) {
    database db(url());
    int attempts = 0;
    try {
        in_transaction(db, [&](pqxx::work& tx) {
            ++attempts;
            tx.exec("SELEC 1");
        });
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        EXPECT_FALSE(error.retryable());
        EXPECT_EQ(error.sqlstate(), "42601");
    }
    EXPECT_EQ(attempts, 1);
}

TEST_F(database_test, retries_serialization_failures) {
    database db(url());
    int attempts = 0;
    const int value = in_transaction(db, [&](pqxx::work& tx) {
        if (++attempts < 3) throw pqxx::serialization_failure("simulated conflict");
        return tx.exec1("SELECT 7")[0].as<int>();
    });
    EXPECT_EQ(value, 7);
    EXPECT_EQ(attempts, 3);
}

// Write skew under SERIALIZABLE: both transactions read the table, then insert; PostgreSQL aborts
// one of them with 40001, and in_transaction runs it again after the other committed.
TEST_F(database_test, retries_real_serialization_failures) {
    {
        database setup(url());
        in_transaction(setup, [](pqxx::work& tx) { tx.exec("CREATE TABLE ledger (amount int)"); });
    }
    std::atomic<int> attempts{0};
    std::latch both_read(2);
    auto writer = [&] {
        database db(url());
        in_transaction<pqxx::isolation_level::serializable>(db, [&](auto& tx) {
            const bool first = attempts.fetch_add(1) < 2;
            const int total = tx.exec1("SELECT coalesce(sum(amount), 0) FROM ledger")[0].template as<int>();
            if (first) both_read.arrive_and_wait();
            tx.exec_params("INSERT INTO ledger VALUES ($1)", total + 1);
        });
    };
    std::thread a(writer);
    std::thread b(writer);
    a.join();
    b.join();
    EXPECT_GE(attempts, 3);  // at least one retry; more if the retry raced the other commit
    database check(url());
    // Serial order: the second writer saw the first one's row.
    EXPECT_EQ(
        in_transaction(check, [](pqxx::work& tx) { return tx.exec1("SELECT max(amount) FROM ledger")[0].as<int>(); }),
        2);
}

TEST_F(database_test, gives_up_after_the_last_attempt_with_a_retryable_error) {
    database db(url());
    int attempts = 0;
    try {
        in_transaction(db, [&](pqxx::work&) {
            ++attempts;
            throw pqxx::deadlock_detected("simulated deadlock");
        });
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        EXPECT_TRUE(error.retryable());
    }
    EXPECT_EQ(attempts, retry_policy{}.attempts);
}

TEST_F(database_test, never_retries_an_in_doubt_commit) {
    database db(url());
    int attempts = 0;
    try {
        in_transaction(db, [&](pqxx::work&) {
            ++attempts;
            throw pqxx::in_doubt_error("simulated lost commit");
        });
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        EXPECT_FALSE(error.retryable());
    }
    EXPECT_EQ(attempts, 1);
}

TEST_F(database_test, passes_other_exceptions_through_and_rolls_back) {
    database db(url());
    in_transaction(db, [](pqxx::work& tx) { tx.exec("CREATE TABLE t (x int)"); });
    EXPECT_THROW(in_transaction(db,
                                [](pqxx::work& tx) {
                                    tx.exec("INSERT INTO t VALUES (1)");
                                    throw not_found("domain error");
                                }),
                 not_found);
    EXPECT_EQ(in_transaction(db, [](pqxx::work& tx) { return tx.exec1("SELECT count(*) FROM t")[0].as<int>(); }), 0);
}

}  // namespace
}  // namespace syncml::persistence

namespace syncml::persistence {
namespace {

TEST(with_plain_keys, turns_hidden_keys_into_plain_parameters_and_leaves_the_rest) {
    EXPECT_EQ(detail::with_plain_keys("WHERE a = (SELECT $1::bigint) AND b = (SELECT $12::bigint) AND c = $3"),
              "WHERE a = $1::bigint AND b = $12::bigint AND c = $3");
    EXPECT_EQ(detail::with_plain_keys("x IN (SELECT $1::text) OR y = (SELECT $::bigint) OR (SELECT $2::bigint"),
              "x IN (SELECT $1::text) OR y = (SELECT $::bigint) OR (SELECT $2::bigint");
    EXPECT_EQ(detail::with_plain_keys(""), "");
}

}  // namespace
}  // namespace syncml::persistence

namespace syncml::persistence {
namespace {

// A shard that moved away under a delegated function (Citus) is worth another try; other internal errors are not.
TEST(is_retryable, retries_a_transaction_that_met_a_shard_moving_away) {
    const pqxx::sql_error moved(
        "ERROR:  cannot execute a distributed query from a query on a shard\nDETAIL:  Executing a distributed query "
        "in a function call that may be pushed to a remote node can lead to incorrect results.\n",
        "SELECT * FROM syncml_open_session(...)", "XX000");
    EXPECT_TRUE(detail::is_retryable(moved, nullptr));
    const pqxx::sql_error other("ERROR:  unexpected internal error\n", "SELECT 1", "XX000");
    EXPECT_FALSE(detail::is_retryable(other, nullptr));
}

}  // namespace
}  // namespace syncml::persistence
