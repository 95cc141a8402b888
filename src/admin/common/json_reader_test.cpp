#include "src/admin/common/json_reader.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

std::string error_of(std::string_view text, const json_limits& limits = {}) {
    const auto result = parse_json(text, limits);
    EXPECT_FALSE(result.value) << text;
    return result.error;
}

TEST(json_reader, reads_an_object_of_every_kind) {
    const auto result =
        parse_json(R"( {"s": "a\"b\\c\/\n\u00e9\ud83d\ude00", "n": -12, "f": 1.5e3, "t": true, "x": false,
                        "z": null, "a": [1, {"k": []}], "o": {}} )");
    ASSERT_TRUE(result.value) << result.error;
    const json_value& v = *result.value;
    ASSERT_EQ(v.type, json_value::kind::object);
    EXPECT_EQ(v.find("s")->text, "a\"b\\c/\n\xc3\xa9\xf0\x9f\x98\x80");
    EXPECT_EQ(v.find("n")->integer(), -12);
    EXPECT_EQ(v.find("f")->text, "1.5e3");
    EXPECT_FALSE(v.find("f")->integer());
    EXPECT_TRUE(v.find("t")->boolean);
    EXPECT_EQ(v.find("x")->type, json_value::kind::boolean);
    EXPECT_FALSE(v.find("x")->boolean);
    EXPECT_EQ(v.find("z")->type, json_value::kind::null);
    EXPECT_EQ(v.find("a")->items.size(), 2u);
    EXPECT_EQ(v.find("a")->items[1].find("k")->type, json_value::kind::array);
    EXPECT_EQ(v.find("missing"), nullptr);
    EXPECT_EQ(v.members.front().first, "s");  // document order
}

TEST(json_reader, keeps_raw_utf8_and_reads_scalars_at_the_top) {
    EXPECT_EQ(parse_json("\"Gr\xc3\xbc\xc3\x9f\"").value->text, "Gr\xc3\xbc\xc3\x9f");
    EXPECT_EQ(parse_json("0").value->integer(), 0);
    EXPECT_EQ(parse_json("9223372036854775807").value->integer(), INT64_MAX);
    EXPECT_FALSE(parse_json("9223372036854775808").value->integer());  // a number, but no int64
}

TEST(json_reader, rejects_malformed_text_with_where) {
    EXPECT_EQ(error_of("{\"a\": 1,}"), "expected a member name in double quotes at byte 8");
    EXPECT_EQ(error_of("[1,]"), "unexpected character ']' at byte 3");
    EXPECT_EQ(error_of("{\"a\" 1}"), "expected ':' after a member name at byte 5");
    EXPECT_EQ(error_of("{\"a\": 1} x"), "unexpected text after the JSON value at byte 9");
    EXPECT_EQ(error_of(""), "unexpected end of input (expected a value) at byte 0");
    EXPECT_EQ(error_of("{'a': 1}"), "expected a member name in double quotes at byte 1");
    EXPECT_EQ(error_of("{\"a\": tru}"), "invalid literal (expected true) at byte 6");
    EXPECT_EQ(error_of("\"abc"), "unterminated string at byte 4");
    EXPECT_EQ(error_of("{\"a\": 1 // c\n}"), "expected ',' or '}' in an object at byte 8");
}

TEST(json_reader, rejects_what_lenient_parsers_accept) {
    EXPECT_EQ(error_of("{\"a\": 1, \"a\": 2}"), "duplicate member \"a\" at byte 9");
    EXPECT_EQ(error_of("012"), "leading zero in a number at byte 1");
    EXPECT_EQ(error_of("1."), "expected a digit at byte 2");
    EXPECT_EQ(error_of("-"), "expected a digit at byte 1");
    EXPECT_EQ(error_of("+1"), "unexpected character '+' at byte 0");
    EXPECT_EQ(error_of("\"a\tb\""), "control character in a string (escape it) at byte 2");
    EXPECT_EQ(error_of("\"\\x\""), "invalid escape '\\x' at byte 2");
    EXPECT_EQ(error_of("\"\\ud800\""), "unpaired high surrogate in \\u escape at byte 7");
    EXPECT_EQ(error_of("\"\\udc00\""), "unpaired low surrogate in \\u escape at byte 7");
    EXPECT_EQ(error_of("\"\\u12g4\""), "invalid \\u escape at byte 3");
    EXPECT_EQ(error_of("\"\xc3\""), "invalid UTF-8 in a string at byte 1");
    EXPECT_EQ(error_of("\"\xc0\xaf\""), "invalid UTF-8 in a string at byte 1");          // overlong '/'
    EXPECT_EQ(error_of("\"\xed\xa0\x80\""), "invalid UTF-8 in a string at byte 1");      // a surrogate
    EXPECT_EQ(error_of("\"\xf4\x90\x80\x80\""), "invalid UTF-8 in a string at byte 1");  // above U+10FFFF
    EXPECT_EQ(error_of("NaN"), "unexpected character 'N' at byte 0");
}

TEST(json_reader, bounds_size_and_depth) {
    EXPECT_EQ(error_of(std::string(11, ' ') + "1", {.max_bytes = 10}), "JSON text larger than 10 bytes");
    EXPECT_TRUE(parse_json("[[[1]]]", {.max_depth = 3}).value);
    EXPECT_EQ(error_of("[[[[1]]]]", {.max_depth = 3}), "nested deeper than 3 levels at byte 3");
    EXPECT_EQ(error_of(std::string(100000, '['), {.max_bytes = 200000}), "nested deeper than 16 levels at byte 16");
}

}  // namespace
}  // namespace syncml::server
