// Random token soup in the filter grammars and generated expressions (a deterministic stand-in for fuzzing, 4000
// inputs per run): parsing never crashes, every filter that parses evaluates, describes within bounds and comes
// back from storage equal.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <random>
#include <string>
#include <string_view>

#include "matching/convert/item_format.hpp"
#include "matching/convert/item_test_support.hpp"
#include "matching/filter/filter_cgi.hpp"
#include "matching/filter/filter_codec.hpp"
#include "matching/filter/filter_describe.hpp"
#include "matching/filter/item_filter.hpp"
#include "matching/filter/target_options.hpp"

namespace syncml::matching {
namespace {

constexpr std::array<std::string_view, 40> k_tokens = {"&EQ;",
                                                       "&iCON;",
                                                       "&NE;",
                                                       "&GE;",
                                                       "&AND;",
                                                       "&OR;",
                                                       "(",
                                                       ")",
                                                       "|",
                                                       "&",
                                                       "FN",
                                                       "N.FAMILY",
                                                       "TEL[TYPE=CELL]",
                                                       "CATEGORIES",
                                                       "DTSTART",
                                                       "PRIORITY",
                                                       "=",
                                                       "<>",
                                                       "%",
                                                       "%2",
                                                       "%41",
                                                       "SINCE",
                                                       "&EQ;20260101T000000Z",
                                                       "LIMIT",
                                                       "&NULL;",
                                                       " ",
                                                       "x",
                                                       "3",
                                                       "/dr(",
                                                       "-30,365)",
                                                       "?",
                                                       "/fi(",
                                                       "/na",
                                                       "\n",
                                                       "]",
                                                       "[",
                                                       ".",
                                                       "^",
                                                       ":",
                                                       "/max(2)"};

std::string soup(std::mt19937& rng) {
    std::uniform_int_distribution<std::size_t> count(1, 30), pick(0, k_tokens.size() - 1);
    std::string out;
    for (std::size_t n = count(rng); n > 0; --n) out += k_tokens[pick(rng)];
    return out;
}

constexpr std::array<std::string_view, 9> k_properties = {
    "FN", "n.given", "TEL[TYPE=CELL]", "CATEGORIES", "DTSTART", "PRIORITY", "X-A", "SINCE", "LIMIT"};
constexpr std::array<std::string_view, 10> k_operators = {"&EQ;",   "&iNE;", "&LT;", "&GE;", "&iCON;",
                                                          "&NCON;", "=",     "<>",   "^%",   "$"};
constexpr std::array<std::string_view, 8> k_values = {"x", "3",   "%26a%29",   "&NULL;", "20260101T000000Z",
                                                      "",  " b ", "2026-01-01"};

// Mostly well-formed expressions (so the round trip is exercised), some with one token of soup spliced in.
std::string grammatical(std::mt19937& rng, int depth = 0) {
    auto pick = [&](const auto& list) {
        return list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(rng)];
    };
    std::string out;
    for (int n = std::uniform_int_distribution<int>(1, 3)(rng); n > 0; --n) {
        if (!out.empty()) out += std::uniform_int_distribution<int>(0, 1)(rng) ? "&AND;" : "&OR;";
        if (depth < 3 && std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
            out += "(" + grammatical(rng, depth + 1) + ")";
        } else {
            out += std::string(pick(k_properties)) + std::string(pick(k_operators)) + std::string(pick(k_values));
        }
    }
    if (depth == 0 && std::uniform_int_distribution<int>(0, 4)(rng) == 0)
        out.insert(std::uniform_int_distribution<std::size_t>(0, out.size())(rng), pick(k_tokens));
    return out;
}

void check_filter(const item_filter& filter, const std::vector<item>& items, std::string_view input) {
    auto back = decode_filter(encode_filter(filter));
    ASSERT_TRUE(back) << input << "\n" << encode_filter(filter) << "\n" << back.error().message;
    EXPECT_EQ(*back, filter) << input << "\n" << encode_filter(filter);
    EXPECT_LE(describe(filter).size(), 240u) << input;
    auto now = std::chrono::system_clock::time_point(std::chrono::hours(24 * 20500));
    for (const auto& value : items) (void)matches(filter.record, value, now);
}

TEST(filter_robustness, random_token_soup_parses_or_fails_cleanly_and_round_trips) {
    std::vector<item> items = {
        testing::parse_or_fail("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nFN:Jane Doe\r\nTEL;TYPE=CELL:3\r\n"
                               "CATEGORIES:x\r\nEND:VCARD\r\n",
                               item_dialect::vcard30),
        testing::parse_or_fail("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\n"
                               "DTSTART:20260101T000000Z\r\nPRIORITY:3\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\n"
                               "END:VCALENDAR\r\n",
                               item_dialect::ical20),
        testing::parse_or_fail("x\n3", item_dialect::plain_text)};
    std::mt19937 rng(18);
    int parsed = 0, options = 0;
    for (int i = 0; i < 4000; ++i) {
        std::string input = i % 2 ? soup(rng) : grammatical(rng);
        if (auto f = parse_filter_cgi(input)) {
            ++parsed;
            check_filter(*f, items, input);
        }
        if (auto o = parse_target_options("cal?" + input)) {
            ++options;
            check_filter(o->filter, items, input);
        }
        if (HasFailure()) break;
    }
    // The soup must reach the interesting paths, not only fail at its first token.
    EXPECT_GT(parsed, 600);
    EXPECT_GT(options, 600);
}

}  // namespace
}  // namespace syncml::matching
