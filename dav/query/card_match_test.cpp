#include "dav/query/card_match.hpp"

#include <gtest/gtest.h>

#include "dav/query/query_test_support.hpp"

namespace syncml::dav::query {
namespace {

using namespace testing;

const std::string k_card =
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann-1\r\nFN:Änne Example\r\nN:Example;Änne;;;\r\n"
    "EMAIL;TYPE=INTERNET,WORK:ann@example.org\r\nitem1.EMAIL;TYPE=HOME:ann@home.example\r\n"
    "TEL;TYPE=CELL:+49 30 1234\r\nNOTE:one\\, two\r\nEND:VCARD\r\n";

bool matches(const std::string& inner, const std::string& test = "") {
    const auto element = xml("<R:filter xmlns:R=\"urn:ietf:params:xml:ns:carddav\"" +
                             (test.empty() ? std::string() : " test=\"" + test + "\"") + ">" + inner + "</R:filter>");
    auto parsed = parse_card_filter(&element);
    EXPECT_FALSE(parsed.error) << inner;
    return parsed.filter && card_matches(*parsed.filter, k_card);
}

std::string prop(const std::string& name, const std::string& inner, const std::string& test = "") {
    return "<R:prop-filter name=\"" + name + "\"" + (test.empty() ? std::string() : " test=\"" + test + "\"") + ">" +
           inner + "</R:prop-filter>";
}

std::string text(const std::string& value, const std::string& attributes = "") {
    return "<R:text-match" + attributes + ">" + value + "</R:text-match>";
}

TEST(card_match, text_match_with_match_types_and_the_default_unicode_collation) {
    EXPECT_TRUE(matches(prop("FN", text("änne"))));
    EXPECT_TRUE(matches(prop("FN", text("ÄNNE EXAMPLE", " match-type=\"equals\""))));
    EXPECT_FALSE(matches(prop("FN", text("Änne", " match-type=\"equals\""))));
    EXPECT_TRUE(matches(prop("EMAIL", text("ann@home", " match-type=\"starts-with\"")))) << "a grouped property";
    EXPECT_TRUE(matches(prop("TEL", text("1234", " match-type=\"ends-with\""))));
    EXPECT_FALSE(matches(prop("FN", text("änne", " collation=\"i;octet\""))));
    EXPECT_TRUE(matches(prop("NOTE", text("one, two", " match-type=\"equals\"")))) << "unescaped";
    EXPECT_TRUE(matches(prop("FN", text("bob", " negate-condition=\"yes\""))));
}

TEST(card_match, presence_and_absence) {
    EXPECT_TRUE(matches(prop("TEL", "")));
    EXPECT_FALSE(matches(prop("ADR", "")));
    EXPECT_TRUE(matches(prop("ADR", "<R:is-not-defined/>")));
    EXPECT_FALSE(matches(prop("TEL", "<R:is-not-defined/>")));
}

TEST(card_match, param_filters) {
    EXPECT_TRUE(matches(prop(
        "EMAIL", "<R:param-filter name=\"TYPE\">" + text("work", " match-type=\"equals\"") + "</R:param-filter>")));
    EXPECT_FALSE(matches(
        prop("TEL", "<R:param-filter name=\"TYPE\">" + text("home", " match-type=\"equals\"") + "</R:param-filter>")));
    EXPECT_TRUE(matches(prop("TEL", "<R:param-filter name=\"PREF\"><R:is-not-defined/></R:param-filter>")));
    EXPECT_TRUE(matches(prop("TEL", "<R:param-filter name=\"TYPE\"/>")));
}

TEST(card_match, anyof_and_allof) {
    const auto tests = text("zzz") + text("example");
    EXPECT_TRUE(matches(prop("FN", tests)));
    EXPECT_FALSE(matches(prop("FN", tests, "allof")));
    const auto two = prop("FN", text("änne")) + prop("TEL", text("999"));
    EXPECT_TRUE(matches(two));
    EXPECT_FALSE(matches(two, "allof"));
    EXPECT_TRUE(matches("")) << "no prop-filter: every card";
}

}  // namespace
}  // namespace syncml::dav::query
