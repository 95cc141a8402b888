#include "src/admin/cli/admin_command.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

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
    EXPECT_EQ(policy.request.tenant_options,
              (std::vector<std::pair<std::string, std::string>>{{"--conflict-policy", "client-wins"}}));
    EXPECT_NE(parse_admin({"tenant", "set", "acme"}).error.find("nothing to set"), std::string::npos);
    auto binding = parse_admin({"tenant", "set", "acme", "--session-binding", "token"});
    EXPECT_TRUE(binding.error.empty()) << binding.error;
    EXPECT_EQ(binding.request.tenant_options,
              (std::vector<std::pair<std::string, std::string>>{{"--session-binding", "token"}}));
    auto limits = parse_admin({"tenant", "add", "big", "--max-sessions", "5000", "--auth-md5", "off"});
    ASSERT_EQ(limits.error, "");
    EXPECT_EQ(limits.request.tenant_options.size(), 2u);
    EXPECT_NE(
        parse_admin({"tenant", "set", "a", "--max-sessions", "1", "--max-sessions", "2"}).error.find("unexpected"),
        std::string::npos);

    EXPECT_EQ(parse_admin({"tenant", "list"}).error, "");
    EXPECT_EQ(parse_admin({"tenant", "delete", "acme", "--yes"}).error, "");
    EXPECT_EQ(parse_admin({"user", "list", "--tenant", "acme"}).error, "");
    EXPECT_EQ(parse_admin({"device", "list", "--tenant", "acme", "--user", "bob"}).error, "");
    EXPECT_EQ(parse_admin({"tenant", "show", "acme", "--json"}).request.action, admin_action::tenant_show);
    EXPECT_EQ(parse_admin({"user", "show", "--tenant", "acme", "--user", "bob"}).request.action,
              admin_action::user_show);
    EXPECT_EQ(parse_admin({"device", "show", "--tenant", "acme", "--user", "bob", "--device", "IMEI:1"}).error, "");
    EXPECT_EQ(parse_admin({"session", "list", "--tenant", "acme", "--user", "bob"}).request.user, "bob");
    EXPECT_EQ(parse_admin({"user", "import", "users.csv"}).request.file, "users.csv");
    auto items = parse_admin({"user", "import", "--tenant", "acme", "--user", "bob", "--in", "dir"});
    EXPECT_EQ(items.request.action, admin_action::user_import_items);
    EXPECT_EQ(items.request.file, "dir");
    EXPECT_NE(parse_admin({"user", "import", "users.csv", "--tenant", "acme"}).error, "");
    EXPECT_NE(parse_admin({"user", "import", "--tenant", "acme", "--in", "dir"}).error, "");
    EXPECT_EQ(parse_admin({"user", "export", "--tenant", "acme", "--user", "bob", "--out", "d"}).request.action,
              admin_action::user_export);
    auto point = parse_admin({"device", "collection", "--tenant", "acme", "--user", "bob", "--device", "IMEI:1",
                              "--datastore", "calendar", "--collection", "work"});
    ASSERT_EQ(point.error, "");
    EXPECT_EQ(point.request.action, admin_action::device_collection);
    EXPECT_EQ(point.request.datastore, "calendar");
    EXPECT_EQ(point.request.collection, std::string("work"));
    auto back = parse_admin({"device", "collection", "--tenant", "acme", "--user", "bob", "--device", "IMEI:1",
                             "--datastore", "calendar", "--default"});
    ASSERT_EQ(back.error, "");
    EXPECT_TRUE(back.request.to_default);
    EXPECT_FALSE(back.request.collection);
    auto kill = parse_admin({"session", "kill", "--tenant", "acme", "--session", "42", "--yes"});
    EXPECT_EQ(kill.error, "");
    EXPECT_EQ(kill.request.session, "42");
    EXPECT_NE(parse_admin({"session", "kill", "--tenant", "acme", "--session", "42"}).error.find("--yes"),
              std::string::npos);
}

TEST(admin_parse, destructive_commands_need_yes) {
    EXPECT_NE(parse_admin({"tenant", "delete", "acme"}).error.find("--yes"), std::string::npos);
    EXPECT_NE(parse_admin({"user", "delete", "--tenant", "a", "--user", "b"}).error.find("--yes"), std::string::npos);
    EXPECT_NE(parse_admin({"device", "delete", "--tenant", "a", "--user", "b", "--device", "d"}).error.find("--yes"),
              std::string::npos);
    auto tenant = parse_admin({"tenant", "delete", "acme", "--yes", "--force"});
    ASSERT_EQ(tenant.error, "");
    EXPECT_TRUE(tenant.request.yes);
    EXPECT_TRUE(tenant.request.force);
    auto device = parse_admin({"device", "delete", "--yes", "--tenant", "a", "--user", "b", "--device", "d"});
    ASSERT_EQ(device.error, "");
    EXPECT_EQ(device.request.action, admin_action::device_delete);
    EXPECT_EQ(device.request.device, "d");
    EXPECT_EQ(parse_admin({"user", "disable", "--tenant", "a", "--user", "b"}).request.action,
              admin_action::user_disable);
    EXPECT_EQ(parse_admin({"user", "enable", "--tenant", "a", "--user", "b"}).error, "");
    EXPECT_TRUE(parse_admin({"tenant", "list", "--json"}).request.json);
    EXPECT_TRUE(parse_admin({"device", "list", "--tenant", "a", "--user", "b", "--json"}).request.json);
    EXPECT_NE(parse_admin({"tenant", "add", "x", "--json"}).error, "");
    EXPECT_EQ(parse_admin({"user", "set-password", "--tenant", "a", "--user", "b"}).request.action,
              admin_action::user_password);
}

TEST(admin_parse, names_what_is_missing_or_unexpected) {
    EXPECT_NE(parse_admin({"user", "add", "--tenant", "acme", "--password", "x"}).error.find("missing --user"),
              std::string::npos);
    EXPECT_NE(parse_admin({"user", "add", "--tenant", "a", "--user", "b", "--password", "x", "--password-file", "f"})
                  .error.find("exclude each other"),
              std::string::npos);
    EXPECT_NE(parse_admin({"tenant", "add"}).error.find("missing NAME"), std::string::npos);
    EXPECT_NE(parse_admin({"tenant", "list", "extra"}).error.find("unexpected 'extra'"), std::string::npos);
    EXPECT_NE(parse_admin({"user", "list", "--tenant"}).error.find("needs a value"), std::string::npos);
    EXPECT_NE(parse_admin({"user", "list", "--tenant", "a", "--tenant", "b"}).error.find("unexpected"),
              std::string::npos);
    EXPECT_NE(parse_admin({"tenant", "rename", "a"}).error.find("unknown admin command"), std::string::npos);
    EXPECT_NE(parse_admin({"tenat", "list"}).error.find("did you mean admin tenant list?"), std::string::npos);
    EXPECT_NE(parse_admin({"device", "rest", "--tenant", "t"}).error.find("did you mean admin device reset?"),
              std::string::npos);
    EXPECT_NE(parse_admin({"tenant"}).error, "");
}

admin_request user_add(std::vector<std::string> options) {
    std::vector<std::string> words = {"user", "add", "--tenant", "acme", "--user", "bob"};
    words.insert(words.end(), options.begin(), options.end());
    auto parsed = parse_admin(words);
    EXPECT_EQ(parsed.error, "");
    return parsed.request;
}

TEST(admin_password, comes_from_one_line_of_stdin_without_any_option) {
    auto request = user_add({});
    std::istringstream in("s3cret pw\r\nnext line\n");
    EXPECT_EQ(read_password(request, in), "");
    EXPECT_EQ(request.password, "s3cret pw");

    auto dash = user_add({"--password", "-"});  // the older spelling of the same
    std::istringstream in2("pw2\n");
    EXPECT_EQ(read_password(dash, in2), "");
    EXPECT_EQ(dash.password, "pw2");
}

TEST(admin_password, comes_from_the_first_line_of_a_password_file) {
    const std::string path = ::testing::TempDir() + "admin-password-file";
    std::ofstream(path) << "from file\nignored\n";
    auto request = user_add({"--password-file", path});
    std::istringstream in("not this\n");
    EXPECT_EQ(read_password(request, in), "");
    EXPECT_EQ(request.password, "from file");
    std::remove(path.c_str());

    auto missing = user_add({"--password-file", path});
    EXPECT_NE(read_password(missing, in).find("cannot read"), std::string::npos);
}

// A link planted in place of the password file would make the server's secret key a user's password (issue 35).
TEST(admin_password, is_never_read_through_a_symbolic_link) {
    const std::string secret = ::testing::TempDir() + "admin-password-secret";
    const std::string link = ::testing::TempDir() + "admin-password-link";
    std::ofstream(secret) << "the server's secret key\n";
    std::remove(link.c_str());
    ASSERT_EQ(::symlink(secret.c_str(), link.c_str()), 0);
    auto request = user_add({"--password-file", link});
    std::istringstream in("not this\n");
    EXPECT_EQ(read_password(request, in), "cannot read --password-file " + link +
                                              ": is a symbolic link (links are not followed; name the file itself)");
    EXPECT_FALSE(request.password);
    std::remove(link.c_str());
    std::remove(secret.c_str());
}

TEST(admin_password, is_refused_when_empty_and_still_taken_from_the_discouraged_option) {
    auto request = user_add({});
    std::istringstream empty("");
    EXPECT_NE(read_password(request, empty).find("no password on stdin"), std::string::npos);

    auto given = user_add({"--password", "pw"});
    std::istringstream unused("other\n");
    EXPECT_EQ(read_password(given, unused), "");
    EXPECT_EQ(given.password, "pw");
    EXPECT_EQ(unused.tellg(), 0);  // stdin left alone
}

// A new password is how an admin gives a user of a tenant that turned md5 on its md5 secret.
TEST(admin_password, is_set_anew_with_user_password_and_read_like_user_add) {
    auto parsed = parse_admin({"user", "password", "--tenant", "t", "--user", "u", "--password", "-"});
    ASSERT_EQ(parsed.error, "");
    EXPECT_EQ(parsed.request.action, admin_action::user_password);
    std::istringstream in("new pw\n");
    EXPECT_EQ(read_password(parsed.request, in), "");
    EXPECT_EQ(parsed.request.password, "new pw");
    EXPECT_NE(parse_admin({"user", "password", "--tenant", "t"}).error, "");
}

}  // namespace
}  // namespace syncml::server
