#include "persistence/accounts/user_items.hpp"

#include <gtest/gtest.h>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

class user_items_test : public testing::migrated_database_test {
  protected:
    database& db() { return *db_; }
};

// The message names what is missing: the admin API hands it to the caller.
template <typename Call>
std::string not_found_message(Call call) {
    try {
        call();
    } catch (const not_found& e) {
        return e.what();
    }
    return "no not_found";
}

TEST_F(user_items_test, require_user_finds_the_ids_of_a_tenants_user) {
    add_tenant(db(), "acme");
    const auto alice = add_user(db(), "acme", "alice", "pw");
    add_user(db(), default_tenant, "alice", "pw");
    const auto ids = require_user(db(), "acme", "alice");
    EXPECT_EQ(ids.tenant, alice.tenant_id);
    EXPECT_EQ(ids.user, alice.id);
}

TEST_F(user_items_test, require_user_names_the_unknown_tenant_or_user) {
    add_tenant(db(), "acme");
    EXPECT_EQ(not_found_message([&] { require_user(db(), "nowhere", "alice"); }), "no tenant named 'nowhere'");
    EXPECT_EQ(not_found_message([&] { require_user(db(), "acme", "bob"); }), "no user 'bob' in tenant 'acme'");
}

TEST_F(user_items_test, lists_the_live_items_of_a_new_user_as_none) {
    add_user(db(), default_tenant, "carol", "pw");
    const auto ids = require_user(db(), default_tenant, "carol");
    EXPECT_TRUE(live_user_items(db(), ids).empty());
    EXPECT_TRUE(live_user_items(db(), ids, common::item_kind::contact).empty());
}

}  // namespace
}  // namespace syncml::persistence
