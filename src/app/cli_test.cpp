#include "src/app/cli.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(cli, serve_is_the_default_command) {
    auto options = parse_cli({});
    EXPECT_EQ(options.command, "serve");
    EXPECT_TRUE(options.error.empty());
}

TEST(cli, backup_and_restore_take_their_words) {
    auto backup = parse_cli({"backup", "--out", "db.dump"});
    EXPECT_TRUE(backup.error.empty()) << backup.error;
    EXPECT_EQ(backup.command, "backup");
    EXPECT_EQ(backup.words, (std::vector<std::string>{"--out", "db.dump"}));
    auto restore = parse_cli({"restore", "db.dump"});
    EXPECT_EQ(restore.command, "restore");
    EXPECT_EQ(restore.words, (std::vector<std::string>{"db.dump"}));
    EXPECT_FALSE(parse_cli({"migrate", "extra"}).error.empty());
}

TEST(cli, migrate_takes_distributed_and_nothing_else) {
    const auto distributed = parse_cli({"migrate", "--distributed"});
    EXPECT_TRUE(distributed.error.empty()) << distributed.error;
    EXPECT_TRUE(distributed.distributed);
    EXPECT_TRUE(distributed.words.empty());
    EXPECT_FALSE(parse_cli({"migrate"}).distributed);
    EXPECT_FALSE(parse_cli({"migrate", "--distributed", "extra"}).error.empty());
    EXPECT_FALSE(parse_cli({"serve", "--distributed"}).error.empty());
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
