#include "common/text/xml_tree.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

constexpr xml_limits k_small{.max_depth = 3, .max_elements = 5};

TEST(xml_tree, reads_elements_without_namespaces_with_their_text_in_utf8) {
    auto parsed = parse_xml(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><contact><FirstName>J\xF6rg</FirstName>"
        "<Photo TYPE=\"JPEG\">AAAA</Photo></contact>",
        {});
    ASSERT_TRUE(parsed.root) << parsed.error;
    EXPECT_TRUE(parsed.root->is("", "contact"));
    ASSERT_EQ(parsed.root->children.size(), 2u);
    EXPECT_EQ(parsed.root->child("", "FirstName")->text, "J\xC3\xB6rg");
    EXPECT_EQ(parsed.root->child("", "Photo")->attribute("TYPE"), "JPEG");
}

TEST(xml_tree, caps_depth_and_elements_at_the_callers_limits) {
    EXPECT_TRUE(parse_xml("<a><b><c/></b></a>", k_small).root);
    auto deep = parse_xml("<a><b><c><d/></c></b></a>", k_small);
    EXPECT_FALSE(deep.root);
    EXPECT_EQ(deep.error, "elements nested too deeply");

    EXPECT_TRUE(parse_xml("<a><b/><b/><b/><b/></a>", k_small).root);
    auto many = parse_xml("<a><b/><b/><b/><b/><b/></a>", k_small);
    EXPECT_FALSE(many.root);
    EXPECT_EQ(many.error, "too many elements");
}

TEST(xml_tree, refuses_a_doctype_and_says_where_a_document_breaks) {
    auto doctype = parse_xml("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", {});
    EXPECT_FALSE(doctype.root);
    EXPECT_EQ(doctype.error, "DOCTYPE is not allowed");

    auto broken = parse_xml("<a>\n<b></a>", {});
    EXPECT_FALSE(broken.root);
    EXPECT_NE(broken.error.find("at line 2"), std::string::npos) << broken.error;
}

}  // namespace
}  // namespace syncml::common
