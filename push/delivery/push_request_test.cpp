#include "push/delivery/push_request.hpp"

#include <gtest/gtest.h>

#include "common/crypto/base64.hpp"
#include "common/crypto/hex.hpp"

namespace syncml::push {
namespace {

addressed_notification contacts_of_ann() {
    addressed_notification n;
    n.tenant = "acme";
    n.user = "ann";
    n.device = "IMEI:35\"1";
    n.phone_number = "+41791234567";
    n.bytes = std::string("\x01\x02\x00\xff", 4);
    n.content_type = std::string(k_ds_notification_type);
    n.datastores = {"contacts", "calendar"};
    n.changes = 3;
    return n;
}

TEST(push_request, webhook_posts_the_notification_and_whom_it_is_for_as_json) {
    const auto request = webhook_request("http://relay.example/push", contacts_of_ann());
    EXPECT_EQ(request.method, "POST");
    EXPECT_EQ(request.url, "http://relay.example/push");
    EXPECT_EQ(request.headers,
              (std::vector<std::pair<std::string, std::string>>{{"Content-Type", "application/json"}}));
    EXPECT_EQ(request.body,
              "{\"tenant\":\"acme\",\"user\":\"ann\",\"device\":\"IMEI:35\\\"1\",\"phone_number\":\"+41791234567\","
              "\"content_type\":\"application/vnd.syncml.ds.notification\",\"datastores\":[\"contacts\",\"calendar\"],"
              "\"changes\":3,\"notification\":\"" +
                  common::base64_encode(std::string("\x01\x02\x00\xff", 4)) + "\"}");
    auto without = contacts_of_ann();
    without.phone_number.reset();
    EXPECT_NE(webhook_request("http://x", without).body.find("\"phone_number\":null"), std::string::npos);
}

// WAP-230 8.2.4.1 (Push PDU) and 8.4 (headers): TID, type 0x06, headers length, content type 0x4E as a short
// integer, X-WAP-Application-Id (0x2F) = x-wap-application:syncml.ds (0x07), then the body.
TEST(push_request, the_wsp_push_pdu_carries_the_well_known_content_type_and_application_id) {
    EXPECT_EQ(common::hex_of(wap_push_pdu(contacts_of_ann(), 0x2a)), "2a0603ceaf87010200ff");
    auto legacy = contacts_of_ann();
    legacy.content_type = std::string(k_syncml_wbxml_type);
    const auto pdu = wap_push_pdu(legacy);
    // 28 characters of the type, its end and the application id: 31 bytes of headers.
    EXPECT_EQ(common::hex_of(pdu.substr(0, 3)), "00061f");
    EXPECT_EQ(pdu.substr(3, 29), std::string("application/vnd.syncml+wbxml") + '\0');
    EXPECT_EQ(common::hex_of(pdu.substr(32, 2)), "af87");
}

TEST(push_request, sendsms_sends_a_binary_sms_to_the_wap_push_port) {
    const auto request =
        sendsms_request("http://kannel:13013/cgi-bin/sendsms?username=u&password=p", contacts_of_ann());
    ASSERT_TRUE(request);
    EXPECT_EQ(request->method, "GET");
    EXPECT_EQ(request->url,
              "http://kannel:13013/cgi-bin/sendsms?username=u&password=p&to=%2B41791234567"
              "&udh=%06%05%04%0B%84%23%F0&text=%00%06%03%CE%AF%87%01%02%00%FF&coding=1");
    EXPECT_EQ(sendsms_request("http://gw/send", contacts_of_ann())->url.substr(0, 18), "http://gw/send?to=");
    auto no_number = contacts_of_ann();
    no_number.phone_number.reset();
    EXPECT_FALSE(sendsms_request("http://gw/send", no_number));
}

TEST(push_request, percent_encodes_all_but_unreserved_characters) {
    EXPECT_EQ(percent_encoded("aZ09-._~ /+?&="), "aZ09-._~%20%2F%2B%3F%26%3D");
}

}  // namespace
}  // namespace syncml::push
