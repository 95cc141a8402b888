#include "matching/content/text_lines.hpp"

#include <gtest/gtest.h>

namespace syncml::matching {
namespace {

using lines = std::vector<std::string>;

TEST(text_lines, unfolds_and_keeps_empty_lines_by_default) {
    EXPECT_EQ(text_lines("BEGIN:VCARD\r\nNOTE:a\r\n  b\r\n\tc\r\n\r\nEND:VCARD", {}),
              (lines{"BEGIN:VCARD", "NOTE:a bc", "", "END:VCARD"}));
}

TEST(text_lines, a_fold_after_an_empty_line_continues_the_empty_line) {
    EXPECT_EQ(text_lines("A:1\n\n x\n", {}), (lines{"A:1", "x"}));
    EXPECT_EQ(text_lines("A:1\n\n x\n", {.keep_empty = false}), (lines{"A:1x"}));
}

TEST(text_lines, a_fold_on_the_first_line_is_a_line) { EXPECT_EQ(text_lines(" A:1\n", {}), (lines{" A:1"})); }

TEST(text_lines, without_unfolding_keeps_physical_lines) {
    EXPECT_EQ(text_lines("A:1\r\n x\r\n\r\nB:2", {.unfold = false, .keep_empty = false}), (lines{"A:1", " x", "B:2"}));
}

TEST(text_lines, ends_lines_at_lf_only) {
    EXPECT_EQ(text_lines("A:1\rB:2\r\r\n", {}), (lines{"A:1\rB:2\r"}));
    EXPECT_EQ(text_lines("", {}), lines{});
    EXPECT_EQ(text_lines("\n", {}), (lines{""}));
}

TEST(text_lines, names_a_line_by_its_property) {
    EXPECT_EQ(text_line_name("item1.tel;TYPE=HOME:1"), "TEL");
    EXPECT_EQ(text_line_name("Begin:VCARD"), "BEGIN");
    EXPECT_EQ(text_line_name("VERSION"), "VERSION");
    EXPECT_EQ(text_line_name(""), "");
}

TEST(text_lines, the_value_follows_the_first_colon) {
    EXPECT_EQ(text_line_value("DTSTART;TZID=x:20260101T000000"), "20260101T000000");
    EXPECT_EQ(text_line_value("URL:http://example.org"), "http://example.org");
    EXPECT_EQ(text_line_value("VERSION"), "");
}

}  // namespace
}  // namespace syncml::matching
