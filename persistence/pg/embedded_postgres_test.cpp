#include "persistence/pg/embedded_postgres.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "persistence/pg/database.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/worker_pool.hpp"

namespace syncml::persistence {
namespace {

namespace fs = std::filesystem;

bool pg_installed() { return access("/usr/lib/postgresql/15/bin/initdb", X_OK) == 0; }

class embedded_postgres_test : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!pg_installed()) GTEST_SKIP() << "PostgreSQL 15 server binaries are not installed";
        std::string pattern = (fs::temp_directory_path() / "syncml-embedded-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
    }
    void TearDown() override {
        if (!dir_.empty()) fs::remove_all(dir_);
    }
    std::string data_dir() const { return dir_ + "/data"; }

    static int count_rows(const std::string& url) {
        database db(url);
        return in_transaction(db, [](pqxx::work& tx) { return tx.exec1("SELECT count(*) FROM kept")[0].as<int>(); });
    }

    std::string dir_;
};

TEST_F(embedded_postgres_test, initializes_starts_stops_and_restarts_with_its_data) {
    embedded_postgres pg({data_dir()});
    pg.start();
    ASSERT_TRUE(pg.running());
    EXPECT_NE(pg.port(), 0u);
    EXPECT_NE(pg.url().find("/syncml"), std::string::npos);
    {
        database db(pg.url());
        in_transaction(db, [](pqxx::work& tx) {
            tx.exec("CREATE TABLE kept (x int)");
            tx.exec("INSERT INTO kept VALUES (1), (2)");
            // Listens on loopback TCP only.
            EXPECT_EQ(tx.exec1("SHOW listen_addresses")[0].as<std::string>(), "127.0.0.1");
        });
    }
    EXPECT_TRUE(fs::exists(data_dir() + "/pgdata/.s.PGSQL." + std::to_string(pg.port())));
    embedded_postgres intruder({data_dir()});
    try {
        intruder.start();
        FAIL() << "a second owner of one data directory must be refused";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("another process"), std::string::npos) << error.what();
    }
    EXPECT_EQ(count_rows(pg.url()), 2);  // the refused start left the running cluster alone
    EXPECT_EQ(embedded_postgres::running_url(data_dir()), pg.url());
    const auto first_url = pg.url();
    pg.stop();
    EXPECT_FALSE(embedded_postgres::running_url(data_dir()));
    EXPECT_FALSE(pg.running());
    database gone(first_url);
    EXPECT_FALSE(gone.ensure_connected());

    pg.start();
    EXPECT_EQ(count_rows(pg.url()), 2);
    pg.stop();

    // A crash leaves postmaster.pid behind with a process id that no longer exists.
    std::ofstream(data_dir() + "/pgdata/postmaster.pid") << "999999\n"
                                                         << data_dir() << "/pgdata\n1700000000\n5432\n\n\n";
    pg.start();
    EXPECT_EQ(count_rows(pg.url()), 2);
}

TEST_F(embedded_postgres_test, takes_over_a_server_left_running_by_a_killed_process) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // Start, then vanish without running any destructor, like a process killed by SIGKILL.
        try {
            auto* orphan = new embedded_postgres({data_dir()});  // never deleted: _exit follows
            orphan->start();
            database db(orphan->url());
            in_transaction(db, [](pqxx::work& tx) { tx.exec("CREATE TABLE kept AS SELECT 1 AS x"); });
        } catch (...) {
            _exit(1);
        }
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_TRUE(fs::exists(data_dir() + "/pgdata/postmaster.pid"));

    embedded_postgres pg({data_dir()});
    pg.start();
    EXPECT_EQ(count_rows(pg.url()), 1);
}

// The server keeps running through a database outage: jobs fail with a retryable error while
// PostgreSQL is down and succeed again, on new connections, once it is back.
TEST_F(embedded_postgres_test, worker_pool_recovers_from_a_database_restart) {
    auto pg = std::make_unique<embedded_postgres>(embedded_settings{data_dir()});
    pg->start();
    const auto port = pg->port();
    worker_pool pool({{pg->url()}, 2, 10});
    auto query = [&pool] {
        auto result = std::make_shared<std::promise<int>>();
        pool.try_submit([result](database& db) {
            try {
                result->set_value(
                    in_transaction(db, [](pqxx::work& tx) { return tx.exec1("SELECT 41 + 1")[0].as<int>(); }));
            } catch (const db_error& error) {
                result->set_value(error.retryable() ? -1 : -2);
            }
        });
        return result->get_future().get();
    };
    EXPECT_EQ(query(), 42);
    pg.reset();  // stops PostgreSQL
    EXPECT_EQ(query(), -1);
    EXPECT_EQ(query(), -1);
    embedded_settings same_port{data_dir()};
    same_port.port = port;
    pg = std::make_unique<embedded_postgres>(same_port);
    pg->start();
    EXPECT_EQ(query(), 42);
    EXPECT_EQ(query(), 42);
}

std::string first_line(const std::string& path) {
    std::string line;
    std::ifstream in(path);
    std::getline(in, line);
    return line;
}

std::string superuser_url(const std::string& data_dir, unsigned port, const std::string& database) {
    return "postgresql://syncml:" + first_line(data_dir + "/postgres.password") + "@127.0.0.1:" + std::to_string(port) +
           "/" + database;
}

unsigned mode_of(const std::string& path) {
    struct stat info {};
    EXPECT_EQ(lstat(path.c_str(), &info), 0) << path;
    return info.st_mode & 07777;
}

TEST_F(embedded_postgres_test, the_server_role_owns_its_database_and_is_no_superuser) {
    embedded_postgres pg({data_dir()});
    pg.start();
    EXPECT_EQ(pg.url().find("postgresql://syncml_app:"), 0u);
    database db(pg.url());
    EXPECT_GT(apply_migrations(db).to, 0);  // tables, triggers and plpgsql functions as the database owner
    in_transaction(db, [](pqxx::work& tx) {
        const auto role = tx.exec1(
            "SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, "
            "pg_get_userbyid((SELECT datdba FROM pg_database WHERE datname = current_database())) = current_user "
            "FROM pg_roles WHERE rolname = current_user");
        for (int column = 0; column < 5; ++column) EXPECT_FALSE(role[column].as<bool>()) << column;
        EXPECT_TRUE(role[5].as<bool>());
        EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner <> "
                           "current_user")[0]
                      .as<int>(),
                  0);
    });
    {
        pqxx::connection connection(pg.url());
        pqxx::nontransaction tx(connection);
        EXPECT_THROW(tx.exec("COPY (SELECT 1) TO PROGRAM 'true'"), pqxx::sql_error);  // superuser only
    }
    EXPECT_EQ(embedded_postgres::running_url(data_dir()), pg.url());
    // The password files are the process's own, 0600, in a directory others cannot read.
    EXPECT_EQ(mode_of(data_dir() + "/app.password"), 0600u);
    EXPECT_EQ(mode_of(data_dir() + "/postgres.password"), 0600u);
    EXPECT_EQ(mode_of(data_dir()) & 0066, 0u);
}

// A data directory of an older version: the superuser owned the database and every migrated object.
TEST_F(embedded_postgres_test, takes_an_older_data_directory_over_from_the_superuser) {
    unsigned port = 0;
    {
        embedded_postgres pg({data_dir()});
        pg.start();
        port = pg.port();
        {
            pqxx::connection connection(superuser_url(data_dir(), port, "postgres"));
            pqxx::nontransaction tx(connection);
            tx.exec("DROP DATABASE syncml");
            tx.exec("CREATE DATABASE syncml");  // owned by the superuser, as before
        }
        database old(superuser_url(data_dir(), port, "syncml"));
        apply_migrations(old);
        in_transaction(old, [](pqxx::work& tx) { tx.exec("CREATE TABLE kept AS SELECT 1 AS x"); });
    }
    fs::remove(data_dir() + "/app.password");

    embedded_settings same_port{data_dir()};
    same_port.port = port;
    embedded_postgres pg(same_port);
    pg.start();
    EXPECT_EQ(count_rows(pg.url()), 1);
    database db(pg.url());
    const auto outcome = apply_migrations(db);
    EXPECT_EQ(outcome.from, outcome.to);
    in_transaction(db, [](pqxx::work& tx) {
        EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner <> "
                           "current_user")[0]
                      .as<int>(),
                  0);
        EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                           "WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> current_user")[0]
                      .as<int>(),
                  0);
        // Owner rights: a later migration may alter the old tables.
        tx.exec("ALTER TABLE kept ADD COLUMN y int");
        tx.exec("INSERT INTO kept VALUES (2, 2)");
    });
}

TEST_F(embedded_postgres_test, writes_no_password_through_a_planted_symbolic_link) {
    fs::create_directories(data_dir());
    const std::string target = dir_ + "/elsewhere";
    std::ofstream(target) << "untouched\n";
    fs::create_symlink(target, data_dir() + "/postgres.password");
    embedded_postgres pg({data_dir()});
    EXPECT_THROW(pg.start(), std::runtime_error);
    EXPECT_EQ(first_line(target), "untouched");
    EXPECT_FALSE(pg.running());
}

TEST_F(embedded_postgres_test, explains_missing_binaries) {
    embedded_settings settings{data_dir()};
    settings.pg_bin_dir = dir_ + "/no-such-bin";
    embedded_postgres pg(settings);
    try {
        pg.start();
        FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("not found"), std::string::npos) << error.what();
    }
    EXPECT_FALSE(pg.running());
}

TEST_F(embedded_postgres_test, explains_an_unreachable_data_directory_when_root) {
    if (geteuid() != 0) GTEST_SKIP() << "only root hands the cluster to another user";
    const auto locked = dir_ + "/locked";
    fs::create_directory(locked);
    fs::permissions(locked, fs::perms::owner_all);
    embedded_settings settings{locked + "/data"};
    settings.grant_parent_search = false;
    embedded_postgres pg(settings);
    try {
        pg.start();
        FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("cannot reach"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find(locked), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace syncml::persistence
