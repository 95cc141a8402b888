#include "dav/dav_handler.hpp"

#include <gtest/gtest.h>

#include "dav/dav_handler_test_support.hpp"
#include "dav/dav_paths.hpp"

// Requests made to hurt: whatever they ask, the answer is bounded, clear, and nothing stored changes.

namespace syncml::dav {
namespace {

using namespace testing;

std::string multiget_body(const std::vector<std::string>& hrefs, const std::string& props) {
    std::string body = "<card:addressbook-multiget" + std::string(k_namespaces) + "><d:prop>" + props + "</d:prop>";
    for (const auto& href : hrefs) body += "<d:href>" + href + "</d:href>";
    return body + "</card:addressbook-multiget>";
}

TEST_F(dav_handler_test, a_multiget_answers_each_resource_once_however_often_it_is_named) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    std::vector<std::string> hrefs(500, k_contacts + "a.vcf");
    hrefs.push_back(" http://example.org" + k_contacts + "a.vcf\n");  // another spelling, with white space
    auto a = parse_multistatus(report(k_contacts, multiget_body(hrefs, "<d:getetag/><card:address-data/>")));
    EXPECT_EQ(a.hrefs(), std::vector<std::string>{k_contacts + "a.vcf"});
}

TEST_F(dav_handler_test, a_request_for_more_properties_than_any_client_asks_is_refused) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    std::string props;
    for (int i = 0; i < 300; ++i) props += "<x:p" + std::to_string(i) + " xmlns:x=\"urn:x\"/>";
    EXPECT_EQ(report(k_contacts, multiget_body({k_contacts + "a.vcf"}, props)).status, 400);
    EXPECT_EQ(propfind(k_contacts, "1", props).status, 400);
    EXPECT_EQ(report(k_contacts, sync_body("", props)).status, 400);
    std::string repeated;
    for (int i = 0; i < 300; ++i) repeated += "<d:getetag/>";
    auto once = parse_multistatus(propfind(k_contacts + "a.vcf", "0", repeated));
    ASSERT_EQ(once.responses.size(), 1u);
    EXPECT_EQ(once.responses[0].prop_status.size(), 1u) << "a property named again is answered once";
}

TEST_F(dav_handler_test, an_addressbook_query_with_too_many_filters_is_refused) {
    std::string filters;
    for (int i = 0; i < 60; ++i)
        filters += "<card:prop-filter name=\"FN\"><card:text-match>x</card:text-match></card:prop-filter>";
    auto r = report(k_contacts, "<card:addressbook-query" + std::string(k_namespaces) +
                                    "><d:prop><d:getetag/></d:prop><card:filter>" + filters +
                                    "</card:filter></card:addressbook-query>");
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(precondition(r), clark(ns_carddav, "supported-filter"));
}

TEST_F(dav_handler_test, put_of_bytes_that_are_no_utf8_or_carry_control_characters_stores_nothing) {
    const std::string bad_utf8 = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u\r\nFN:Ann \xC3\x28\r\nEND:VCARD\r\n";
    const std::string control = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u\r\nFN:Ann\x0B\x1B\r\nEND:VCARD\r\n";
    EXPECT_EQ(put(k_contacts + "u.vcf", bad_utf8).status, 400);
    EXPECT_EQ(put(k_contacts + "u.vcf", control).status, 400);
    EXPECT_EQ(live_items(), 0u);
}

TEST_F(dav_handler_test, a_stored_item_with_control_characters_keeps_listings_readable) {
    // Phones store what they send; a listing that carries the item must still be XML.
    synced_item(common::item_kind::contact, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bell\x07\r\nEND:VCARD\r\n");
    auto r = propfind(k_contacts, "1", "<d:getetag/><card:address-data/>");
    ASSERT_TRUE(parse_xml(r.body).root) << r.body;
    EXPECT_EQ(parse_multistatus(r).responses.size(), 2u);
}

TEST_F(dav_handler_test, names_that_are_no_utf8_or_too_long_name_nothing) {
    EXPECT_EQ(put(k_contacts + "%FF.vcf", card("x", "X")).status, 404);
    EXPECT_EQ(put(k_contacts + std::string(300, 'n') + ".vcf", card("x", "X")).status, 404);
    EXPECT_EQ(live_items(), 0u);
}

TEST_F(dav_handler_test, a_sync_report_never_names_one_resource_gone_and_present) {
    // A phone's item is named after its GUID; deleted, and a client then creates an item under that very name.
    const auto guid =
        synced_item(common::item_kind::contact, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Phone\r\nEND:VCARD\r\n");
    const auto token = sync("").sync_token;
    ASSERT_EQ(run({.method = "DELETE", .path = k_contacts + guid + ".vcf"}).status, 204);
    ASSERT_EQ(put(k_contacts + guid + ".vcf", card("again", "Again")).status, 201);
    auto changes = sync(token);
    ASSERT_EQ(changes.responses.size(), 1u);
    EXPECT_EQ(changes.responses[0].href, k_contacts + guid + ".vcf");
    EXPECT_EQ(changes.responses[0].status, 0) << "reported with its properties, not as gone";
}

TEST_F(dav_handler_test, a_sync_token_in_pretty_printed_xml_is_understood) {
    ASSERT_EQ(put(k_contacts + "a.vcf", card("a", "A")).status, 201);
    const auto token = sync("").sync_token;
    auto r = report(k_contacts, "<d:sync-collection" + std::string(k_namespaces) + ">\n  <d:sync-token>\n    " + token +
                                    "\n  </d:sync-token>\n  <d:sync-level> 1 </d:sync-level>\n" +
                                    "  <d:prop><d:getetag/></d:prop>\n</d:sync-collection>");
    EXPECT_EQ(r.status, 207) << r.body;
    EXPECT_TRUE(parse_multistatus(r).responses.empty());
}

TEST(dav_utf8, tells_well_formed_utf8) {
    EXPECT_TRUE(valid_utf8("plain ASCII"));
    EXPECT_TRUE(
        valid_utf8("Gr\xC3\xBC\xC3\x9F"
                   "e \xE2\x82\xAC \xF0\x9F\x98\x80"));
    EXPECT_FALSE(valid_utf8("\xC3"));              // cut short
    EXPECT_FALSE(valid_utf8("\xC0\xAF"));          // overlong '/'
    EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));      // a surrogate
    EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));  // beyond U+10FFFF
    EXPECT_FALSE(valid_utf8("\xFF"));
    EXPECT_FALSE(valid_utf8("a\x80z"));
}

}  // namespace
}  // namespace syncml::dav
