#include "persistence/accounts/secret_key.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace syncml::persistence {
namespace {

TEST(secret_key, seals_so_that_only_the_same_key_and_context_open) {
    const auto key = secret_key::generate();
    const auto sealed = seal(key, "PtEdr8lBQ45IbT1bZIkrOQ==", "tenant=1 user=a");
    EXPECT_EQ(sealed.find("PtEdr8lBQ45IbT1bZIkrOQ=="), std::string::npos);
    EXPECT_EQ(unseal(key, sealed, "tenant=1 user=a"), "PtEdr8lBQ45IbT1bZIkrOQ==");
    EXPECT_FALSE(unseal(secret_key::generate(), sealed, "tenant=1 user=a"));
    EXPECT_FALSE(unseal(key, sealed, "tenant=1 user=b"));
    auto altered = sealed;
    altered[altered.size() / 2] ^= 1;
    EXPECT_FALSE(unseal(key, altered, "tenant=1 user=a"));
    EXPECT_FALSE(unseal(key, sealed.substr(0, 20), "tenant=1 user=a"));
    EXPECT_FALSE(unseal(key, "", "tenant=1 user=a"));
}

TEST(secret_key, uses_a_new_nonce_for_every_seal) {
    const auto key = secret_key::generate();
    EXPECT_NE(seal(key, "same", "c"), seal(key, "same", "c"));
}

TEST(secret_key, parses_base64_of_32_bytes_only) {
    const auto key = secret_key::generate();
    const auto parsed = secret_key::parse(" " + key.to_base64() + "\n");
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->fingerprint(), key.fingerprint());
    EXPECT_NE(key.fingerprint(), secret_key::generate().fingerprint());
    EXPECT_FALSE(secret_key::parse(""));
    EXPECT_FALSE(secret_key::parse("c2hvcnQ="));
    EXPECT_FALSE(secret_key::parse(key.to_base64() + "AAAA"));
}

class secret_key_file : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() / ("syncml-key-" + std::to_string(getpid()));
        std::filesystem::remove_all(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path dir_;
};

TEST_F(secret_key_file, is_created_owner_only_once_and_read_back) {
    const auto path = (dir_ / "data" / "secret.key").string();
    const auto created = secret_key::load_or_create(path);
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
    EXPECT_EQ(secret_key::load_or_create(path).fingerprint(), created.fingerprint());
    EXPECT_EQ(resolve_secret_key("", "", (dir_ / "data").string()).fingerprint(), created.fingerprint());
}

TEST_F(secret_key_file, configured_text_wins_and_garbage_is_refused) {
    const auto key = secret_key::generate();
    EXPECT_EQ(resolve_secret_key(key.to_base64(), "", dir_.string()).fingerprint(), key.fingerprint());
    EXPECT_FALSE(std::filesystem::exists(dir_ / "secret.key"));
    EXPECT_THROW(resolve_secret_key("not a key", "", dir_.string()), std::runtime_error);
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "bad.key") << "garbage\n";
    EXPECT_THROW(resolve_secret_key("", (dir_ / "bad.key").string(), dir_.string()), std::runtime_error);
}

// Disaster recovery (issue 39): backup and restore read a key file without creating one and put a key into a new
// file without replacing another.
TEST_F(secret_key_file, is_loaded_without_being_created_and_written_only_where_none_is) {
    const auto path = (dir_ / "restored" / "secret.key").string();
    EXPECT_FALSE(secret_key::load(path));
    EXPECT_FALSE(std::filesystem::exists(path));
    const auto key = secret_key::generate();
    EXPECT_TRUE(key.create_file(path));
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
    ASSERT_TRUE(secret_key::load(path));
    EXPECT_EQ(secret_key::load(path)->fingerprint(), key.fingerprint());
    EXPECT_FALSE(secret_key::generate().create_file(path)) << "an existing key file is never replaced";
    EXPECT_EQ(secret_key::load(path)->fingerprint(), key.fingerprint());
    std::ofstream(dir_ / "bad.key") << "garbage\n";
    EXPECT_THROW(secret_key::load((dir_ / "bad.key").string()), std::runtime_error);
    EXPECT_EQ(secret_key_path("", "/srv/data"), "/srv/data/secret.key");
    EXPECT_EQ(secret_key_path("/etc/syncml/key", "/srv/data"), "/etc/syncml/key");
}

}  // namespace
}  // namespace syncml::persistence
