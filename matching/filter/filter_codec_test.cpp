// Stored filters come back as the filters that were stored, whatever their values hold.
#include "matching/filter/filter_codec.hpp"

#include <gtest/gtest.h>

#include "matching/filter/filter_cgi.hpp"
#include "matching/filter/target_options.hpp"

namespace syncml::matching {
namespace {

void expect_round_trip(const item_filter& filter) {
    std::string text = encode_filter(filter);
    auto back = decode_filter(text);
    ASSERT_TRUE(back) << text << ": " << back.error().message;
    EXPECT_EQ(*back, filter) << text;
}

TEST(filter_codec, round_trips_parsed_filters) {
    for (std::string_view cgi : {
             "FN&EQ;Anna",
             "CATEGORIES&iCON;Work&OR;N.FAMILY&EQ;Smith&AND;TEL[TYPE=CELL]&NE;&NULL;",
             "(FN&CON;a|FN&CON;b)&(NOTE&NCON;c|(SUMMARY&LT;d&SUMMARY&iGE;e))",
             "NOTE&CON;100%25 %26 more%0Aline%7C(x%29%3A%26",
             "DTSTART&GE;20260101T000000Z&AND;PRIORITY&LE;3&AND;SINCE&EQ;20250101&AND;LIMIT&EQ;20&AND;NOATT&EQ;1",
             "MAXSIZE&EQ;4096",
         }) {
        auto parsed = parse_filter_cgi(cgi, filter_semantics::inclusive);
        ASSERT_TRUE(parsed) << cgi;
        expect_round_trip(*parsed);
    }
}

TEST(filter_codec, round_trips_target_options_and_server_windows) {
    auto options = parse_target_options("cal?/dr(-30,365)/max(9)/li(100)/na/fi(SUMMARY%a)LOCATION%b");
    ASSERT_TRUE(options);
    expect_round_trip(options->filter);

    item_filter server;
    server.record.windows.push_back(date_window{.field = window_field::last_modified,
                                                .from = window_bound{.relative = false, .seconds = -86400, .days = 0},
                                                .to = std::nullopt});
    server.fields.include = {field_rule{"TEL", std::nullopt}, field_rule{"PHOTO", 65536}};
    server.fields.exclude = {"X-ODD:NAME\nlevel=error", "PHOTO"};
    server.fields.size_limits = {field_rule{"PHOTO", 65536}, field_rule{"NOTE", 10}};
    expect_round_trip(server);
    expect_round_trip(item_filter{});
    item_filter kind;  // a device's calendar on a collection of events and tasks (issue 38)
    kind.record.kind = item_kind::event;
    expect_round_trip(kind);
    EXPECT_EQ(encode_filter(kind), "type=exclusive\nkind=calendar\n");
}

TEST(filter_codec, writes_the_expression_in_the_cgi_grammar) {
    auto parsed = parse_filter_cgi("(CATEGORIES^%work | FN=x y) & PHOTO<>");
    ASSERT_TRUE(parsed);
    EXPECT_EQ(to_cgi(parsed->record.where), "(CATEGORIES&iCON;work&OR;FN&EQ;x%20y)&AND;PHOTO&NE;&NULL;");
    EXPECT_EQ(encode_filter(*parsed),
              "type=exclusive\nwhere=(CATEGORIES&iCON;work&OR;FN&EQ;x%20y)&AND;PHOTO&NE;&NULL;\n");
}

TEST(filter_codec, writes_a_node_that_points_forward_as_one_that_never_holds) {
    filter_expression e;
    e.nodes.push_back(filter_node{.kind = node_kind::any_of, .term = {}, .children = {0}});
    EXPECT_EQ(to_cgi(e), "(X-INVALID&EQ;&NULL;&AND;X-INVALID&NE;&NULL;)");
}

TEST(filter_codec, rejects_what_it_did_not_write) {
    for (std::string_view text :
         {"type=sometimes\n", "colour=blue\n", "window=span r1\n", "window=span x1 -\n", "window=later - -\n",
          "limit=many\n", "kind=events\n", "include=:5\n", "include=TEL:x\n", "exclude=\n", "no equals sign\n"}) {
        auto r = decode_filter(text);
        ASSERT_FALSE(r) << text;
        EXPECT_EQ(r.error().line, 1) << text;
    }
    auto bad_where = decode_filter("type=exclusive\nwhere=FN&XX;1\n");
    ASSERT_FALSE(bad_where);
    EXPECT_EQ(bad_where.error().line, 2);
    EXPECT_NE(bad_where.error().message.find("unknown comparison operator"), std::string::npos);
    EXPECT_FALSE(decode_filter(std::string(70000, 'x')));
}

}  // namespace
}  // namespace syncml::matching
