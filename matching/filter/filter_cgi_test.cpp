// The OMA DS 1.2 filter CGI grammar as clients send it: valid filters become the expected model, broken ones a
// clear error, hostile ones (deep nesting, huge input, many terms) an error in bounded time.
#include "matching/filter/filter_cgi.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "matching/calendar/calendar_values.hpp"

namespace syncml::matching {
namespace {

item_filter parse_ok(std::string_view text) {
    auto r = parse_filter_cgi(text);
    EXPECT_TRUE(r.has_value()) << text << ": " << (r ? "" : r.error().message);
    return r ? *r : item_filter{};
}

std::string parse_error(std::string_view text, const filter_limits& limits = {}) {
    auto r = parse_filter_cgi(text, filter_semantics::exclusive, limits);
    EXPECT_FALSE(r.has_value()) << text;
    return r ? std::string() : r.error().message;
}

const comparison& root_term(const item_filter& f) {
    const auto& e = f.record.where;
    EXPECT_FALSE(e.empty());
    EXPECT_EQ(e.nodes[e.root].kind, node_kind::comparison);
    return e.nodes[e.root].term;
}

TEST(filter_cgi, reads_every_operator_entity_with_and_without_case_folding) {
    struct expectation {
        std::string_view text;
        compare_op op;
        bool folded;
    };
    for (auto [text, op, folded] :
         {expectation{"FN&EQ;Anna", compare_op::equal, false}, expectation{"FN&iEQ;Anna", compare_op::equal, true},
          expectation{"FN&NE;Anna", compare_op::not_equal, false},
          expectation{"FN&iNE;Anna", compare_op::not_equal, true}, expectation{"FN&LT;Anna", compare_op::less, false},
          expectation{"FN&iGT;Anna", compare_op::greater, true},
          expectation{"FN&LE;Anna", compare_op::less_equal, false},
          expectation{"FN&GE;Anna", compare_op::greater_equal, false},
          expectation{"FN&CON;Anna", compare_op::contains, false},
          expectation{"FN&iCON;Anna", compare_op::contains, true},
          expectation{"FN&NCON;Anna", compare_op::not_contains, false},
          expectation{"FN&iNCON;Anna", compare_op::not_contains, true},
          expectation{"FN&eq;Anna", compare_op::equal, false}}) {
        auto f = parse_ok(text);
        const auto& t = root_term(f);
        EXPECT_EQ(t.op, op) << text;
        EXPECT_EQ(t.case_insensitive, folded) << text;
        EXPECT_EQ(t.property.name, "FN");
        EXPECT_EQ(t.value, "Anna");
    }
}

TEST(filter_cgi, reads_the_synthesis_short_operators) {
    EXPECT_EQ(root_term(parse_ok("CATEGORIES%Work")).op, compare_op::contains);
    EXPECT_EQ(root_term(parse_ok("CATEGORIES$Work")).op, compare_op::not_contains);
    EXPECT_EQ(root_term(parse_ok("PRIORITY<>1")).op, compare_op::not_equal);
    EXPECT_EQ(root_term(parse_ok("PRIORITY<=2")).op, compare_op::less_equal);
    EXPECT_EQ(root_term(parse_ok("PRIORITY>=2")).op, compare_op::greater_equal);
    auto folded = parse_ok("FN^=anna");
    EXPECT_TRUE(root_term(folded).case_insensitive);
    EXPECT_EQ(root_term(folded).op, compare_op::equal);
}

TEST(filter_cgi, decodes_escapes_and_null_values) {
    EXPECT_EQ(root_term(parse_ok("NOTE&CON;a%26b%29c%7Cd")).value, "a&b)c|d");
    EXPECT_EQ(root_term(parse_ok("NOTE&CON;100%")).value, "100%");  // not an escape: kept
    EXPECT_EQ(root_term(parse_ok("NOTE&CON;  two words  ")).value, "two words");
    EXPECT_EQ(root_term(parse_ok("NOTE&CON;%20x%20")).value, " x ");
    EXPECT_TRUE(root_term(parse_ok("PHOTO&NE;&NULL;")).null_value);
    EXPECT_TRUE(root_term(parse_ok("PHOTO&EQ;")).null_value);
}

TEST(filter_cgi, reads_property_parts_parameters_and_aliases) {
    auto sub = root_term(parse_ok("n.family&iEQ;Smith")).property;
    EXPECT_EQ(sub.name, "N");
    EXPECT_EQ(sub.sub_field, "FAMILY");
    auto param = root_term(parse_ok("TEL[TYPE=CELL]&CON;+49")).property;
    EXPECT_EQ(param.name, "TEL");
    EXPECT_EQ(param.param_name, "TYPE");
    EXPECT_EQ(param.param_value, "CELL");
    auto both = root_term(parse_ok("ADR[TYPE=WORK].LOCALITY&EQ;Berlin")).property;
    EXPECT_EQ(both.sub_field, "LOCALITY");
    EXPECT_EQ(both.param_value, "WORK");
    // Funambol clients say "modified".
    EXPECT_EQ(root_term(parse_ok("modified&iGE;20051211T000000Z")).property.name, "LAST-MODIFIED");
}

TEST(filter_cgi, and_binds_tighter_than_or_and_parentheses_group) {
    auto f = parse_ok("CATEGORIES&CON;A&OR;CATEGORIES&CON;B&AND;FN&CON;C");
    const auto& e = f.record.where;
    const auto& root = e.nodes[e.root];
    ASSERT_EQ(root.kind, node_kind::any_of);
    ASSERT_EQ(root.children.size(), 2u);
    EXPECT_EQ(e.nodes[root.children[0]].kind, node_kind::comparison);
    EXPECT_EQ(e.nodes[root.children[1]].kind, node_kind::all_of);

    auto grouped = parse_ok("(CATEGORIES&CON;A | CATEGORIES&CON;B) & FN&CON;C");
    const auto& g = grouped.record.where;
    ASSERT_EQ(g.nodes[g.root].kind, node_kind::all_of);
    EXPECT_EQ(g.nodes[g.nodes[g.root].children[0]].kind, node_kind::any_of);
    // Children always precede their parent.
    for (std::uint32_t i = 0; i < g.nodes.size(); ++i)
        for (auto child : g.nodes[i].children) EXPECT_LT(child, i);
}

TEST(filter_cgi, flattens_chains_of_one_operator) {
    auto f = parse_ok("FN&CON;a&AND;FN&CON;b&AND;FN&CON;c&amp;FN&CON;d");
    const auto& e = f.record.where;
    EXPECT_EQ(e.nodes[e.root].kind, node_kind::all_of);
    EXPECT_EQ(e.nodes[e.root].children.size(), 4u);
}

TEST(filter_cgi, turns_keywords_into_settings_anded_with_the_whole_filter) {
    // What the Synthesis client sends for a date range, appended to an existing OR filter.
    auto f =
        parse_ok("CATEGORIES&CON;A&OR;CATEGORIES&CON;B&AND;SINCE&EQ;20260101T000000Z&AND;BEFORE&EQ;20270101T000000Z");
    const auto& e = f.record.where;
    ASSERT_EQ(e.nodes[e.root].kind, node_kind::any_of);
    EXPECT_EQ(e.nodes.size(), 3u);  // two comparisons and their OR: the keywords left the expression
    ASSERT_EQ(f.record.windows.size(), 1u);
    const auto& w = f.record.windows[0];
    EXPECT_EQ(w.field, window_field::span);
    ASSERT_TRUE(w.from && w.to);
    EXPECT_FALSE(w.from->relative);
    EXPECT_EQ(w.from->seconds, days_from_civil(2026, 1, 1) * 86400);
    EXPECT_EQ(w.to->seconds, days_from_civil(2027, 1, 1) * 86400);

    auto settings = parse_ok("LIMIT&EQ;100&AND;MAXSIZE&EQ;2048&AND;NOATT&EQ;1");
    EXPECT_TRUE(settings.record.where.empty());
    EXPECT_EQ(settings.record.max_items, 100u);
    EXPECT_EQ(settings.fields.max_value_size, 2048u);
    EXPECT_EQ(settings.fields.exclude, std::vector<std::string>{"ATTACH"});
    EXPECT_EQ(parse_ok("MAXCOUNT&EQ;7").record.max_items, 7u);
    EXPECT_FALSE(parse_ok("MAXCOUNT&EQ;0").record.max_items);
    EXPECT_TRUE(parse_ok("NOATT&EQ;0").fields.exclude.empty());
}

TEST(filter_cgi, keeps_the_narrowest_of_repeated_date_keywords) {
    auto f = parse_ok("SINCE&EQ;20260101&AND;SINCE&EQ;20260301&AND;BEFORE&EQ;20270101&AND;BEFORE&EQ;20261201");
    ASSERT_EQ(f.record.windows.size(), 1u);
    EXPECT_EQ(f.record.windows[0].from->seconds, days_from_civil(2026, 3, 1) * 86400);
    EXPECT_EQ(f.record.windows[0].to->seconds, days_from_civil(2026, 12, 1) * 86400);
}

TEST(filter_cgi, carries_the_filter_type) {
    auto r = parse_filter_cgi("FN&CON;a", filter_semantics::inclusive);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->record.semantics, filter_semantics::inclusive);
    EXPECT_EQ(parse_ok("FN&CON;a").record.semantics, filter_semantics::exclusive);
}

TEST(filter_cgi, accepts_an_empty_filter_as_no_condition) {
    auto f = parse_ok("");
    EXPECT_TRUE(f.record.where.empty());
    EXPECT_TRUE(f.record.windows.empty());
    EXPECT_TRUE(parse_ok("   ").record.where.empty());
}

TEST(filter_cgi, rejects_broken_filters_with_a_message_naming_the_problem) {
    for (auto [input, message] : std::initializer_list<std::pair<std::string, std::string_view>>{
             {"&EQ;Anna", "expected a property name"},
             {"FN Anna", "expected a comparison operator"},
             {"FN&XX;Anna", "unknown comparison operator"},
             {"(FN&EQ;a", "missing ')'"},
             {"FN&EQ;a)", "unbalanced ')'"},
             {"FN&EQ;a&OR;", "expected a property name"},
             {"DTSTART&GT;yesterday", "DTSTART needs an ISO 8601"},
             {"PRIORITY&GT;high", "PRIORITY needs a number"},
             {"N.NICKNAME&EQ;x", "N has no part 'NICKNAME'"},
             {"TEL[TYPE=CELL&EQ;1", "bad [parameter]"},
             {"TEL[TYPE=CE\nLL]&EQ;1", "bad [parameter]"},
             {"SINCE&GT;20260101", "SINCE takes &EQ;"},
             {"SINCE&EQ;soon", "SINCE needs an ISO 8601"},
             {"LIMIT&EQ;ten", "LIMIT needs a number"},
             {"FN&EQ;a b&c", "offset"},
         })
        EXPECT_NE(parse_error(input).find(message), std::string::npos) << input;
}

TEST(filter_cgi, refuses_what_it_cannot_evaluate_as_unsupported) {
    auto luid = parse_filter_cgi("&LUID;&EQ;17");
    ASSERT_FALSE(luid);
    EXPECT_EQ(luid.error().code, item_errc::unsupported);
    auto modifier = parse_filter_cgi("FN:=x");
    ASSERT_FALSE(modifier);
    EXPECT_EQ(modifier.error().code, item_errc::unsupported);
}

TEST(filter_cgi, rejects_deep_nesting_without_recursing_into_it) {
    std::string deep(100000, '(');
    deep += "FN&EQ;a" + std::string(100000, ')');
    EXPECT_NE(parse_error(deep).find("longer than"), std::string::npos);
    // Within the length limit the depth limit stops it.
    std::string nested = std::string(40, '(') + "FN&EQ;a" + std::string(40, ')');
    EXPECT_NE(parse_error(nested).find("nested deeper than 16"), std::string::npos);
    std::string allowed = std::string(16, '(') + "FN&EQ;a" + std::string(16, ')');
    EXPECT_TRUE(parse_filter_cgi(allowed));
    // Even with the length limit lifted, 100k parentheses cost one linear scan up to the depth limit.
    filter_limits wide{.max_length = 1 << 20, .max_depth = 16, .max_terms = 64};
    auto start = std::chrono::steady_clock::now();
    EXPECT_NE(parse_error(deep, wide).find("nested deeper"), std::string::npos);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(filter_cgi, rejects_too_many_terms_and_long_input_in_linear_time) {
    std::string many;
    for (int i = 0; i < 65; ++i) many += (i ? "&OR;" : "") + std::string("FN&EQ;x");
    EXPECT_NE(parse_error(many).find("more than 64 terms"), std::string::npos);

    filter_limits wide{.max_length = 1 << 22, .max_depth = 16, .max_terms = 1 << 20};
    std::string value(1 << 20, 'v');
    auto start = std::chrono::steady_clock::now();
    auto r = parse_filter_cgi("NOTE&CON;" + value, filter_semantics::exclusive, wide);
    EXPECT_TRUE(r);
    std::string terms;
    for (int i = 0; i < 20000; ++i) terms += (i ? "|" : "") + std::string("FN=x");
    EXPECT_TRUE(parse_filter_cgi(terms, filter_semantics::exclusive, wide));
    // An operator entity without ';' ends the parse at once.
    std::string ampersands;
    for (int i = 0; i < 200000; ++i) ampersands += "A&";
    EXPECT_FALSE(parse_filter_cgi(ampersands, filter_semantics::exclusive, wide));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(filter_cgi, stops_at_an_unmatched_parenthesis_in_prefix_mode) {
    auto r = parse_filter_cgi_prefix("CATEGORIES%Work)/dr(1,2)");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->consumed, 15u);
    EXPECT_EQ(root_term(r->filter).value, "Work");
}

TEST(filter_cgi, ands_two_filters_into_one) {
    auto a = parse_ok("FN&CON;a&OR;FN&CON;b&AND;LIMIT&EQ;10&AND;MAXSIZE&EQ;100");
    auto b = parse_ok("NOTE&CON;c&AND;LIMIT&EQ;5&AND;NOATT&EQ;1&AND;SINCE&EQ;20260101");
    and_into(a, b);
    const auto& e = a.record.where;
    EXPECT_EQ(e.nodes[e.root].kind, node_kind::all_of);
    EXPECT_EQ(e.nodes[e.root].children.size(), 2u);
    for (std::uint32_t i = 0; i < e.nodes.size(); ++i)
        for (auto child : e.nodes[i].children) EXPECT_LT(child, i);
    EXPECT_EQ(a.record.max_items, 5u);
    EXPECT_EQ(a.fields.max_value_size, 100u);
    EXPECT_EQ(a.fields.exclude, std::vector<std::string>{"ATTACH"});
    EXPECT_EQ(a.record.windows.size(), 1u);

    item_filter x, y;
    x.fields.size_limits = {field_rule{"PHOTO", 5000}};
    y.fields.size_limits = {field_rule{"PHOTO", 2000}, field_rule{"NOTE", 10}};
    and_into(x, y);
    EXPECT_EQ(x.fields.size_limits, (std::vector<field_rule>{field_rule{"PHOTO", 2000}, field_rule{"NOTE", 10}}));
}

TEST(filter_cgi, ands_include_lists_and_limits_to_what_both_filters_allow) {
    item_filter x, y;
    y.fields.include = {field_rule{"FN", std::nullopt}, field_rule{"TEL", 100}};
    y.record.max_items = 7;
    and_into(x, y);  // x lists nothing: y's list and limit
    EXPECT_EQ(x.fields.include, y.fields.include);
    EXPECT_EQ(x.record.max_items, 7u);

    item_filter z;
    z.fields.include = {field_rule{"TEL", std::nullopt}, field_rule{"EMAIL", std::nullopt}};
    and_into(x, z);  // both list properties: the ones both name, as x had them
    EXPECT_EQ(x.fields.include, (std::vector<field_rule>{field_rule{"TEL", 100}}));
    EXPECT_EQ(x.record.max_items, 7u);
    EXPECT_TRUE(x.record.where.empty());

    item_filter limited, unlimited;
    limited.fields.size_limits = {field_rule{"PHOTO", 5000}};
    unlimited.fields.size_limits = {field_rule{"PHOTO", std::nullopt}};
    and_into(limited, unlimited);
    EXPECT_EQ(limited.fields.size_limits, (std::vector<field_rule>{field_rule{"PHOTO", 5000}}));
    EXPECT_FALSE(limited.fields.max_value_size);
}

}  // namespace
}  // namespace syncml::matching
