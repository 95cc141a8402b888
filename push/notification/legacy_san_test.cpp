#include "push/notification/legacy_san.hpp"

#include <gtest/gtest.h>

#include "common/crypto/base64.hpp"
#include "common/crypto/digest.hpp"
#include "session/codec/codec.hpp"

// The SyncML 1.1 form of the notification, read back by our codec (libsynthesis reads it too:
// san_libsynthesis_test.cpp).

namespace syncml::push {
namespace {

notification contacts_and_tasks() {
    notification n;
    n.server_id = "http://sync.example.org/sync";
    n.session_id = 42;
    n.datastores.push_back({session::sync_modes::two_way, 0x07, "contacts", "./Contacts", "text/x-vcard"});
    n.datastores.push_back({session::sync_modes::refresh_from_server, 0, "tasks", "", ""});
    return n;
}

TEST(legacy_san, is_a_wbxml_syncml_1_1_message_with_one_alert_per_datastore) {
    const auto san = encode_legacy_san(contacts_and_tasks(), {}, {session::syncml_version::v1_1, "IMEI:3550"});
    ASSERT_FALSE(san.error);
    ASSERT_EQ(session::detect_encoding(san.bytes), session::wire_encoding::wbxml);
    auto decoded = session::decode(san.bytes);
    ASSERT_TRUE(decoded) << decoded.error().describe();
    const auto& m = decoded.value();
    EXPECT_EQ(m.version, session::syncml_version::v1_1);
    EXPECT_EQ(m.header.ver_proto, "SyncML/1.1");
    EXPECT_EQ(m.header.session_id, "42");
    EXPECT_EQ(m.header.msg_id, "1");
    EXPECT_EQ(m.header.target.loc_uri, "IMEI:3550");
    EXPECT_EQ(m.header.source.loc_uri, "http://sync.example.org/sync");
    EXPECT_FALSE(m.header.cred) << "no server password, no credentials";
    EXPECT_TRUE(m.body.final);
    ASSERT_EQ(m.body.commands.size(), 2u);

    const auto& first = std::get<session::alert>(m.body.commands[0].value);
    EXPECT_EQ(first.cmd_id, "1");
    EXPECT_EQ(first.data, "206");
    ASSERT_EQ(first.items.size(), 1u);
    EXPECT_EQ(first.items[0].source->loc_uri, "contacts");
    EXPECT_EQ(first.items[0].target->loc_uri, "./Contacts");
    EXPECT_EQ(first.items[0].meta->type, "text/x-vcard");

    const auto& second = std::get<session::alert>(m.body.commands[1].value);
    EXPECT_EQ(second.cmd_id, "2");
    EXPECT_EQ(second.data, "210");
    EXPECT_EQ(second.items[0].source->loc_uri, "tasks");
    EXPECT_FALSE(second.items[0].target);
    EXPECT_FALSE(second.items[0].meta);
}

TEST(legacy_san, carries_the_server_credentials_as_an_md5_digest) {
    const auto m = legacy_san_message(contacts_and_tasks(), {"pw", "nonce"}, {});
    ASSERT_TRUE(m.header.cred);
    EXPECT_EQ(m.header.cred->meta->type, "syncml:auth-md5");
    EXPECT_EQ(m.header.cred->meta->format, "b64");
    const auto secret = common::base64_encode(common::md5("http://sync.example.org/sync:pw"));
    EXPECT_EQ(m.header.cred->data, common::base64_encode(common::md5(secret + ":nonce")));
    EXPECT_EQ(m.header.target.loc_uri, "/") << "device id unknown";
}

TEST(legacy_san, names_each_datastore_and_leaves_1_2_to_the_binary_form) {
    notification n = contacts_and_tasks();
    EXPECT_EQ(encode_legacy_san(n, {}, {session::syncml_version::v1_2, ""}).error, legacy_san_error::not_legacy);
    const auto v10 = encode_legacy_san(n, {}, {session::syncml_version::v1_0, ""});
    ASSERT_FALSE(v10.error);
    EXPECT_EQ(session::decode(v10.bytes).value().header.ver_dtd, "1.0");
    n.datastores.clear();
    EXPECT_EQ(encode_legacy_san(n, {}, {}).error, legacy_san_error::no_datastores);
}

}  // namespace
}  // namespace syncml::push
