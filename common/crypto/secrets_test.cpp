#include "common/crypto/secrets.hpp"

#include <gtest/gtest.h>

#include <cctype>

namespace syncml::common {
namespace {

TEST(secrets, nonces_are_16_letters_or_digits_and_differ) {
    const auto a = random_nonce();
    const auto b = random_nonce();
    ASSERT_EQ(a.size(), 16u);
    for (char c : a) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c))) << a;
    EXPECT_NE(a, b);
}

TEST(secrets, constant_time_equal_compares_whole_strings) {
    EXPECT_TRUE(constant_time_equal("", ""));
    EXPECT_TRUE(constant_time_equal("secret", "secret"));
    EXPECT_FALSE(constant_time_equal("secret", "secreT"));
    EXPECT_FALSE(constant_time_equal("secret", "secret!"));
}

}  // namespace
}  // namespace syncml::common
