#include "src/app/cli.hpp"

#include <gtest/gtest.h>

#include "src/telemetry/build_info.hpp"

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

TEST(cli, version_is_a_global_option_and_names_the_revision) {
    EXPECT_TRUE(parse_cli({"--version"}).version);
    EXPECT_FALSE(parse_cli({}).version);
    EXPECT_NE(usage_text().find("--version"), std::string::npos);
    const std::string version = version_text();
    EXPECT_TRUE(version.starts_with("syncml-server " + std::string(build_version()) + " (revision ")) << version;
    const std::string revision = build_revision();
    EXPECT_FALSE(revision.empty());
    EXPECT_NE(version.find("(revision " + revision + ")\n"), std::string::npos) << version;
    // A git checkout gives an abbreviated commit id; elsewhere the fallback.
    EXPECT_TRUE(revision == "unknown" || revision.find_first_not_of("0123456789abcdef") == std::string::npos)
        << revision;
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
    EXPECT_EQ(parse_cli({"frobnicate"}).error.find("did you mean"), std::string::npos);
    EXPECT_NE(parse_cli({"serve", "extra"}).error, "");
    EXPECT_NE(parse_cli({"--config"}).error, "");
}

TEST(cli, suggests_the_nearest_command_or_option) {
    EXPECT_EQ(parse_cli({"amdin", "tenant", "list"}).error,
              "unknown command 'amdin'; did you mean admin? (see --help)");
    EXPECT_NE(parse_cli({"backpu"}).error.find("did you mean backup?"), std::string::npos);
    EXPECT_NE(parse_cli({"restor", "x.dump"}).error.find("did you mean restore?"), std::string::npos);
    EXPECT_NE(parse_cli({"--verison"}).error.find("unknown option '--verison'; did you mean --version?"),
              std::string::npos);
}

TEST(cli, the_overview_names_every_command_and_setting) {
    const std::string text = usage_text();
    for (const char* word : {"serve", "migrate", "backup", "restore", "admin", "--print-config", "SYNCML_DATA_DIR",
                             "<data_dir>/pgdata", "SYNCML_ALLOW_UNKNOWN", "COMMAND --help"}) {
        EXPECT_NE(text.find(word), std::string::npos) << word;
    }
    EXPECT_EQ(text.find("admin device reset"), std::string::npos) << "the admin commands are admin --help's";
    EXPECT_EQ(text.find("<data_dir>/postgres"), std::string::npos);
    EXPECT_EQ(help_text(parse_cli({"--help"})), text);
}

TEST(cli, a_command_with_help_prints_only_its_own) {
    const auto admin = help_text(parse_cli({"admin", "--help"}));
    EXPECT_NE(admin.find("admin device reset"), std::string::npos);
    EXPECT_NE(admin.find("admin tenant add"), std::string::npos);
    EXPECT_EQ(admin.find("SYNCML_DATA_DIR"), std::string::npos) << "no settings";
    EXPECT_EQ(admin.find("backup --out"), std::string::npos);
    const auto user = help_text(parse_cli({"--help", "admin", "user"}));
    EXPECT_NE(user.find("admin user add"), std::string::npos);
    EXPECT_EQ(user.find("admin device reset"), std::string::npos);
    const auto backup = help_text(parse_cli({"backup", "--help"}));
    EXPECT_NE(backup.find("backup --out FILE [--no-key]"), std::string::npos);
    EXPECT_EQ(backup.find("admin"), std::string::npos);
    EXPECT_EQ(backup.find("restore FILE"), std::string::npos);
    EXPECT_NE(help_text(parse_cli({"restore", "--help"})).find("--replace-key"), std::string::npos);
    EXPECT_NE(help_text(parse_cli({"migrate", "--help"})).find("--distributed"), std::string::npos);
    const auto serve = help_text(parse_cli({"serve", "--help"}));
    EXPECT_NE(serve.find("SIGTERM"), std::string::npos);
    EXPECT_LT(serve.size(), usage_text().size() / 4);
}

}  // namespace
}  // namespace syncml::server
