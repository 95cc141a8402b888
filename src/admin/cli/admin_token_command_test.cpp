#include "src/admin/cli/admin_token_command.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(admin_token_command, create_needs_a_name_and_exactly_one_scope) {
    auto parsed = parse_token_command({"token", "create", "--name", "ops", "--all"});
    EXPECT_EQ(parsed.error, "");
    EXPECT_EQ(parsed.request.action, token_request::verb::create);
    EXPECT_TRUE(parsed.request.all_tenants);
    parsed = parse_token_command({"token", "create", "--name", "acme-admin", "--tenant", "acme"});
    EXPECT_EQ(parsed.error, "");
    EXPECT_EQ(parsed.request.tenant, "acme");
    EXPECT_NE(parse_token_command({"token", "create", "--name", "x"}).error.find("either --tenant T"),
              std::string::npos);
    EXPECT_NE(parse_token_command({"token", "create", "--name", "x", "--all", "--tenant", "a"}).error.find("either"),
              std::string::npos);
    EXPECT_NE(parse_token_command({"token", "create", "--all"}).error.find("missing --name"), std::string::npos);
    EXPECT_NE(parse_token_command({"token", "create", "--name"}).error.find("needs a value"), std::string::npos);
}

TEST(admin_token_command, delete_needs_yes_and_audit_takes_a_bounded_limit) {
    EXPECT_NE(parse_token_command({"token", "delete", "--name", "ops"}).error.find("--yes"), std::string::npos);
    EXPECT_EQ(parse_token_command({"token", "delete", "--name", "ops", "--yes"}).error, "");
    auto parsed = parse_token_command({"audit", "list", "--tenant", "acme", "--limit", "5", "--json"});
    EXPECT_EQ(parsed.error, "");
    EXPECT_EQ(parsed.request.limit, 5);
    EXPECT_TRUE(parsed.request.json);
    EXPECT_NE(parse_token_command({"audit", "list", "--limit", "0"}).error.find("1 to 10000"), std::string::npos);
    EXPECT_NE(parse_token_command({"audit", "list", "--user", "x"}).error.find("unexpected '--user'"),
              std::string::npos);
    EXPECT_NE(parse_token_command({"token", "rotate"}).error.find("unknown admin command 'token rotate'"),
              std::string::npos);
    EXPECT_TRUE(is_token_command({"audit", "list"}));
    EXPECT_FALSE(is_token_command({"tenant", "list"}));
}

TEST(admin_token_command, cli_changes_are_audited_and_reads_are_not) {
    admin_request request;
    request.action = admin_action::user_add;
    request.tenant = "acme";
    request.user = "bob";
    auto entry = cli_audit_entry(request, 0);
    ASSERT_TRUE(entry);
    EXPECT_EQ(entry->actor, "cli");
    EXPECT_EQ(entry->action, "user.create");
    EXPECT_EQ(entry->target, "bob");
    EXPECT_EQ(entry->result, "ok");
    request.action = admin_action::device_delete;
    request.device = "IMEI:1";
    EXPECT_EQ(cli_audit_entry(request, 1)->target, "IMEI:1");
    EXPECT_EQ(cli_audit_entry(request, 1)->result, "failed");
    request.action = admin_action::user_show;
    EXPECT_FALSE(cli_audit_entry(request, 0));
}

}  // namespace
}  // namespace syncml::server
