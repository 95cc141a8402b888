#include "common/log/log_value.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

TEST(printable_text, leaves_plain_text_and_letters_of_any_script_alone) {
    EXPECT_EQ(printable_text("IMEI:35-209900-176148-1"), "IMEI:35-209900-176148-1");
    EXPECT_EQ(printable_text("Jürgen's Phone 7 = new"), "Jürgen's Phone 7 = new");
    EXPECT_EQ(printable_text(""), "");
}

// A forged device id once printed an audit line of its own (issue 35).
TEST(printable_text, shows_line_breaks_and_tabs_instead_of_breaking_the_line) {
    EXPECT_EQ(printable_text("x\n2026-12-01 00:00:00\tcli\tuser.delete"),
              "x\\n2026-12-01 00:00:00\\tcli\\tuser.delete");
    EXPECT_EQ(printable_text("a\rb"), "a\\rb");
    EXPECT_EQ(printable_text("a\\nb"), "a\\\\nb");  // a backslash of the value cannot pose as an escape
}

TEST(printable_text, shows_terminal_control_characters_as_escapes) {
    EXPECT_EQ(printable_text("\x1b[2J\x1b]0;title\x07"), "\\u001b[2J\\u001b]0;title\\u0007");
    EXPECT_EQ(printable_text("del\x7f"), "del\\u007f");
    EXPECT_EQ(printable_text("csi\xc2\x9b"
                             "31m"),
              "csi\\u009b31m");                                // C1 as UTF-8
    EXPECT_EQ(printable_text("raw\x9b"), "raw\\x9b");          // C1 as a lone byte (no UTF-8)
    EXPECT_EQ(printable_text("ls\xe2\x80\xa8"), "ls\\u2028");  // a line separator
    EXPECT_EQ(printable_text(std::string("nul\0x", 5)), "nul\\u0000x");
}

}  // namespace
}  // namespace syncml::common
