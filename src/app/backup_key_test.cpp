#include "src/app/backup_key.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace syncml::server {
namespace {

using persistence::secret_key;
namespace fs = std::filesystem;

TEST(backup_words, take_the_output_and_the_key_switches) {
    const auto backup = parse_backup_words({"--out", "db.dump"});
    EXPECT_EQ(backup.out, "db.dump");
    EXPECT_TRUE(backup.save_key);
    EXPECT_FALSE(parse_backup_words({"--no-key", "--out", "db.dump"}).save_key);
    EXPECT_NE(parse_backup_words({}).error, "");
    EXPECT_NE(parse_backup_words({"--out"}).error, "");
    EXPECT_NE(parse_backup_words({"--out", "a", "b"}).error, "");
    const auto restore = parse_restore_words({"db.dump", "--key", "k", "--replace-key"});
    EXPECT_TRUE(restore.error.empty()) << restore.error;
    EXPECT_EQ(restore.in, "db.dump");
    EXPECT_EQ(restore.key_file, "k");
    EXPECT_TRUE(restore.replace_key);
    EXPECT_TRUE(parse_restore_words({"db.dump"}).key_file.empty());
    EXPECT_NE(parse_restore_words({}).error, "");
    EXPECT_NE(parse_restore_words({"a", "b"}).error, "");
    EXPECT_NE(parse_restore_words({"a", "--key"}).error, "");
    EXPECT_NE(parse_restore_words({"--force", "a"}).error, "");
    EXPECT_EQ(backup_key_path("/backups/syncml.dump"), "/backups/syncml.dump.key");
}

class backup_key_test : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("syncml-backup-key-" + std::to_string(getpid()));
        fs::remove_all(dir_);
        config_.data_dir = (dir_ / "data").string();
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string key_file() const { return (dir_ / "data" / "secret.key").string(); }

    fs::path dir_;
    database_config config_;
    secret_key old_ = secret_key::generate();
};

TEST_F(backup_key_test, the_key_lives_where_the_configuration_says) {
    EXPECT_EQ(locate_secret_key(config_).where, key_location::kind::file);
    EXPECT_EQ(locate_secret_key(config_).path, key_file());
    config_.url = "postgresql://db/x";
    EXPECT_EQ(locate_secret_key(config_).where, key_location::kind::database);
    config_.secret_key_file = "/etc/syncml/key";
    EXPECT_EQ(locate_secret_key(config_).path, "/etc/syncml/key");
    config_.secret_key = old_.to_base64();
    EXPECT_EQ(locate_secret_key(config_).where, key_location::kind::text);
    EXPECT_EQ(existing_secret_key(config_)->fingerprint(), old_.fingerprint());
}

TEST_F(backup_key_test, backup_reads_the_key_file_without_creating_one) {
    EXPECT_FALSE(existing_secret_key(config_));
    EXPECT_FALSE(fs::exists(key_file()));
    ASSERT_TRUE(old_.create_file(key_file()));
    EXPECT_EQ(existing_secret_key(config_)->fingerprint(), old_.fingerprint());
}

// The machine was lost: a fresh data directory gets the backup's key, and the restored secrets open with it.
TEST_F(backup_key_test, a_fresh_data_directory_gets_the_backups_key) {
    auto plan = plan_key_restore(config_, old_, "x.dump.key", false);
    ASSERT_TRUE(plan.error.empty()) << plan.error;
    EXPECT_EQ(plan.action, key_restore_plan::step::create);
    EXPECT_FALSE(fs::exists(key_file())) << "nothing is written before the database is restored";
    EXPECT_NE(apply_key_restore(plan).find("secret key restored to " + key_file()), std::string::npos);
    EXPECT_EQ(secret_key::load(key_file())->fingerprint(), old_.fingerprint());
    const persistence::secret_key_record record{old_.fingerprint(), std::nullopt, 3};
    EXPECT_EQ(missing_key(record, plan), "");
}

TEST_F(backup_key_test, another_key_is_replaced_only_when_asked_and_kept_aside) {
    const auto other = secret_key::generate();
    ASSERT_TRUE(other.create_file(key_file()));
    const auto refused = plan_key_restore(config_, old_, "x.dump.key", false);
    EXPECT_NE(refused.error.find("holds another secret key"), std::string::npos) << refused.error;
    EXPECT_NE(refused.error.find("--replace-key"), std::string::npos) << refused.error;
    const auto plan = plan_key_restore(config_, old_, "x.dump.key", true);
    ASSERT_TRUE(plan.error.empty());
    EXPECT_EQ(plan.action, key_restore_plan::step::replace);
    apply_key_restore(plan);
    EXPECT_EQ(secret_key::load(key_file())->fingerprint(), old_.fingerprint());
    int aside = 0;
    for (const auto& entry : fs::directory_iterator(dir_ / "data")) {
        if (entry.path().filename().string().starts_with("secret.key.replaced-")) {
            ++aside;
            EXPECT_EQ(secret_key::load(entry.path().string())->fingerprint(), other.fingerprint());
        }
    }
    EXPECT_EQ(aside, 1);
    ASSERT_TRUE(fs::remove(key_file()));
    ASSERT_TRUE(old_.create_file(key_file()));
    EXPECT_EQ(plan_key_restore(config_, old_, "x.dump.key", false).action, key_restore_plan::step::keep);
}

TEST_F(backup_key_test, a_configured_key_or_the_databases_own_cannot_take_the_backups_key) {
    config_.secret_key = secret_key::generate().to_base64();
    EXPECT_NE(plan_key_restore(config_, old_, "x.key", true).error.find("is not SYNCML_SECRET_KEY"), std::string::npos);
    config_.secret_key = old_.to_base64();
    EXPECT_TRUE(plan_key_restore(config_, old_, "x.key", false).error.empty());
    config_.secret_key.clear();
    config_.url = "postgresql://db/x";
    EXPECT_NE(plan_key_restore(config_, old_, "x.key", false).error.find("SYNCML_SECRET_KEY_FILE"), std::string::npos);
    EXPECT_TRUE(plan_key_restore(config_, std::nullopt, "x.key", false).error.empty());
}

TEST_F(backup_key_test, says_what_is_missing_when_the_restored_secrets_need_another_key) {
    const auto plan = plan_key_restore(config_, std::nullopt, "x.dump.key", false);
    EXPECT_EQ(plan.action, key_restore_plan::step::none);
    const persistence::secret_key_record sealed{old_.fingerprint(), std::nullopt, 2};
    const auto missing = missing_key(sealed, plan);
    EXPECT_NE(missing.find("2 users"), std::string::npos) << missing;
    EXPECT_NE(missing.find(old_.fingerprint()), std::string::npos) << missing;
    EXPECT_NE(missing.find("not at " + key_file() + " (there is none)"), std::string::npos) << missing;
    EXPECT_NE(missing.find("--key FILE"), std::string::npos) << missing;
    const persistence::secret_key_record nothing{old_.fingerprint(), std::nullopt, 0};
    EXPECT_EQ(missing_key(nothing, plan), "");
}

}  // namespace
}  // namespace syncml::server
