#include "src/cli.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(cli, serve_is_the_default_command) {
    auto options = parse_cli({});
    EXPECT_EQ(options.command, "serve");
    EXPECT_TRUE(options.error.empty());
}

TEST(cli, version_is_a_global_option) {
    EXPECT_TRUE(parse_cli({"--version"}).version);
    EXPECT_FALSE(parse_cli({}).version);
    EXPECT_NE(usage_text().find("--version"), std::string::npos);
}

TEST(cli, global_options_are_accepted_before_and_after_the_command) {
    auto options = parse_cli({"--config", "a.conf", "admin", "tenant", "add", "acme", "--print-config"});
    EXPECT_EQ(options.config_file, "a.conf");
    EXPECT_TRUE(options.print_config);
    EXPECT_EQ(options.command, "admin");
    EXPECT_EQ(options.words, (std::vector<std::string>{"tenant", "add", "acme"}));
    EXPECT_EQ(parse_cli({"migrate", "--config=b.conf"}).config_file, "b.conf");
}

TEST(cli, admin_keeps_its_own_options) {
    auto options = parse_cli({"admin", "user", "add", "--tenant", "t", "--user", "u", "--password", "p"});
    EXPECT_TRUE(options.error.empty());
    EXPECT_EQ(options.words.size(), 8u);
}

TEST(cli, rejects_unknown_commands_and_stray_arguments) {
    EXPECT_NE(parse_cli({"frobnicate"}).error, "");
    EXPECT_NE(parse_cli({"serve", "extra"}).error, "");
    EXPECT_NE(parse_cli({"--config"}).error, "");
}

TEST(cli, usage_names_every_command_and_setting) {
    const std::string text = usage_text();
    for (const char* word : {"serve", "migrate", "admin device reset", "--print-config", "SYNCML_DATA_DIR"}) {
        EXPECT_NE(text.find(word), std::string::npos) << word;
    }
}

}  // namespace
}  // namespace syncml::server
