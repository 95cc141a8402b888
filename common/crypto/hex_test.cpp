#include "common/crypto/hex.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

TEST(hex, is_two_lower_case_digits_per_byte) {
    EXPECT_EQ(hex_of(std::string("\x00\x0f\xa0\xff", 4)), "000fa0ff");
    EXPECT_EQ(hex_of(""), "");
}

}  // namespace
}  // namespace syncml::common
