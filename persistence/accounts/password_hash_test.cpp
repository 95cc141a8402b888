#include "persistence/accounts/password_hash.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "common/crypto/base64.hpp"

namespace syncml::persistence {
namespace {

TEST(password_hash, verifies_the_password_it_hashed_and_rejects_others) {
    const auto stored = hash_password("correct horse", 1000);
    EXPECT_TRUE(stored.starts_with("pbkdf2-sha256$1000$"));
    EXPECT_TRUE(verify_password("correct horse", stored));
    EXPECT_FALSE(verify_password("correct hors", stored));
    EXPECT_FALSE(verify_password("", stored));
}

TEST(password_hash, asks_for_a_new_hash_of_an_older_scheme_or_a_lower_cost) {
    const auto stored = hash_password("pw", 1000);
    EXPECT_TRUE(needs_rehash(stored, 2000));
    EXPECT_FALSE(needs_rehash(stored, 1000));
    EXPECT_FALSE(needs_rehash(stored, 500));
    EXPECT_TRUE(needs_rehash("md5$1$abc$def", 1000));
    EXPECT_TRUE(needs_rehash("", 1000));
}

// OWASP Password Storage Cheat Sheet, 2023; lowered only through SYNCML_PASSWORD_HASH_ITERATIONS.
TEST(password_hash, defaults_to_the_owasp_2023_cost) {
    EXPECT_EQ(k_pbkdf2_iterations, 600000);
    if (std::getenv("SYNCML_PASSWORD_HASH_ITERATIONS") == nullptr) {
        EXPECT_EQ(pbkdf2_iterations(), 600000);
    }
    EXPECT_TRUE(hash_password("pw").starts_with("pbkdf2-sha256$" + std::to_string(pbkdf2_iterations()) + "$"));
}

TEST(password_hash, salts_every_hash) { EXPECT_NE(hash_password("same", 1000), hash_password("same", 1000)); }

// Reference value computed independently (Python hashlib.pbkdf2_hmac).
TEST(password_hash, matches_a_reference_pbkdf2_sha256) {
    EXPECT_TRUE(verify_password(
        "secret", "pbkdf2-sha256$1000$MDEyMzQ1Njc4OWFiY2RlZg==$tiKWHy4FAGCWE8gn6GtKhaxD2OeeAUUWXFT/p1aaNl8="));
    EXPECT_FALSE(verify_password(
        "Secret", "pbkdf2-sha256$1000$MDEyMzQ1Njc4OWFiY2RlZg==$tiKWHy4FAGCWE8gn6GtKhaxD2OeeAUUWXFT/p1aaNl8="));
}

TEST(password_hash, rejects_malformed_stored_hashes) {
    EXPECT_FALSE(verify_password("x", ""));
    EXPECT_FALSE(verify_password("x", "plain"));
    EXPECT_FALSE(verify_password("x", "md5$1$abc$def"));
    EXPECT_FALSE(verify_password("x", "pbkdf2-sha256$0$MDEy$MDEy"));
    EXPECT_FALSE(verify_password("x", "pbkdf2-sha256$12x$MDEy$MDEy"));
    EXPECT_FALSE(verify_password("x", "pbkdf2-sha256$1000$MDEyMzQ1Njc4OWFiY2RlZg==$short"));
}

// OMA DS md5 credentials: b64(md5("user:password")); reference from Python hashlib.
TEST(password_hash, computes_the_syncml_md5_secret) {
    EXPECT_EQ(md5_secret_of("Bruce2", "OhBehave"), "PtEdr8lBQ45IbT1bZIkrOQ==");
}

TEST(password_hash, base64_encodes_with_padding) {
    EXPECT_EQ(common::base64_encode(""), "");
    EXPECT_EQ(common::base64_encode("f"), "Zg==");
    EXPECT_EQ(common::base64_encode("fo"), "Zm8=");
    EXPECT_EQ(common::base64_encode("foo"), "Zm9v");
}

}  // namespace
}  // namespace syncml::persistence
