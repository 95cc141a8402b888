#include "persistence/accounts/admin_tokens.hpp"

#include <gtest/gtest.h>

#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/admin_audit.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

class admin_tokens_test : public testing::migrated_database_test {
  protected:
    database& db() { return *db_; }
};

TEST_F(admin_tokens_test, a_token_is_shown_once_and_stored_only_as_its_hash) {
    add_tenant(db(), "acme");
    const std::string all = create_admin_token(db(), "ops", std::nullopt);
    const std::string scoped = create_admin_token(db(), "acme-admin", "acme");
    EXPECT_TRUE(all.starts_with("syncml_")) << all;
    EXPECT_EQ(all.size(), 7u + 64u);
    EXPECT_NE(all, scoped);
    const auto stored = in_transaction(db(), [&](pqxx::work& tx) {
        return tx
            .exec_params1(
                "SELECT count(*) FROM admin_tokens WHERE name = 'ops' AND "
                "token_sha256 = sha256(convert_to($1, 'UTF8')) AND octet_length(token_sha256) = 32",
                all)[0]
            .as<int>();
    });
    EXPECT_EQ(stored, 1);

    const auto ops = verify_admin_token(db(), all);
    ASSERT_TRUE(ops);
    EXPECT_EQ(ops->name, "ops");
    EXPECT_FALSE(ops->tenant);
    EXPECT_TRUE(ops->last_used_at);
    EXPECT_EQ(verify_admin_token(db(), scoped)->tenant, "acme");
    EXPECT_FALSE(verify_admin_token(db(), all.substr(0, all.size() - 1) + (all.back() == '0' ? "1" : "0")));
    EXPECT_FALSE(verify_admin_token(db(), "syncml_"));
    EXPECT_FALSE(verify_admin_token(db(), ""));

    const auto tokens = list_admin_tokens(db());
    ASSERT_EQ(tokens.size(), 2u);
    EXPECT_EQ(tokens[0].name, "acme-admin");
    EXPECT_EQ(tokens[0].tenant, "acme");
    EXPECT_EQ(tokens[1].name, "ops");
}

// A script polling the API writes no row version per request: the use is noted at most once a minute.
TEST_F(admin_tokens_test, verifying_again_within_a_minute_writes_nothing) {
    const std::string token = create_admin_token(db(), "ops", std::nullopt);
    const auto row_version = [&] {
        return in_transaction(db(), [](pqxx::work& tx) {
            return tx.exec1("SELECT xmin::text FROM admin_tokens WHERE name = 'ops'")[0].as<std::string>();
        });
    };
    ASSERT_TRUE(verify_admin_token(db(), token));
    const std::string first = row_version();
    ASSERT_TRUE(verify_admin_token(db(), token));
    ASSERT_TRUE(verify_admin_token(db(), token));
    EXPECT_EQ(row_version(), first);
    in_transaction(
        db(), [](pqxx::work& tx) { tx.exec("UPDATE admin_tokens SET last_used_at = now() - interval '2 minutes'"); });
    const std::string aged = row_version();
    ASSERT_TRUE(verify_admin_token(db(), token));
    EXPECT_NE(row_version(), aged);
}

TEST_F(admin_tokens_test, names_are_unique_and_tenants_must_exist) {
    add_tenant(db(), "acme");
    create_admin_token(db(), "ops", std::nullopt);
    EXPECT_THROW(create_admin_token(db(), "ops", "acme"), already_exists);
    EXPECT_THROW(create_admin_token(db(), "x", "nosuch"), not_found);
    EXPECT_THROW(create_admin_token(db(), "bad name", std::nullopt), std::invalid_argument);
    EXPECT_THROW(delete_admin_token(db(), "nosuch"), not_found);
    EXPECT_EQ(list_admin_tokens(db()).size(), 1u);
}

TEST_F(admin_tokens_test, a_deleted_token_or_tenant_takes_the_token_with_it) {
    add_tenant(db(), "acme");
    const std::string all = create_admin_token(db(), "ops", std::nullopt);
    const std::string scoped = create_admin_token(db(), "acme-admin", "acme");
    delete_admin_token(db(), "ops");
    EXPECT_FALSE(verify_admin_token(db(), all));
    delete_tenant(db(), "acme");
    EXPECT_FALSE(verify_admin_token(db(), scoped));
    EXPECT_TRUE(list_admin_tokens(db()).empty());
}

TEST_F(admin_tokens_test, the_audit_log_lists_newest_first_and_by_tenant) {
    record_audit(db(), {.actor = "cli", .action = "tenant.create", .tenant = "acme", .target = "", .result = "ok"});
    record_audit(
        db(), {.actor = "token:ops", .action = "user.create", .tenant = "acme", .target = "bob", .result = "exists"});
    record_audit(db(), {.actor = "token:ops", .action = "tenant.list", .tenant = "", .target = "", .result = "ok"});
    const auto all = list_audit(db(), "", 10);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].entry.action, "tenant.list");
    EXPECT_EQ(all[0].entry.tenant, "");
    EXPECT_EQ(all[1].entry.target, "bob");
    EXPECT_EQ(all[1].entry.result, "exists");
    EXPECT_GT(all[0].id, all[1].id);
    EXPECT_EQ(all[2].at.size(), 20u);  // 2026-12-04T14:05:00Z
    EXPECT_EQ(list_audit(db(), "acme", 10).size(), 2u);
    EXPECT_EQ(list_audit(db(), "acme", 1).size(), 1u);
    EXPECT_TRUE(list_audit(db(), "other", 10).empty());
}

}  // namespace
}  // namespace syncml::persistence
