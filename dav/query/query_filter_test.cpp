#include "dav/query/query_filter.hpp"

#include <gtest/gtest.h>

#include "dav/query/query_test_support.hpp"

namespace syncml::dav::query {
namespace {

using namespace testing;

parsed<calendar_filter> calendar(const std::string& filter) {
    const auto element = xml(filter);
    return parse_calendar_filter(&element);
}

parsed<card_filter> card(const std::string& inner, const std::string& attributes = "") {
    const auto element =
        xml("<R:filter xmlns:R=\"urn:ietf:params:xml:ns:carddav\"" + attributes + ">" + inner + "</R:filter>");
    return parse_card_filter(&element);
}

TEST(query_filter, reads_a_calendar_filter_into_a_tree) {
    const auto parsed = calendar(calendar_filter_xml(comp_xml(
        "VEVENT", range_xml("20250310T000000Z", "") +
                      "<C:prop-filter name=\"summary\"><C:text-match collation=\"i;octet\" negate-condition=\"yes\">"
                      "Party</C:text-match></C:prop-filter>"
                      "<C:prop-filter name=\"ATTENDEE\"><C:param-filter name=\"partstat\"><C:is-not-defined/>"
                      "</C:param-filter></C:prop-filter>" +
                      comp_xml("VALARM", range_xml("", "20250311T000000Z")))));
    ASSERT_FALSE(parsed.error) << parsed.error->detail;
    const auto& root = *parsed.filter->root;
    EXPECT_EQ(root.name, "VCALENDAR");
    ASSERT_EQ(root.comps.size(), 1u);
    const auto& event = root.comps[0];
    EXPECT_EQ(event.name, "VEVENT");
    ASSERT_TRUE(event.range);
    EXPECT_EQ(event.range->start, 1741564800);
    EXPECT_FALSE(event.range->end);
    ASSERT_EQ(event.props.size(), 2u);
    EXPECT_EQ(event.props[0].name, "SUMMARY");
    ASSERT_EQ(event.props[0].matches.size(), 1u);
    EXPECT_EQ(event.props[0].matches[0].text, "Party");
    EXPECT_EQ(event.props[0].matches[0].by, collation::octet);
    EXPECT_TRUE(event.props[0].matches[0].negate);
    EXPECT_EQ(event.props[1].params.at(0).name, "PARTSTAT");
    EXPECT_TRUE(event.props[1].params.at(0).is_not_defined);
    ASSERT_EQ(event.comps.size(), 1u);
    EXPECT_EQ(event.comps[0].name, "VALARM");
    EXPECT_EQ(event.comps[0].range->end, 1741651200);
}

TEST(query_filter, caldav_text_match_defaults_to_ascii_casemap_and_carddav_to_unicode_casemap) {
    auto cal = calendar(calendar_filter_xml(comp_xml("VEVENT",
                                                     "<C:prop-filter name=\"UID\"><C:text-match>x"
                                                     "</C:text-match></C:prop-filter>")));
    EXPECT_EQ(cal.filter->root->comps[0].props[0].matches[0].by, collation::ascii_casemap);
    auto c = card("<R:prop-filter name=\"FN\"><R:text-match>x</R:text-match></R:prop-filter>");
    ASSERT_FALSE(c.error);
    EXPECT_EQ(c.filter->props[0].matches[0].by, collation::unicode_casemap);
    EXPECT_EQ(c.filter->props[0].matches[0].type, match_type::contains);
}

TEST(query_filter, refuses_an_unsupported_collation_with_412_supported_collation) {
    auto cal = calendar(calendar_filter_xml(comp_xml(
        "VEVENT",
        "<C:prop-filter name=\"UID\"><C:text-match collation=\"i;klingon\">x</C:text-match></C:prop-filter>")));
    ASSERT_TRUE(cal.error);
    EXPECT_EQ(cal.error->status, 412);
    EXPECT_EQ(cal.error->precondition, "supported-collation");
    EXPECT_EQ(cal.error->ns, ns_caldav);
    auto c =
        card("<R:prop-filter name=\"FN\"><R:text-match collation=\"en;whatever\">x</R:text-match></R:prop-filter>");
    ASSERT_TRUE(c.error);
    EXPECT_EQ(c.error->status, 412);
    EXPECT_EQ(c.error->ns, ns_carddav);
}

TEST(query_filter, refuses_malformed_calendar_filters_as_valid_filter) {
    for (const auto& bad : {
             calendar_filter_xml(comp_xml("VEVENT", "<C:time-range/>")),
             calendar_filter_xml(comp_xml("VEVENT", range_xml("2025-03-10", ""))),
             calendar_filter_xml(comp_xml("VEVENT", "<C:is-not-defined/>" + range_xml("20250310T000000Z", ""))),
             calendar_filter_xml("<C:comp-filter/>"),
             calendar_filter_xml("<C:text-match>x</C:text-match>"),
             std::string("<C:filter xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><C:comp-filter name=\"VEVENT\"/>"
                         "</C:filter>"),
             std::string("<C:filter xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><C:comp-filter name=\"VCALENDAR\"/>"
                         "<C:comp-filter name=\"VCALENDAR\"/></C:filter>"),
         }) {
        auto parsed = calendar(bad);
        ASSERT_TRUE(parsed.error) << bad;
        EXPECT_EQ(parsed.error->status, 403) << bad;
        EXPECT_EQ(parsed.error->precondition, "valid-filter") << bad;
    }
}

TEST(query_filter, an_absent_or_empty_filter_selects_everything) {
    EXPECT_FALSE(parse_calendar_filter(nullptr).filter->root);
    EXPECT_FALSE(calendar("<C:filter xmlns:C=\"urn:ietf:params:xml:ns:caldav\"/>").filter->root);
    EXPECT_TRUE(parse_card_filter(nullptr).filter->props.empty());
}

TEST(query_filter, reads_carddav_tests_and_match_types) {
    auto c = card(
        "<R:prop-filter name=\"EMAIL\" test=\"allof\"><R:text-match match-type=\"ends-with\">.org"
        "</R:text-match><R:param-filter name=\"TYPE\"><R:text-match match-type=\"equals\">work"
        "</R:text-match></R:param-filter></R:prop-filter>",
        " test=\"allof\"");
    ASSERT_FALSE(c.error) << c.error->detail;
    EXPECT_TRUE(c.filter->all_of);
    const auto& p = c.filter->props.at(0);
    EXPECT_TRUE(p.all_of);
    EXPECT_EQ(p.matches.at(0).type, match_type::ends_with);
    EXPECT_EQ(p.params.at(0).match->type, match_type::equals);
    auto bad = card(
        "<R:prop-filter name=\"FN\"><R:text-match match-type=\"sounds-like\">x</R:text-match>"
        "</R:prop-filter>");
    ASSERT_TRUE(bad.error);
    EXPECT_EQ(bad.error->precondition, "supported-filter");
}

TEST(query_filter, bounds_the_size_of_a_filter) {
    std::string many;
    for (int i = 0; i < 300; ++i) many += "<C:prop-filter name=\"X-" + std::to_string(i) + "\"/>";
    auto parsed = calendar(calendar_filter_xml(comp_xml("VEVENT", many)));
    ASSERT_TRUE(parsed.error);
    EXPECT_EQ(parsed.error->precondition, "supported-filter");
}

TEST(query_filter, reads_utc_times_and_nothing_else) {
    EXPECT_EQ(parse_utc("19700101T000000Z"), 0);
    EXPECT_EQ(parse_utc("20250310T090000Z"), 1741597200);
    for (const char* bad : {"", "20250310T090000", "20250310 090000Z", "2025031OT090000Z", "20251310T090000Z",
                            "20250300T090000Z", "20250310T240000Z", "20250310T096000Z", "20250310T090000Z1"}) {
        EXPECT_FALSE(parse_utc(bad)) << bad;
    }
}

}  // namespace
}  // namespace syncml::dav::query
