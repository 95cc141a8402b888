#include "matching/content/text_lines.hpp"

#include <gtest/gtest.h>

#include <array>

namespace syncml::matching {
namespace {

using lines = std::vector<std::string>;

struct split_case {
    std::string_view text;
    text_line_options options;
    lines want;
};

TEST(text_lines, splits_at_lf_and_unfolds_as_asked) {
    const text_line_options physical{.unfold = false, .keep_empty = false};
    const split_case cases[] = {
        {"BEGIN:VCARD\r\nNOTE:a\r\n  b\r\n\tc\r\n\r\nEND:VCARD", {}, {"BEGIN:VCARD", "NOTE:a bc", "", "END:VCARD"}},
        // A fold after an empty line continues the empty line, unless empty lines are left out.
        {"A:1\n\n x\n", {}, {"A:1", "x"}},
        {"A:1\n\n x\n", {.keep_empty = false}, {"A:1x"}},
        {" A:1\n", {}, {" A:1"}},
        {"A:1\r\n x\r\n\r\nB:2", physical, {"A:1", " x", "B:2"}},
        // Only LF ends a line, and only one CR before it goes.
        {"A:1\rB:2\r\r\n", {}, {"A:1\rB:2\r"}},
        {"", {}, {}},
        {"\n", {}, {""}},
    };
    for (const auto& c : cases) EXPECT_EQ(text_lines(c.text, c.options), c.want) << c.text;
}

TEST(text_lines, reads_name_and_value_of_a_line) {
    const std::array<std::array<std::string_view, 3>, 5> cases = {{
        {"item1.tel;TYPE=HOME:1", "TEL", "1"},
        {"Begin:VCARD", "BEGIN", "VCARD"},
        {"DTSTART;TZID=x:20260101T000000", "DTSTART", "20260101T000000"},
        {"URL:http://example.org", "URL", "http://example.org"},
        {"VERSION", "VERSION", ""},
    }};
    for (const auto& [line, name, value] : cases) {
        EXPECT_EQ(text_line_name(line), name);
        EXPECT_EQ(text_line_value(line), value);
    }
    EXPECT_EQ(text_line_name(""), "");
}

}  // namespace
}  // namespace syncml::matching
