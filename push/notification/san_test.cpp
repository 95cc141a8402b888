#include "push/notification/san.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/crypto/hex.hpp"

// The notification against byte vectors checked by hand, field by field, against OMA-TS-DS_DataSyncNotification-V1_2;
// the digests were computed apart (Python's hashlib and base64) from the same formula. One vector is a real one:
// Nokia PC Suite's notification for its Contacts, as buteo-syncml's tests keep it (tests_meego/data/SAN01.bin).

namespace syncml::push {
namespace {

std::string bytes(std::initializer_list<unsigned> values) {
    std::string out;
    for (auto v : values) out.push_back(static_cast<char>(v));
    return out;
}

notification two_stores() {
    notification n;
    n.server_id = "srv";
    n.session_id = 0x1234;
    n.ui = ui_mode::informative;
    n.by = initiator::server;
    n.datastores.push_back({session::sync_modes::two_way, 0x07, "contacts", {}, {}});
    n.datastores.push_back({session::sync_modes::refresh_from_server, 0x0305, "calendar", {}, {}});
    return n;
}

TEST(san, encodes_the_header_and_each_datastore_bit_by_bit) {
    const auto san = encode_san(two_stores(), {"secret", "n0nce"});
    ASSERT_FALSE(san.error);
    const std::string body =
        // version 12 (0000001100), ui-mode informative (10), initiator server (1), 27 bits of future use
        bytes({0x03, 0x28, 0x00, 0x00, 0x00}) +
        // session id 0x1234, server id length 3, "srv"
        bytes({0x12, 0x34, 0x03}) + "srv" +
        // two datastores (0010), future use (0000)
        bytes({0x20}) +
        // 206 as 6 (0110) + future use; text/x-vcard 0x000007; URI length 8, "contacts"
        bytes({0x60, 0x00, 0x00, 0x07, 0x08}) + "contacts" +
        // 210 as 10 (1010) + future use; text/calendar 0x000305; URI length 8, "calendar"
        bytes({0xA0, 0x00, 0x03, 0x05, 0x08}) + "calendar";
    ASSERT_EQ(san.bytes.size(), 16 + body.size());
    EXPECT_EQ(common::hex_of(san.bytes.substr(16)), common::hex_of(body));
    // H(B64(H("srv:secret")) ":n0nce:" B64(H(body)))
    EXPECT_EQ(common::hex_of(san.bytes.substr(0, 16)), "be90ace5fac2959ef5b0447aa28875e7");
}

TEST(san, without_datastores_alerts_every_one_and_keeps_the_colon_of_an_empty_password) {
    notification n;
    n.server_id = "srv";
    n.ui = ui_mode::not_specified;
    n.by = initiator::user;
    const auto san = encode_san(n, {});
    ASSERT_FALSE(san.error);
    EXPECT_EQ(common::hex_of(san.bytes.substr(16)),
              common::hex_of(bytes({0x03, 0, 0, 0, 0, 0, 0, 3}) + "srv" + bytes({0})));
    // H(B64(H("srv:")) "::" B64(H(body)))
    EXPECT_EQ(common::hex_of(san.bytes.substr(0, 16)), "a931b5f108e334265392b37aeae227fc");
}

// Nokia PC Suite alerting a phone's Contacts: no server password, no nonce, background, session 0, content type 0.
TEST(san, matches_nokia_pc_suites_notification_byte_for_byte) {
    notification n;
    n.server_id = "PC Suite Data Sync";
    n.session_id = 0;
    n.ui = ui_mode::background;
    n.by = initiator::server;
    n.datastores.push_back({session::sync_modes::two_way, 0, "Contacts", {}, {}});
    const auto san = encode_san(n, {});
    ASSERT_FALSE(san.error);
    EXPECT_EQ(common::hex_of(san.bytes),
              "0179ab671b68f26698269b4ca78222ad"
              "0318000000000012504320537569746520446174612053796e63"
              "106000000008436f6e7461637473");
    EXPECT_TRUE(san_digest_matches(san.bytes, "PC Suite Data Sync", {}));
}

TEST(san, digest_covers_every_byte_after_it_and_the_credentials) {
    auto n = two_stores();
    n.vendor_specific = "vendor";
    const server_secret secret{"secret", "n0nce"};
    auto san = encode_san(n, secret).bytes;
    EXPECT_EQ(san.substr(san.size() - 6), "vendor");
    EXPECT_TRUE(san_digest_matches(san, "srv", secret));
    EXPECT_FALSE(san_digest_matches(san, "srv", {"secret", "other"}));
    EXPECT_FALSE(san_digest_matches(san, "srv", {"wrong", "n0nce"}));
    EXPECT_FALSE(san_digest_matches(san, "other", secret));
    san.back() = 'X';
    EXPECT_FALSE(san_digest_matches(san, "srv", secret));
    EXPECT_FALSE(san_digest_matches("short", "srv", secret));
}

TEST(san, writes_each_mode_as_its_server_alerted_code) {
    const std::vector<std::pair<session::sync_mode, unsigned>> modes{{session::sync_modes::two_way, 6},
                                                                     {session::sync_modes::slow_sync, 6},
                                                                     {session::sync_modes::one_way_from_client, 7},
                                                                     {session::sync_modes::refresh_from_client, 8},
                                                                     {session::sync_modes::one_way_from_server, 9},
                                                                     {session::sync_modes::refresh_from_server, 10}};
    for (const auto& [mode, code] : modes) {
        notification n;
        n.server_id = "s";
        n.datastores.push_back({mode, 0, "x", {}, {}});
        const auto san = encode_san(n, {}).bytes;
        // digest 16 + header 8 + "s" + num-syncs: the sync type is the high nibble of the next byte.
        ASSERT_EQ(san.size(), 16u + 8 + 1 + 1 + 5 + 1);
        EXPECT_EQ(static_cast<unsigned char>(san[26]), code << 4) << mode.alert_code();
    }
}

TEST(san, refuses_what_its_fields_cannot_hold) {
    notification n;
    n.server_id = std::string(256, 's');
    EXPECT_EQ(encode_san(n, {}).error, san_error::server_id_too_long);
    n.server_id = std::string(255, 's');
    EXPECT_FALSE(encode_san(n, {}).error);
    n.datastores.assign(16, {session::sync_modes::two_way, 0, "x", {}, {}});
    EXPECT_EQ(encode_san(n, {}).error, san_error::too_many_datastores);
    n.datastores.assign(15, {session::sync_modes::two_way, 0, "x", {}, {}});
    EXPECT_FALSE(encode_san(n, {}).error);
    n.datastores.back().server_uri = std::string(256, 'u');
    EXPECT_EQ(encode_san(n, {}).error, san_error::uri_too_long);
    n.datastores.back().server_uri = "x";
    n.datastores.back().content_type = 0x1000000;
    EXPECT_EQ(encode_san(n, {}).error, san_error::content_type_too_large);
    EXPECT_TRUE(encode_san(n, {}).bytes.empty());
}

TEST(san, gives_the_registered_content_type_codes) {
    EXPECT_EQ(content_type_code("text/x-vcard"), 0x07u);
    EXPECT_EQ(content_type_code("text/vcard"), 0x0309u);
    EXPECT_EQ(content_type_code("TEXT/X-VCALENDAR"), 0x06u);
    EXPECT_EQ(content_type_code("text/calendar; charset=utf-8"), 0x0305u);
    EXPECT_EQ(content_type_code("text/plain"), 0x03u);
    EXPECT_EQ(content_type_code("text/x-s4j-sifc"), 0u);
    EXPECT_EQ(content_type_code(""), 0u);
}

}  // namespace
}  // namespace syncml::push
