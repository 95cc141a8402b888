// migrations/functions/: every function of the schema has one file, and a migrated database runs exactly its body.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>

#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using schema_functions_test = testing::database_test;

// The text between the definition's dollar quotes ($$ or $tag$), which PostgreSQL keeps as the function's prosrc (the
// header before them has no dollar sign).
std::string body_of(std::string_view sql) {
    const auto open = sql.find('$', sql.find("CREATE OR REPLACE FUNCTION"));
    const auto tag_end = sql.find('$', open + 1);
    if (open == std::string_view::npos || tag_end == std::string_view::npos) return {};
    const auto tag = sql.substr(open, tag_end - open + 1);
    const auto close = sql.find(tag, tag_end + 1);
    if (close == std::string_view::npos) return {};
    return std::string(sql.substr(tag_end + 1, close - tag_end - 1));
}

// Name -> bodies of the functions in the test's schema (more than one body: overloads).
std::multimap<std::string, std::string> functions_in(database& db) {
    return in_transaction(db, [](pqxx::work& tx) {
        std::multimap<std::string, std::string> found;
        for (const auto& row : tx.exec("SELECT proname, prosrc FROM pg_proc "
                                       "WHERE pronamespace = current_schema()::regnamespace")) {
            found.emplace(row["proname"].as<std::string>(), row["prosrc"].as<std::string>());
        }
        return found;
    });
}

std::string body_in(database& db, const std::string& name) {
    return in_transaction(db, [&](pqxx::work& tx) {
        return tx
            .exec_params1(
                "SELECT prosrc FROM pg_proc WHERE pronamespace = current_schema()::regnamespace "
                "AND proname = $1",
                name)[0]
            .as<std::string>();
    });
}

// A definition of syncml_utf8 that no file has, as someone's hand or another binary would leave it.
void replace_utf8_by_hand(database& db) {
    in_transaction(db, [](pqxx::work& tx) {
        tx.exec(
            "CREATE OR REPLACE FUNCTION syncml_utf8(p_bytes bytea) RETURNS text LANGUAGE sql IMMUTABLE STRICT "
            "PARALLEL SAFE AS $$ SELECT 'by hand' $$");
    });
}

TEST(embedded_functions, are_named_after_the_function_they_define_once) {
    const auto& all = embedded_functions();
    ASSERT_FALSE(all.empty());
    for (std::size_t i = 0; i < all.size(); ++i) {
        const std::string create = "CREATE OR REPLACE FUNCTION " + std::string(all[i].name) + "(";
        EXPECT_NE(all[i].sql.find(create), std::string_view::npos) << all[i].name;
        EXPECT_EQ(all[i].sql.find("CREATE", all[i].sql.find(create) + 1), std::string_view::npos) << all[i].name;
        EXPECT_FALSE(body_of(all[i].sql).empty()) << all[i].name;
        if (i > 0) {
            EXPECT_LT(all[i - 1].name, all[i].name);
        }
    }
}

TEST_F(schema_functions_test, of_a_migrated_database_are_exactly_the_files) {
    database db(url());
    apply_migrations(db);
    const auto found = functions_in(db);
    for (const auto& function : embedded_functions()) {
        const std::string name(function.name);
        ASSERT_EQ(found.count(name), 1u) << "function " << name << ": one definition expected (an overload left?)";
        EXPECT_EQ(found.find(name)->second, body_of(function.sql))
            << "function " << name << " differs from migrations/functions/" << name << ".sql";
    }
    for (const auto& [name, body] : found) {
        bool has_file = false;
        for (const auto& function : embedded_functions()) has_file = has_file || function.name == name;
        EXPECT_TRUE(has_file) << "function " << name << " has no file in migrations/functions";
    }
}

TEST_F(schema_functions_test, stay_as_they_are_when_migrate_applies_nothing) {
    database db(url());
    apply_migrations(db);
    replace_utf8_by_hand(db);
    const auto outcome = apply_migrations(db);
    EXPECT_EQ(outcome.from, latest_schema_version());
    EXPECT_EQ(body_in(db, "syncml_utf8"), " SELECT 'by hand' ");
}

// During a rollout an instance of the release before may run migrate: its definitions are older than the schema's.
TEST_F(schema_functions_test, are_not_replaced_in_a_schema_newer_than_the_binary) {
    database db(url());
    apply_migrations(db);
    replace_utf8_by_hand(db);
    const int newer = latest_schema_version() + 1;
    in_transaction(db, [&](pqxx::work& tx) {
        tx.exec_params("INSERT INTO schema_migrations (version, name, backward_compatible) VALUES ($1, 'next', true)",
                       newer);
    });
    const auto outcome = apply_migrations(db);
    EXPECT_EQ(outcome.from, newer);
    EXPECT_EQ(outcome.to, newer);
    EXPECT_EQ(body_in(db, "syncml_utf8"), " SELECT 'by hand' ");
}

}  // namespace
}  // namespace syncml::persistence
