// Synthesis-style options in datastore URIs become the datastore path plus a filter.
#include "matching/filter/target_options.hpp"

#include <gtest/gtest.h>

namespace syncml::matching {
namespace {

target_options parse_ok(std::string_view uri) {
    auto r = parse_target_options(uri);
    EXPECT_TRUE(r) << uri << ": " << (r ? "" : r.error().message);
    return r ? *r : target_options{};
}

std::string parse_error(std::string_view uri) {
    auto r = parse_target_options(uri);
    EXPECT_FALSE(r) << uri;
    return r ? std::string() : r.error().message;
}

date_window relative(std::int64_t from, std::int64_t to) {
    return date_window{.field = window_field::span,
                       .from = window_bound{.relative = true, .seconds = 0, .days = from},
                       .to = window_bound{.relative = true, .seconds = 0, .days = to}};
}

TEST(target_options, leaves_a_plain_path_alone) {
    auto o = parse_ok("./calendar");
    EXPECT_EQ(o.path, "./calendar");
    EXPECT_EQ(o.filter, item_filter{});
    EXPECT_FALSE(o.force_slow_sync);
}

TEST(target_options, reads_a_date_range_after_the_question_mark_and_as_a_path_segment) {
    auto query = parse_ok("./calendar?/dr(-30,365)");
    EXPECT_EQ(query.path, "./calendar");
    EXPECT_EQ(query.filter.record.windows, std::vector<date_window>{relative(-30, 365)});
    auto segment = parse_ok("./calendar/dr(-30,365)");
    EXPECT_EQ(segment.path, "./calendar");
    EXPECT_EQ(segment.filter.record.windows, std::vector<date_window>{relative(-30, 365)});
}

TEST(target_options, reads_limits_attachments_and_slow_sync) {
    auto o = parse_ok("tasks?/max(50)/li(4096)/na/slow");
    EXPECT_EQ(o.path, "tasks");
    EXPECT_EQ(o.filter.record.max_items, 50u);
    EXPECT_EQ(o.filter.fields.max_value_size, 4096u);
    EXPECT_EQ(o.filter.fields.exclude, std::vector<std::string>{"ATTACH"});
    EXPECT_TRUE(o.force_slow_sync);
    EXPECT_FALSE(parse_ok("tasks?/max(0)").filter.record.max_items);
    EXPECT_EQ(parse_ok("./tasks/max(5)/dr(0,7)").path, "./tasks");
}

TEST(target_options, reads_cgi_filters_bare_and_in_fi_options) {
    auto bare = parse_ok("contacts?CATEGORIES&iCON;Work");
    EXPECT_EQ(bare.path, "contacts");
    const auto& e = bare.filter.record.where;
    ASSERT_EQ(e.nodes.size(), 1u);
    EXPECT_EQ(e.nodes[0].term.property.name, "CATEGORIES");
    EXPECT_EQ(e.nodes[0].term.value, "Work");

    auto both = parse_ok("calendar?/fi(CATEGORIES%Work|(SUMMARY%a))/dr(-1,1)LOCATION%Berlin");
    const auto& w = both.filter.record.where;
    EXPECT_EQ(w.nodes[w.root].kind, node_kind::all_of);
    EXPECT_EQ(w.nodes[w.root].children.size(), 2u);
    EXPECT_EQ(both.filter.record.windows, std::vector<date_window>{relative(-1, 1)});
    auto keywords = parse_ok("calendar?/fi(SINCE&EQ;20260101T000000Z)");
    EXPECT_TRUE(keywords.filter.record.where.empty());
    EXPECT_EQ(keywords.filter.record.windows.size(), 1u);
}

TEST(target_options, rejects_unknown_and_malformed_options) {
    for (auto [input, message] : std::initializer_list<std::pair<std::string, std::string_view>>{
             {"calendar?/xy(1)", "unknown option /xy"},
             {"calendar?/bogus", "unknown option /bogus"},
             {"calendar?/dr(365,-30)", "/dr needs"},
             {"calendar?/dr(-30)", "/dr needs"},
             {"calendar?/dr(-99999,1)", "/dr needs"},
             {"calendar/dr(a,b)", "/dr needs"},
             {"calendar?/max(many)", "/max needs a number"},
             {"calendar?/dr(1,2", "without ')'"},
             {"calendar?/fi(FN%a", "without ')'"},
             {"calendar?FN", "filter: expected a comparison operator"},
             {"calendar?" + std::string(5000, 'x'), "longer than"},
         })
        EXPECT_NE(parse_error(input).find(message), std::string::npos) << input;
    auto unsupported = parse_target_options("calendar?/o(x)");
    ASSERT_FALSE(unsupported);
    EXPECT_EQ(unsupported.error().code, item_errc::unsupported);
}

TEST(target_options, keeps_path_segments_that_are_no_options) {
    EXPECT_EQ(parse_ok("./store/sub(1)").path, "./store/sub(1)");
    EXPECT_EQ(parse_ok("./a/b").path, "./a/b");
}

}  // namespace
}  // namespace syncml::matching
