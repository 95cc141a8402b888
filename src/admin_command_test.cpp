#include "src/admin_command.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(admin_parse, reads_every_documented_command) {
    auto add = parse_admin({"tenant", "add", "acme"});
    ASSERT_EQ(add.error, "");
    EXPECT_EQ(add.request.action, admin_action::tenant_add);
    EXPECT_EQ(add.request.tenant, "acme");

    auto user = parse_admin({"user", "add", "--password", "pw", "--tenant", "acme", "--user", "bob"});
    ASSERT_EQ(user.error, "");
    EXPECT_EQ(user.request.action, admin_action::user_add);
    EXPECT_EQ(user.request.user, "bob");
    EXPECT_EQ(user.request.password, "pw");

    auto reset = parse_admin({"device", "reset", "--tenant", "acme", "--device", "IMEI:1234"});
    ASSERT_EQ(reset.error, "");
    EXPECT_EQ(reset.request.action, admin_action::device_reset);
    EXPECT_EQ(reset.request.device, "IMEI:1234");

    auto policy = parse_admin({"tenant", "set", "acme", "--conflict-policy", "client-wins"});
    ASSERT_EQ(policy.error, "");
    EXPECT_EQ(policy.request.action, admin_action::tenant_set);
    EXPECT_EQ(policy.request.tenant, "acme");
    EXPECT_EQ(policy.request.conflict_policy, "client-wins");
    EXPECT_NE(parse_admin({"tenant", "set", "acme"}).error.find("missing --conflict-policy"), std::string::npos);

    EXPECT_EQ(parse_admin({"tenant", "list"}).error, "");
    EXPECT_EQ(parse_admin({"tenant", "delete", "acme"}).error, "");
    EXPECT_EQ(parse_admin({"user", "list", "--tenant", "acme"}).error, "");
    EXPECT_EQ(parse_admin({"device", "list", "--tenant", "acme", "--user", "bob"}).error, "");
}

TEST(admin_parse, names_what_is_missing_or_unexpected) {
    EXPECT_NE(parse_admin({"user", "add", "--tenant", "acme", "--user", "bob"}).error.find("missing --password"),
              std::string::npos);
    EXPECT_NE(parse_admin({"tenant", "add"}).error.find("missing NAME"), std::string::npos);
    EXPECT_NE(parse_admin({"tenant", "list", "extra"}).error.find("unexpected 'extra'"), std::string::npos);
    EXPECT_NE(parse_admin({"user", "list", "--tenant"}).error.find("needs a value"), std::string::npos);
    EXPECT_NE(parse_admin({"user", "list", "--tenant", "a", "--tenant", "b"}).error.find("unexpected"),
              std::string::npos);
    EXPECT_NE(parse_admin({"tenant", "rename", "a"}).error.find("unknown admin command"), std::string::npos);
    EXPECT_NE(parse_admin({"tenant"}).error, "");
}

}  // namespace
}  // namespace syncml::server
