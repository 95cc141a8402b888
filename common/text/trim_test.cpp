#include "common/text/trim.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

TEST(trim, removes_only_the_named_characters_at_both_ends) {
    EXPECT_EQ(trim(" \t a b \t ", k_blanks), "a b");
    EXPECT_EQ(trim("\r a \n", k_blanks), "\r a \n");
    EXPECT_EQ(trim("\r a \n", k_white_space), "a");
    EXPECT_EQ(trim("\ra\r", k_blanks_and_cr), "a");
    EXPECT_EQ(trim("  a", " "), "a");
}

TEST(trim, leaves_nothing_of_text_that_is_all_trimmed) {
    EXPECT_EQ(trim("", k_white_space), "");
    EXPECT_EQ(trim(" \t\r\n", k_white_space), "");
    EXPECT_EQ(trim(" \t", k_blanks, k_blanks_and_cr), "");
}

TEST(trim, keeps_a_leading_character_only_the_right_end_trims) {
    EXPECT_EQ(trim("\r\t a \t\r", k_blanks, k_blanks_and_cr), "\r\t a");
    EXPECT_EQ(trim(" \ra\r ", k_blanks, k_blanks_and_cr), "\ra");
}

TEST(trim, one_end_at_a_time) {
    EXPECT_EQ(trim_left(" a ", k_blanks), "a ");
    EXPECT_EQ(trim_right(" a ", k_blanks), " a");
    EXPECT_EQ(trim_left("  ", k_blanks), "");
    EXPECT_EQ(trim_right("  ", k_blanks), "");
}

TEST(trim, returns_a_view_into_the_text) {
    const std::string_view text = "  word  ";
    const auto trimmed = trim(text, k_blanks);
    EXPECT_EQ(trimmed.data(), text.data() + 2);
}

}  // namespace
}  // namespace syncml::common
