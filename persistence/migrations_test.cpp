#include "persistence/migrations.hpp"

#include <gtest/gtest.h>

#include <latch>
#include <thread>
#include <vector>

#include "persistence/test_support.hpp"

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
