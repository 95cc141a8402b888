#include "dav/query/text_match.hpp"

#include <gtest/gtest.h>

namespace syncml::dav::query {
namespace {

bool hit(std::string_view value, std::string text, collation by, match_type type = match_type::contains,
         bool negate = false) {
    return text_matches(value, {.text = std::move(text), .by = by, .type = type, .negate = negate});
}

TEST(text_match, octet_compares_bytes) {
    EXPECT_TRUE(hit("Bastille Day Party", "Day", collation::octet));
    EXPECT_FALSE(hit("Bastille Day Party", "day", collation::octet));
}

TEST(text_match, ascii_casemap_folds_ascii_letters_only) {
    EXPECT_TRUE(hit("Bastille Day Party", "DAY PARTY", collation::ascii_casemap));
    EXPECT_FALSE(hit("Ärger", "ärger", collation::ascii_casemap)) << "non-ASCII letters compare as they are";
}

TEST(text_match, unicode_casemap_folds_case_and_compatibility_forms) {
    EXPECT_TRUE(hit("Ärger", "ärger", collation::unicode_casemap, match_type::equals));
    EXPECT_TRUE(hit("Ｆｕｌｌｗｉｄｔｈ", "fullwidth", collation::unicode_casemap, match_type::equals)) << "NFKD";
    EXPECT_TRUE(hit("Cafe\xCC\x81", "CAF\xC3\x89", collation::unicode_casemap, match_type::equals))
        << "composed and decomposed é are one";
    EXPECT_FALSE(hit("Cafe", "CAF\xC3\x89", collation::unicode_casemap, match_type::equals));
}

TEST(text_match, match_types_and_negation) {
    EXPECT_TRUE(hit("ann@example.org", "ANN@", collation::ascii_casemap, match_type::starts_with));
    EXPECT_FALSE(hit("ann@example.org", "example", collation::ascii_casemap, match_type::starts_with));
    EXPECT_TRUE(hit("ann@example.org", ".ORG", collation::ascii_casemap, match_type::ends_with));
    EXPECT_FALSE(hit("ann@example.org", "ann", collation::ascii_casemap, match_type::equals));
    EXPECT_TRUE(hit("ann@example.org", "bob", collation::ascii_casemap, match_type::contains, true));
    EXPECT_FALSE(hit("ann@example.org", "ann", collation::ascii_casemap, match_type::contains, true));
}

TEST(text_match, names_the_supported_collations) {
    EXPECT_EQ(collation_named("", collation::unicode_casemap), collation::unicode_casemap);
    EXPECT_EQ(collation_named("i;octet", collation::ascii_casemap), collation::octet);
    EXPECT_EQ(collation_named("i;ascii-casemap", collation::octet), collation::ascii_casemap);
    EXPECT_EQ(collation_named("i;unicode-casemap", collation::octet), collation::unicode_casemap);
    EXPECT_FALSE(collation_named("i;ascii-numeric", collation::octet));
}

}  // namespace
}  // namespace syncml::dav::query
