#include "dav/dav_xml.hpp"

#include <gtest/gtest.h>

namespace syncml::dav {
namespace {

std::string nested(std::size_t levels) {
    std::string open, close;
    for (std::size_t i = 0; i < levels; ++i) {
        open += "<a>";
        close += "</a>";
    }
    return "<r xmlns=\"DAV:\">" + open + close + "</r>";
}

TEST(dav_xml, resolves_namespaces_by_uri_whatever_the_prefix) {
    auto parsed = parse_xml(
        "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:carddav\">"
        "<D:prop><C:address-data/><getctag xmlns=\"http://calendarserver.org/ns/\"/><plain xmlns=\"\"/></D:prop>"
        "</D:propfind>");
    ASSERT_TRUE(parsed.root) << parsed.error;
    EXPECT_TRUE(parsed.root->is(ns_dav, "propfind"));
    const auto* prop = parsed.root->child(ns_dav, "prop");
    ASSERT_TRUE(prop);
    ASSERT_EQ(prop->children.size(), 3u);
    EXPECT_TRUE(prop->children[0].is(ns_carddav, "address-data"));
    EXPECT_TRUE(prop->children[1].is(ns_calendarserver, "getctag"));
    EXPECT_TRUE(prop->children[2].is("", "plain"));
    EXPECT_FALSE(parsed.root->child(ns_carddav, "prop")) << "same local name, other namespace";
}

TEST(dav_xml, keeps_text_and_attributes) {
    auto parsed = parse_xml(
        "<C:text-match xmlns:C=\"urn:ietf:params:xml:ns:carddav\" match-type=\"equals\" "
        "C:collation=\"i;unicode-casemap\">Ann &amp; Bob<![CDATA[ <x>]]></C:text-match>");
    ASSERT_TRUE(parsed.root) << parsed.error;
    EXPECT_EQ(parsed.root->text, "Ann & Bob <x>");
    EXPECT_EQ(parsed.root->attribute("match-type"), "equals");
    EXPECT_EQ(parsed.root->attribute("collation"), "i;unicode-casemap");
    EXPECT_EQ(parsed.root->attribute("negate-condition"), "");
}

TEST(dav_xml, refuses_malformed_documents) {
    for (const char* body : {"", "   ", "<a>", "<a></b>", "<a/><b/>", "not xml", "<a x=1/>"}) {
        auto parsed = parse_xml(body);
        EXPECT_FALSE(parsed.root) << body;
        EXPECT_FALSE(parsed.error.empty()) << body;
    }
}

TEST(dav_xml, refuses_a_doctype_so_that_entities_never_expand) {
    const std::string laughs =
        "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">"
        "<!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">"
        "<!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">"
        "<!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">"
        "<!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">"
        "<!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">"
        "<!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">"
        "<!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">"
        "<!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">"
        "]><D:propfind xmlns:D=\"DAV:\"><D:prop><D:displayname>&lol9;</D:displayname></D:prop></D:propfind>";
    auto parsed = parse_xml(laughs);
    EXPECT_FALSE(parsed.root);
    EXPECT_EQ(parsed.error, "DOCTYPE is not allowed");

    auto external = parse_xml("<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>");
    EXPECT_FALSE(external.root);
    EXPECT_EQ(external.error, "DOCTYPE is not allowed");
}

TEST(dav_xml, refuses_undeclared_entities) {
    auto parsed = parse_xml("<a>&xxe;</a>");
    EXPECT_FALSE(parsed.root);
    EXPECT_FALSE(parsed.error.empty());
}

TEST(dav_xml, allows_the_maximum_depth_and_not_one_level_more) {
    auto deepest = parse_xml(nested(k_max_depth - 1));
    ASSERT_TRUE(deepest.root) << deepest.error;
    const xml_element* at = &*deepest.root;
    std::size_t levels = 1;
    while (!at->children.empty()) {
        at = &at->children.front();
        ++levels;
    }
    EXPECT_EQ(levels, k_max_depth);

    auto too_deep = parse_xml(nested(k_max_depth));
    EXPECT_FALSE(too_deep.root);
    EXPECT_EQ(too_deep.error, "elements nested too deeply");
}

TEST(dav_xml, refuses_more_elements_than_the_limit) {
    std::string many = "<r>";
    for (std::size_t i = 0; i < k_max_elements - 1; ++i) many += "<e/>";
    auto at_limit = parse_xml(many + "</r>");
    ASSERT_TRUE(at_limit.root) << at_limit.error;
    EXPECT_EQ(at_limit.root->children.size(), k_max_elements - 1);

    auto over = parse_xml(many + "<e/></r>");
    EXPECT_FALSE(over.root);
    EXPECT_EQ(over.error, "too many elements");
}

TEST(dav_xml, escapes_markup_characters) {
    EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c'");
    auto round = parse_xml("<a x=\"" + xml_escape("<\"&>") + "\">" + xml_escape("<\"&>") + "</a>");
    ASSERT_TRUE(round.root) << round.error;
    EXPECT_EQ(round.root->text, "<\"&>");
    EXPECT_EQ(round.root->attribute("x"), "<\"&>");
}

}  // namespace
}  // namespace syncml::dav
