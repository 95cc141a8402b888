#include <gtest/gtest.h>

#include "matching/convert/item_convert.hpp"
#include "matching/sif/sif_test_support.hpp"

namespace syncml::matching {
namespace {

std::string contact_with(const std::string& inner) {
    return "<contact><SIFVersion>1.1</SIFVersion>" + inner + "</contact>";
}

TEST(sif_robustness, refuses_what_is_no_well_formed_xml_and_says_why) {
    for (std::string_view data :
         {"<contact><FirstName>Ann</contact>", "<contact>", "<contact><a>&bogus;</a></contact>",
          "<contact><FirstName>\x01</FirstName></contact>", "<contact><FirstName>\xC3\x28</FirstName></contact>"}) {
        auto r = parse_sif(data);
        ASSERT_FALSE(r) << data;
        EXPECT_EQ(r.error().code, item_errc::malformed);
        EXPECT_TRUE(r.error().message.starts_with("SIF item is no well-formed XML: ")) << r.error().message;
    }
}

TEST(sif_robustness, refuses_a_doctype_and_other_roots) {
    auto doctype = parse_sif(
        "<!DOCTYPE contact [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>"
        "<contact><FirstName>&b;</FirstName></contact>");
    ASSERT_FALSE(doctype);
    EXPECT_NE(doctype.error().message.find("DOCTYPE"), std::string::npos);
    auto other = parse_item("<event><Subject>x</Subject></event>", item_dialect::sife);
    ASSERT_FALSE(other);
    EXPECT_EQ(other.error().code, item_errc::unknown_format);
    auto namespaced = parse_sif("<contact xmlns=\"urn:x\"/>");
    EXPECT_FALSE(namespaced);
}

TEST(sif_robustness, caps_elements_and_nesting_at_the_item_limits) {
    parse_limits limits;
    limits.max_lines = 50;
    limits.max_depth = 4;
    std::string many;
    for (int i = 0; i < 48; ++i) many += "<X/>";
    EXPECT_TRUE(parse_sif(contact_with(many), limits)) << "root, SIFVersion and 48 fields";
    auto over = parse_sif(contact_with(many + "<X/>"), limits);
    ASSERT_FALSE(over);
    EXPECT_NE(over.error().message.find("too many elements"), std::string::npos) << over.error().message;
    EXPECT_TRUE(parse_sif(contact_with("<a><b><c/></b></a>"), limits));
    EXPECT_FALSE(parse_sif(contact_with("<a><b><c><d/></c></b></a>"), limits));
}

TEST(sif_robustness, ignores_unknown_and_nested_fields_and_keeps_the_known_ones) {
    auto c = std::get<contact>(testing::sif_or_fail(
        contact_with("<Mystery>x</Mystery><FirstName><b>nested</b>Ann</FirstName><LastName>Lee</LastName>"
                     "<LastName>Second</LastName><Photo TYPE=\"JPEG\">not base64!</Photo>")));
    ASSERT_TRUE(c.name);
    EXPECT_EQ(c.name->given, "Ann") << "text directly inside the field";
    EXPECT_EQ(c.name->family, "Lee") << "the first of a repeated field";
    EXPECT_FALSE(c.picture) << "a photo that does not decode is left out, not the contact";
    EXPECT_TRUE(c.extra.empty());
}

TEST(sif_robustness, bodies_of_a_megabyte_read_and_write_in_linear_time) {
    std::string body(1 << 20, 'a');
    for (std::size_t i = 0; i < body.size(); i += 100) body[i] = '\n';
    auto parsed = testing::sif_or_fail(contact_with("<Body>" + body + "</Body>"));
    EXPECT_EQ(std::get<contact>(parsed).note.size(), body.size());
    EXPECT_GT(testing::written(parsed, item_dialect::sifc).size(), body.size());
}

TEST(sif_robustness, unreadable_sif_is_an_error_for_the_store_and_never_stored_as_sent) {
    auto broken = canonical_content("<contact><FirstName>Ann</contact>", "text/x-s4j-sifc", "", item_kind::contact);
    ASSERT_FALSE(broken);
    EXPECT_EQ(broken.error().code, item_errc::malformed);
    auto wrong_kind =
        canonical_content(testing::sif_document("task", {{"Subject", "t"}}), "text/x-s4j-sifc", "", item_kind::contact);
    ASSERT_FALSE(wrong_kind) << "a task is no contact";
    EXPECT_EQ(wrong_kind.error().code, item_errc::unsupported);
    auto sniffed = canonical_content("<?xml version=\"1.0\"?><contact><FirstName>Ann</contact>", "text/x-vcard", "",
                                     item_kind::contact);
    EXPECT_FALSE(sniffed) << "SIF sent as vCard is still SIF";
    auto mislabelled = canonical_content("BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nEND:VCARD\r\n", "text/x-s4j-sifc",
                                         "", item_kind::contact);
    ASSERT_TRUE(mislabelled) << "a vCard sent as SIF-C is read as the vCard it is";
    EXPECT_NE(mislabelled->find("N:Lee;Ann;;;\r\n"), std::string::npos) << *mislabelled;
    EXPECT_EQ(to_canonical("not a vcard at all", "text/x-vcard", "", item_kind::contact), "not a vcard at all")
        << "other unreadable data is still stored as sent";
}

TEST(sif_robustness, sniffs_the_root_past_a_bom_declaration_and_comments_only) {
    EXPECT_EQ(sniff_sif("\xEF\xBB\xBF<?xml version=\"1.0\"?>\r\n<!-- Outlook -->\n<appointment></APPOINTMENT>\r\n"),
              item_kind::event);
    EXPECT_EQ(sniff_sif("<task/>"), item_kind::task);
    EXPECT_EQ(sniff_sif("  <note >x</note>"), item_kind::memo);
    EXPECT_FALSE(sniff_sif("<note> buy milk")) << "a text memo that starts like a note";
    EXPECT_FALSE(sniff_sif("<contact> Anna\n</contact> is the tag")) << "what follows the end tag is no SIF";
    EXPECT_FALSE(sniff_sif("<notes>"));
    EXPECT_FALSE(sniff_sif("<?xml version=\"1.0\""));
    EXPECT_FALSE(sniff_sif("BEGIN:VCARD\r\n<contact>"));
    EXPECT_FALSE(sniff_sif(std::string(5000, ' ') + "<contact/>")) << "only the start of the data is looked at";
}

}  // namespace
}  // namespace syncml::matching
