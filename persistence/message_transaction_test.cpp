#include "persistence/detail/message_transaction.hpp"

#include <gtest/gtest.h>

#include <future>
#include <stdexcept>
#include <string>

#include "persistence/detail/sql_literal.hpp"
#include "persistence/test_support.hpp"

namespace syncml::persistence {
namespace {

using detail::message_transaction;
using namespace std::chrono_literals;

class message_transaction_test : public testing::database_test {
  protected:
    void SetUp() override {
        testing::database_test::SetUp();
        if (IsSkipped()) return;
        db_ = std::make_unique<database>(url());
        in_transaction(*db_, [](pqxx::work& tx) { tx.exec("CREATE TABLE notes (n int PRIMARY KEY)"); });
    }

    std::string notes() {
        return in_transaction(*db_, [](pqxx::work& tx) {
            return tx.exec1("SELECT coalesce(string_agg(n::text, ',' ORDER BY n), '') FROM notes")[0].as<std::string>();
        });
    }

    template <typename Fn>
    void message(Fn&& fn) {
        run_transaction<message_transaction>(*db_, std::forward<Fn>(fn), retry_policy{1, 1ms});
    }

    std::unique_ptr<database> db_;
};

TEST_F(message_transaction_test, the_first_statement_runs_inside_the_transaction_it_begins) {
    EXPECT_THROW(message([](message_transaction& tx) {
                     EXPECT_EQ(tx.begin_with("INSERT INTO notes VALUES (1) RETURNING n")[0][0].as<int>(), 1);
                     tx.exec_params("INSERT INTO notes VALUES ($1)", 2);
                     throw std::runtime_error("engine failed");
                 }),
                 std::runtime_error);
    EXPECT_EQ(notes(), "");
    message([](message_transaction& tx) {
        tx.begin_with("INSERT INTO notes VALUES (1)");
        tx.exec_params("INSERT INTO notes VALUES ($1)", 2);
    });
    EXPECT_EQ(notes(), "1,2");
}

TEST_F(message_transaction_test, begin_with_after_other_statements_runs_in_the_same_transaction) {
    EXPECT_THROW(message([](message_transaction& tx) {
                     tx.exec_params("INSERT INTO notes VALUES ($1)", 1);
                     tx.begin_with("INSERT INTO notes VALUES (2)");
                     throw std::runtime_error("engine failed");
                 }),
                 std::runtime_error);
    EXPECT_EQ(notes(), "");
}

TEST_F(message_transaction_test, bound_statements_begin_the_transaction_too) {
    // pqxx sends BEGIN only before exec(); prepared and parameter statements must not run in autocommit.
    EXPECT_THROW(message([](message_transaction& tx) {
                     tx.conn().prepare("add_note", "INSERT INTO notes VALUES ($1)");
                     tx.exec_prepared("add_note", 1);
                     tx.exec_params("INSERT INTO notes VALUES ($1)", 2);
                     throw std::runtime_error("engine failed");
                 }),
                 std::runtime_error);
    EXPECT_EQ(notes(), "");
}

TEST_F(message_transaction_test, the_final_statement_commits_with_the_rest) {
    message([](message_transaction& tx) {
        tx.begin_with("INSERT INTO notes VALUES (1)");
        tx.finish_with("INSERT INTO notes VALUES (3)");
    });
    EXPECT_EQ(notes(), "1,3");
}

TEST_F(message_transaction_test, a_statement_after_the_final_one_sees_its_effect) {
    int seen = 0;
    message([&](message_transaction& tx) {
        tx.begin_with("INSERT INTO notes VALUES (1)");
        tx.finish_with("INSERT INTO notes VALUES (2)");
        seen = tx.exec_params("SELECT count(*) FROM notes WHERE n > $1", 0)[0][0].as<int>();
        tx.finish_with("INSERT INTO notes VALUES (3)");
        tx.finish_with("INSERT INTO notes VALUES (4)");
    });
    EXPECT_EQ(seen, 2);
    EXPECT_EQ(notes(), "1,2,3,4");
}

TEST_F(message_transaction_test, a_final_statement_alone_is_committed) {
    message([](message_transaction& tx) { tx.finish_with("INSERT INTO notes VALUES (5)"); });
    EXPECT_EQ(notes(), "5");
}

TEST_F(message_transaction_test, a_failing_final_statement_rolls_everything_back_and_leaves_the_connection_usable) {
    message([](message_transaction& tx) { tx.begin_with("INSERT INTO notes VALUES (1)"); });
    try {
        message([](message_transaction& tx) {
            tx.begin_with("INSERT INTO notes VALUES (2)");
            tx.finish_with("INSERT INTO notes VALUES (1)");  // duplicate key
        });
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        EXPECT_EQ(error.sqlstate(), "23505");
    }
    EXPECT_EQ(notes(), "1");
    // Had the aborted transaction stayed open, this would fail with "current transaction is aborted".
    message([](message_transaction& tx) {
        tx.begin_with("INSERT INTO notes VALUES (7)");
        tx.finish_with("INSERT INTO notes VALUES (8)");
    });
    EXPECT_EQ(notes(), "1,7,8");
}

TEST_F(message_transaction_test, a_failing_first_statement_leaves_the_connection_usable) {
    EXPECT_THROW(message([](message_transaction& tx) { tx.begin_with("SELECT 1/0"); }), db_error);
    message([](message_transaction& tx) {
        tx.begin_with("INSERT INTO notes VALUES (1)");
        tx.exec_params("INSERT INTO notes VALUES ($1)", 2);
    });
    EXPECT_EQ(notes(), "1,2");
}

TEST_F(message_transaction_test, a_commit_on_a_lost_connection_is_in_doubt_and_not_retried) {
    database killer(url());
    int attempts = 0;
    try {
        run_transaction<message_transaction>(
            *db_,
            [&](message_transaction& tx) {
                ++attempts;
                const auto pid = tx.begin_with("SELECT pg_backend_pid()")[0][0].as<int>();
                in_transaction(killer,
                               [&](pqxx::work& k) { k.exec_params("SELECT pg_terminate_backend($1, 10000)", pid); });
                tx.finish_with("INSERT INTO notes VALUES (1)");
            },
            retry_policy{3, 1ms});
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        EXPECT_FALSE(error.retryable()) << error.what();
    }
    EXPECT_EQ(attempts, 1);
    EXPECT_EQ(notes(), "");
}

TEST_F(message_transaction_test, holds_the_row_locks_of_its_first_statement_until_commit) {
    message([](message_transaction& tx) { tx.begin_with("INSERT INTO notes VALUES (1)"); });
    std::promise<void> locked;
    std::promise<void> release;
    auto holder = std::async(std::launch::async, [&] {
        database db(url());
        run_transaction<message_transaction>(db, [&](message_transaction& tx) {
            tx.begin_with("SELECT n FROM notes WHERE n = 1 FOR UPDATE");
            locked.set_value();
            release.get_future().wait();
            tx.finish_with("UPDATE notes SET n = 2 WHERE n = 1");
        });
    });
    locked.get_future().wait();
    auto waiter = std::async(std::launch::async, [&] {
        database db(url());
        return in_transaction(
            db, [](pqxx::work& tx) { return tx.exec("UPDATE notes SET n = n + 10 RETURNING n")[0][0].as<int>(); });
    });
    EXPECT_EQ(waiter.wait_for(300ms), std::future_status::timeout);
    release.set_value();
    holder.get();
    EXPECT_EQ(waiter.get(), 12);
}

TEST(sql_literal, accepts_utf8_and_refuses_what_postgresql_would_not_read_back) {
    using detail::literal_safe;
    EXPECT_TRUE(literal_safe(""));
    EXPECT_TRUE(literal_safe("IMEI:35-209900-176148-1"));
    EXPECT_TRUE(
        literal_safe("Gr\xC3\xBC\xC3\x9F"
                     "e \xE2\x82\xAC \xF0\x9F\x93\xB1 it's"));
    EXPECT_FALSE(literal_safe(std::string("a\0b", 3)));
    EXPECT_FALSE(literal_safe("latin-1 \xFC"));      // a lone ISO-8859-1 byte
    EXPECT_FALSE(literal_safe("\xC3"));              // cut short
    EXPECT_FALSE(literal_safe("\xC0\xAF"));          // overlong '/'
    EXPECT_FALSE(literal_safe("\xED\xA0\x80"));      // a UTF-16 surrogate
    EXPECT_FALSE(literal_safe("\xF4\x90\x80\x80"));  // beyond U+10FFFF
}

}  // namespace
}  // namespace syncml::persistence
