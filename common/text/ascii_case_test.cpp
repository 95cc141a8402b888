#include "common/text/ascii_case.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

TEST(ascii_case, changes_only_ascii_letters) {
    EXPECT_EQ(to_upper("Begin:vCard-2.1 [x]"), "BEGIN:VCARD-2.1 [X]");
    EXPECT_EQ(to_lower("Text/X-VCard; Charset=UTF-8"), "text/x-vcard; charset=utf-8");
    EXPECT_EQ(to_upper("\xC3\xA4@`{"), "\xC3\xA4@`{");
    EXPECT_EQ(to_lower("\xC3\x84@[_"), "\xC3\x84@[_");
}

TEST(ascii_case, iequals_ignores_ascii_case_only) {
    EXPECT_TRUE(iequals("SyncML:MetInf", "syncml:metinf"));
    EXPECT_TRUE(iequals("", ""));
    EXPECT_FALSE(iequals("gzip", "gzip "));
    EXPECT_FALSE(iequals("\xC3\xA4", "\xC3\x84"));
    // '@' and '`' sit 32 below and above letters: no arithmetic may make them equal to anything else.
    EXPECT_FALSE(iequals("@", "`"));
    EXPECT_FALSE(iequals("[", "{"));
}

TEST(ascii_case, istarts_with_compares_the_prefix_only) {
    EXPECT_TRUE(istarts_with("SYNCML:SYNCML1.2", "syncml:syncml"));
    EXPECT_TRUE(istarts_with("Bearer abc", "bearer "));
    EXPECT_TRUE(istarts_with("x", ""));
    EXPECT_FALSE(istarts_with("syncml", "syncml:syncml"));
}

}  // namespace
}  // namespace syncml::common
