#include "persistence/pg/migrations.hpp"

#include <gtest/gtest.h>

#include <latch>
#include <thread>
#include <vector>

#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using migrations_test = testing::database_test;

TEST(embedded_migrations, are_numbered_from_one_without_gaps) {
    const auto& all = embedded_migrations();
    ASSERT_FALSE(all.empty());
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].version, static_cast<int>(i + 1));
        EXPECT_FALSE(all[i].name.empty());
        EXPECT_FALSE(all[i].sql.empty());
    }
    EXPECT_EQ(latest_schema_version(), static_cast<int>(all.size()));
    EXPECT_EQ(all.front().name, "initial");
}

TEST_F(migrations_test, apply_to_an_empty_database_and_are_idempotent) {
    database db(url());
    EXPECT_EQ(current_schema_version(db), 0);
    const auto first = apply_migrations(db);
    EXPECT_EQ(first.from, 0);
    EXPECT_EQ(first.to, latest_schema_version());
    EXPECT_EQ(current_schema_version(db), latest_schema_version());
    const auto second = apply_migrations(db);
    EXPECT_EQ(second.from, latest_schema_version());
    EXPECT_EQ(second.to, latest_schema_version());
    const auto rows = in_transaction(
        db, [](pqxx::work& tx) { return tx.exec1("SELECT count(*) FROM schema_migrations")[0].as<int>(); });
    EXPECT_EQ(rows, latest_schema_version());
}

TEST_F(migrations_test, create_the_default_tenant) {
    database db(url());
    apply_migrations(db);
    const auto count = in_transaction(db, [](pqxx::work& tx) {
        return tx.exec1("SELECT count(*) FROM tenants WHERE name = 'default'")[0].as<int>();
    });
    EXPECT_EQ(count, 1);
}

TEST_F(migrations_test, run_exactly_once_when_several_connections_migrate_at_once) {
    constexpr int k_migrators = 4;
    std::vector<migration_outcome> outcomes(k_migrators);
    std::latch ready(k_migrators);
    std::vector<std::thread> threads;
    for (int i = 0; i < k_migrators; ++i) {
        threads.emplace_back([&, i] {
            database db(url());
            db.ensure_connected();
            ready.arrive_and_wait();
            outcomes[i] = apply_migrations(db);
        });
    }
    for (auto& thread : threads) thread.join();
    int migrated = 0;
    for (const auto& outcome : outcomes) {
        EXPECT_EQ(outcome.to, latest_schema_version());
        if (outcome.from == 0) {
            ++migrated;
        } else {
            EXPECT_EQ(outcome.from, latest_schema_version());
        }
    }
    EXPECT_EQ(migrated, 1);
    database db(url());
    EXPECT_EQ(current_schema_version(db), latest_schema_version());
}

TEST_F(migrations_test, refuse_a_database_newer_than_the_binary) {
    database db(url());
    apply_migrations(db);
    in_transaction(db, [](pqxx::work& tx) {
        tx.exec_params("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from_the_future')",
                       latest_schema_version() + 1);
    });
    try {
        apply_migrations(db);
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        EXPECT_FALSE(error.retryable());
        EXPECT_NE(std::string(error.what()).find("newer"), std::string::npos);
    }
}

// Inserts a migration row newer than this binary, as a later release's `migrate` would have recorded it.
void record_future_migration(database& db, int version, bool backward_compatible) {
    in_transaction(db, [&](pqxx::work& tx) {
        tx.exec_params("INSERT INTO schema_migrations (version, name, backward_compatible) VALUES ($1, 'future', $2)",
                       version, backward_compatible);
    });
}

TEST_F(migrations_test, leave_a_newer_schema_alone_when_every_newer_migration_is_backward_compatible) {
    database db(url());
    apply_migrations(db);
    const int latest = latest_schema_version();
    record_future_migration(db, latest + 1, true);
    record_future_migration(db, latest + 2, true);
    const auto status = read_schema_status(db);
    EXPECT_EQ(status.current, latest + 2);
    EXPECT_EQ(status.latest, latest);
    EXPECT_EQ(status.first_incompatible, 0);
    EXPECT_TRUE(status.usable());
    const auto outcome = apply_migrations(db);
    EXPECT_EQ(outcome.from, latest + 2);
    EXPECT_EQ(outcome.to, latest + 2);
}

TEST_F(migrations_test, name_the_first_newer_migration_that_is_not_backward_compatible) {
    database db(url());
    apply_migrations(db);
    const int latest = latest_schema_version();
    record_future_migration(db, latest + 1, true);
    record_future_migration(db, latest + 2, false);
    record_future_migration(db, latest + 3, false);
    const auto status = read_schema_status(db);
    EXPECT_EQ(status.first_incompatible, latest + 2);
    EXPECT_FALSE(status.usable());
    try {
        apply_migrations(db);
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        const std::string expected = "migration " + std::to_string(latest + 2) + " is not";
        EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
}

TEST_F(migrations_test, record_each_migrations_declared_compatibility) {
    database db(url());
    apply_migrations(db);
    for (const auto& step : embedded_migrations()) {
        const auto recorded = in_transaction(db, [&](pqxx::work& tx) {
            return tx
                .exec_params1("SELECT backward_compatible FROM schema_migrations WHERE version = $1", step.version)[0]
                .as<bool>();
        });
        EXPECT_EQ(recorded, declared_compatibility(step.sql) == migration_compatibility::backward_compatible)
            << step.version;
    }
}

// A version table from a release before the declarations: the column is added, and newer rows that some other
// binary wrote without it count as not compatible.
TEST_F(migrations_test, add_the_compatibility_column_to_an_older_version_table) {
    database db(url());
    in_transaction(db, [](pqxx::work& tx) {
        tx.exec(
            "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, "
            "applied_at timestamptz NOT NULL DEFAULT now())");
        tx.exec_params("INSERT INTO schema_migrations (version, name) VALUES ($1, 'future')",
                       latest_schema_version() + 1);
    });
    const auto status = read_schema_status(db);
    EXPECT_EQ(status.first_incompatible, latest_schema_version() + 1);
    EXPECT_FALSE(status.usable());
    in_transaction(db, [](pqxx::work& tx) { tx.exec("DELETE FROM schema_migrations"); });
    apply_migrations(db);
    EXPECT_TRUE(read_schema_status(db).usable());
    record_future_migration(db, latest_schema_version() + 1, true);
    EXPECT_TRUE(read_schema_status(db).usable());
}

TEST(migration_compatibility, is_read_from_the_header_comment) {
    EXPECT_EQ(declared_compatibility("-- Adds a table.\n-- backward-compatible: yes\nCREATE TABLE t (x int);\n"),
              migration_compatibility::backward_compatible);
    EXPECT_EQ(declared_compatibility("\n--   backward-compatible:   no  \r\nALTER TABLE t DROP COLUMN x;"),
              migration_compatibility::breaking);
    EXPECT_EQ(declared_compatibility("-- backward-compatible: maybe\nSELECT 1;"), migration_compatibility::invalid);
    EXPECT_EQ(declared_compatibility("-- Adds a table.\nCREATE TABLE t (x int);\n"),
              migration_compatibility::undeclared);
    // Below the first statement it is an ordinary comment, not the file's declaration.
    EXPECT_EQ(declared_compatibility("CREATE TABLE t (x int);\n-- backward-compatible: yes\n"),
              migration_compatibility::undeclared);
    EXPECT_EQ(declared_compatibility(""), migration_compatibility::undeclared);
}

// Migrations up to 0016 predate the declarations and count as not compatible; every later one says what it is,
// so its author decided whether the previous release's instances may stay ready while it is applied.
TEST(embedded_migrations, declare_their_compatibility) {
    constexpr int k_last_undeclared = 16;
    for (const auto& step : embedded_migrations()) {
        const auto declared = declared_compatibility(step.sql);
        EXPECT_NE(declared, migration_compatibility::invalid)
            << "migration " << step.version << ": `-- backward-compatible:` takes yes or no";
        if (step.version > k_last_undeclared) {
            EXPECT_NE(declared, migration_compatibility::undeclared)
                << "migration " << step.version << " (" << step.name
                << "): add `-- backward-compatible: yes` or `no` to its header comment (deploy/README.md, Rollouts)";
        }
    }
}

TEST_F(migrations_test, name_the_migration_that_failed_and_apply_nothing) {
    database db(url());
    // A table the first migration wants to create makes it fail halfway.
    in_transaction(db, [](pqxx::work& tx) { tx.exec("CREATE TABLE items (x int)"); });
    try {
        apply_migrations(db);
        FAIL() << "expected db_error";
    } catch (const db_error& error) {
        EXPECT_NE(std::string(error.what()).find("0001_initial"), std::string::npos) << error.what();
        EXPECT_EQ(error.sqlstate(), "42P07");  // duplicate_table
    }
    EXPECT_EQ(current_schema_version(db), 0);
    const auto tenants_exist =
        in_transaction(db, [](pqxx::work& tx) { return !tx.exec1("SELECT to_regclass('tenants')")[0].is_null(); });
    EXPECT_FALSE(tenants_exist);
}

// DESIGN.md section 3: tenant_id leads every key and index of tenant data, so the schema can be
// sharded by tenant. Server-wide tables without tenant_id are not tenant data.
TEST_F(migrations_test, key_every_index_by_tenant_first) {
    database db(url());
    apply_migrations(db);
    const auto offenders = in_transaction(db, [&](pqxx::work& tx) {
        std::vector<std::string> names;
        const auto rows = tx.exec_params(
            "SELECT i.indexrelid::regclass::text, a.attname FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0] "
            "WHERE n.nspname = $1 AND c.relname <> 'tenants' AND EXISTS (SELECT 1 FROM pg_attribute t "
            "WHERE t.attrelid = c.oid AND t.attname = 'tenant_id')",
            schema());
        EXPECT_GT(rows.size(), 10u);
        for (const auto& row : rows) {
            if (row[1].as<std::string>() != "tenant_id") names.push_back(row[0].as<std::string>());
        }
        return names;
    });
    EXPECT_TRUE(offenders.empty()) << "first index column is not tenant_id: " << offenders.front();
}

}  // namespace
}  // namespace syncml::persistence

namespace syncml::persistence {
namespace {

// Migration 0023 gives existing users their key as id and every row that names a user follows; users added later get
// theirs at once.
TEST_F(migrations_test, give_users_the_key_of_their_tenant_and_name_as_id) {
    database db(url());
    in_transaction(db, [](pqxx::work& tx) {
        for (const auto& step : embedded_migrations()) {
            if (step.version >= 23) break;
            tx.exec(std::string(step.sql));
        }
        tx.exec(
            "INSERT INTO users (tenant_id, name, password_hash) SELECT tenant_id, n, 'x' FROM tenants, "
            "unnest(ARRAY['alice', 'bob']) n");
        tx.exec(
            "INSERT INTO datastores (tenant_id, user_id, name, kind) SELECT tenant_id, user_id, 'contacts', "
            "'contacts' FROM users");
        tx.exec(
            "INSERT INTO devices (tenant_id, user_id, device_uri) SELECT tenant_id, user_id, 'IMEI:' || name "
            "FROM users");
        for (const auto& step : embedded_migrations()) {
            if (step.version == 23) tx.exec(std::string(step.sql));
        }
        const auto wrong = tx.exec1(
            "SELECT count(*) FILTER (WHERE u.user_id <> syncml_user_key(u.tenant_id, u.name)), "
            "count(*) FILTER (WHERE d.user_id IS NULL OR s.user_id IS NULL), count(*) FROM users u "
            "LEFT JOIN devices d ON d.tenant_id = u.tenant_id AND d.user_id = u.user_id AND d.device_uri = 'IMEI:' || "
            "u.name "
            "LEFT JOIN datastores s ON s.tenant_id = u.tenant_id AND s.user_id = u.user_id");
        EXPECT_EQ(wrong[0].as<int>(), 0) << "every id is the key";
        EXPECT_EQ(wrong[1].as<int>(), 0) << "devices and datastores follow their user";
        EXPECT_EQ(wrong[2].as<int>(), 2);
        EXPECT_EQ(
            tx.exec1("SELECT syncml_user_key(1, 'alice') = syncml_user_key(1, 'alice') AND "
                     "syncml_user_key(1, 'alice') <> syncml_user_key(2, 'alice') AND syncml_user_key(1, 'alice') > 0")
                .at(0)
                .as<bool>(),
            true);
    });
}

}  // namespace
}  // namespace syncml::persistence
