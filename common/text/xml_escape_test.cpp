#include "common/text/xml_escape.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

constexpr xml_escape_rules k_markup_only{};

TEST(xml_escape, always_escapes_markup_characters) {
    EXPECT_EQ(xml_escaped("a<b>&c", k_markup_only), "a&lt;b&gt;&amp;c");
    EXPECT_EQ(xml_escaped("\"'\r\x01", k_markup_only), "\"'\r\x01");
    EXPECT_EQ(xml_escaped("", k_markup_only), "");
}

TEST(xml_escape, quotes_for_attribute_values_when_asked) {
    EXPECT_EQ(xml_escaped("say \"hi\"", {.quote = true}), "say &quot;hi&quot;");
}

TEST(xml_escape, keeps_a_carriage_return_as_a_reference_when_asked) {
    EXPECT_EQ(xml_escaped("a\r\nb", {.carriage_return = true}), "a&#13;\nb");
}

TEST(xml_escape, drops_controls_xml_cannot_carry_when_asked) {
    EXPECT_EQ(xml_escaped("a\x01\x1F\tb\n\r\x7F", {.drop_controls = true}), "a\tb\n\r\x7F");
    EXPECT_EQ(xml_escaped(std::string_view("\0x", 2), {.drop_controls = true}), "x");
}

TEST(xml_escape, appends_to_what_is_there) {
    std::string out = "<d>";
    append_xml_escaped("1 < 2 \xC3\xA4", out, {.quote = true, .carriage_return = true, .drop_controls = true});
    EXPECT_EQ(out, "<d>1 &lt; 2 \xC3\xA4");
}

}  // namespace
}  // namespace syncml::common
