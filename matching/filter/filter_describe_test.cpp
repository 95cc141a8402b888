// The session log line's rendering of filters: compact, complete for ordinary filters, bounded and unforgeable
// for hostile ones.
#include "matching/filter/filter_describe.hpp"

#include <gtest/gtest.h>

#include "matching/filter/filter_cgi.hpp"
#include "matching/filter/target_options.hpp"

namespace syncml::matching {
namespace {

item_filter parse_ok(std::string_view text, filter_semantics semantics = filter_semantics::exclusive) {
    auto r = parse_filter_cgi(text, semantics);
    EXPECT_TRUE(r) << text;
    return r ? *r : item_filter{};
}

TEST(describe_filter, says_none_for_no_filter) { EXPECT_EQ(describe(item_filter{}), "none"); }

TEST(describe_filter, renders_expression_window_limit_and_fields) {
    auto f = parse_ok("(CATEGORIES&iCON;Work|N.FAMILY&EQ;Smith)&TEL[TYPE=CELL]&NE;&NULL;&LIMIT&EQ;100",
                      filter_semantics::inclusive);
    EXPECT_EQ(describe(f),
              "inclusive where=((CATEGORIES iCON \"Work\" | N.FAMILY EQ \"Smith\") & TEL[TYPE=\"CELL\"] NE NULL) "
              "limit=100");
    auto o = parse_target_options("cal?/dr(-30,365)/na/li(1024)");
    ASSERT_TRUE(o);
    EXPECT_EQ(describe(o->filter), "exclusive span=[now-30d,now+365d) exclude=ATTACH maxsize=1024");
    auto absolute = parse_ok("SINCE&EQ;20260101T000000Z");
    EXPECT_EQ(describe(absolute), "exclusive span=[20260101T000000Z,)");
    item_filter fields;
    fields.fields.include = {field_rule{"TEL", std::nullopt}, field_rule{"NOTE", 512}};
    EXPECT_EQ(describe(fields), "exclusive include=TEL,NOTE:512");
    item_filter sizes;
    sizes.fields.size_limits = {field_rule{"PHOTO", 65536}};
    EXPECT_EQ(describe(sizes), "exclusive sizes=PHOTO:65536");
}

TEST(describe_filter, escapes_quotes_and_control_characters_and_stays_short) {
    auto f = parse_ok("NOTE&CON;a%22b%0Ac%5C");
    EXPECT_EQ(describe(f), "exclusive where=NOTE CON \"a\\\"b?c\\\\\"");
    std::string many;
    for (int i = 0; i < 60; ++i) many += (i ? "&OR;" : "") + std::string("SUMMARY&CON;") + std::string(50, 'x');
    auto big = parse_ok(many);
    auto text = describe(big);
    EXPECT_LE(text.size(), 240u);
    EXPECT_EQ(text.substr(text.size() - 3), "...");
    item_filter odd;
    odd.fields.exclude = {"PHOTO\n level=error"};
    EXPECT_EQ(describe(odd), "exclusive exclude=PHOTO??level?error");
}

}  // namespace
}  // namespace syncml::matching
