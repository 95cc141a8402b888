#include "matching/match/normalize_text.hpp"

#include <gtest/gtest.h>

#include "matching/match/normalize_phone.hpp"

namespace syncml::matching {
namespace {

TEST(fold_text, lowers_case_folds_latin_accents_and_collapses_whitespace) {
    EXPECT_EQ(fold_text("  Jos\xC3\xA9\t\tM\xC3\x9CLLER \r\n"), "jose muller");
    EXPECT_EQ(fold_text("Stra\xC3\x9F"
                        "e"),
              "strasse");
    EXPECT_EQ(fold_text("\xC5\x81\xC3\xB3"
                        "d\xC5\xBA"),
              "lodz");
    EXPECT_EQ(fold_text("\xC3\x86sir \xC3\x98ster"), "aesir oster");
    EXPECT_EQ(fold_text("a\xC2\xA0"
                        "b"),
              "a b");  // no-break space
}

TEST(fold_text, keeps_non_latin_text_and_invalid_bytes) {
    EXPECT_EQ(fold_text("\xD0\x98\xD0\xB2\xD0\xB0\xD0\xBD"), "\xD0\x98\xD0\xB2\xD0\xB0\xD0\xBD");
    EXPECT_EQ(fold_text("x\xFFy\xC3"), "x\xFFy\xC3");
}

TEST(name_tokens, ignore_order_commas_titles_and_initials) {
    auto expected = std::vector<std::string>{"john", "smith"};
    EXPECT_EQ(name_tokens("John Smith"), expected);
    EXPECT_EQ(name_tokens("Smith, John"), expected);
    EXPECT_EQ(name_tokens("Dr. John Q. SMITH"), expected);
}

TEST(name_tokens, treat_german_transliterations_of_umlauts_as_the_plain_vowel) {
    EXPECT_EQ(name_tokens("J\xC3\xBCrgen M\xC3\xBCller"), name_tokens("Juergen Mueller"));
    EXPECT_EQ(name_tokens("Juergen Mueller"), name_tokens("Jurgen Muller"));
    EXPECT_NE(name_tokens("Jurgen Muller"), name_tokens("Jurgen Miller"));
}

TEST(normalized_name, is_the_same_for_structured_and_formatted_names_in_any_order) {
    contact structured;
    structured.name = structured_name{"M\xC3\xBCller", "J\xC3\xBCrgen", "", "Herr", ""};
    contact formatted;
    formatted.formatted_name = "J\xC3\xBCrgen M\xC3\x9CLLER";
    contact last_first;
    last_first.formatted_name = "MULLER,  Jurgen";
    EXPECT_EQ(normalized_name(structured), "jurgen muller");
    EXPECT_EQ(normalized_name(last_first), "jurgen muller");
    EXPECT_EQ(normalized_name(formatted), normalized_name(structured));
}

TEST(normalized_name, drops_middle_names_only_in_the_short_form) {
    contact c;
    c.name = structured_name{"Smith", "John", "Quincy", "", ""};
    EXPECT_EQ(normalized_name(c), "john quincy smith");
    EXPECT_EQ(normalized_short_name(c), "john smith");
}

TEST(normalized_name, falls_back_to_the_organisation) {
    contact c;
    c.organization = {"ACME Corp.", "Sales"};
    EXPECT_EQ(normalized_name(c), "acme corp");
    c.formatted_name = "Reception";
    EXPECT_EQ(normalized_name(c), "reception");
}

TEST(normalized_email, ignores_case_spaces_and_mailto) {
    EXPECT_EQ(normalized_email(" John.Smith@Example.COM "), "john.smith@example.com");
    EXPECT_EQ(normalized_email("mailto:a@b.org"), "a@b.org");
}

TEST(normalized_memo_text, ignores_line_break_style_and_trailing_blanks) {
    EXPECT_EQ(normalized_memo_text("Shopping\r\nMilk  \r\nEggs\r\n"), normalized_memo_text("shopping\nmilk\neggs"));
    EXPECT_NE(normalized_memo_text("milk eggs"), normalized_memo_text("milk bread"));
}

TEST(hash_key, is_stable_and_sixteen_hex_digits) {
    EXPECT_EQ(hash_key(""), "cbf29ce484222325");  // the FNV-1a 64-bit offset basis
    EXPECT_EQ(hash_key("a").size(), 16u);
    EXPECT_NE(hash_key("a"), hash_key("b"));
}

TEST(phone_key, matches_national_and_international_forms) {
    EXPECT_EQ(phone_key("+49 30 1234567"), phone_key("030/123 45 67"));
    EXPECT_EQ(phone_key("0049 (30) 123-4567"), phone_key("+49301234567"));
    EXPECT_EQ(phone_key("+1 (212) 555-0100"), phone_key("212.555.0100"));
    EXPECT_EQ(phone_key("+49 30 1234567"), "301234567");
}

TEST(phone_key, keeps_different_lines_apart_and_ignores_extensions) {
    EXPECT_NE(phone_key("+49 30 1234567"), phone_key("+49 30 1234568"));
    EXPECT_EQ(phone_key("+49 30 1234567 x 12"), phone_key("+49 30 1234567"));
    EXPECT_EQ(phone_key("030 1234567;ext=5"), phone_key("+49 30 1234567"));
}

TEST(phone_key, gives_no_key_for_service_numbers) {
    EXPECT_EQ(phone_key("112"), "");
    EXPECT_EQ(phone_key("+"), "");
}

TEST(canonical_phone, uses_the_configured_country_code_for_national_numbers) {
    phone_options options;
    options.default_country_code = "33";
    EXPECT_EQ(canonical_phone("01 23 45 67 89", options), "33123456789");
    EXPECT_EQ(canonical_phone("+33 1 23 45 67 89", options), "33123456789");
    EXPECT_EQ(canonical_phone("01 23 45 67 89"), "123456789");
}

}  // namespace
}  // namespace syncml::matching
