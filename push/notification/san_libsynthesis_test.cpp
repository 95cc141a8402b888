// Our notifications decoded by an implementation we did not write: libsynthesis's SanPackage (the Synthesis engine's
// SAN code, as SyncEvolution uses it; Debian libsynthesis-dev), for both the OMA DS 1.2 form and the SyncML 1.1 form,
// with the digest checked by its own MD5 and base64 from the device's credentials.
//
// Where libsynthesis departs from the specification, the test follows the specification and says so:
// - B64_H(server-id, password) hashes "server-id" without the colon when the password is empty, and CreateDigest gives
//   an all-zero digest when the hash of the credentials is empty. The specification hashes "server-id:password"
//   whatever the password, as Nokia PC Suite does; the test hands B64_H the whole "server-id:password" string.
// - GetSanSize dereferences a null pointer for a notification without datastores (num-syncs 0, which the
//   specification defines as "every datastore"); the test never asks it for one.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <list>
#include <string>
#include <tuple>
#include <vector>

// san.h declares `typedef unsigned char byte` under `using namespace std`, which clashes with C++17's std::byte. The
// standard headers come first, so the macro renames san.h's own uses only (the layout is the same).
#define byte synthesis_byte
#include <synthesis/san.h>
#undef byte

#include "push/notification/legacy_san.hpp"
#include "push/notification/san.hpp"
#include "session/codec/codec.hpp"

namespace syncml::push {
namespace {

using sync_entry = std::tuple<int, std::uint32_t, std::string>;

struct decoded {
    sysync::TSyError error = 0;
    unsigned version = 0;
    int ui = -1;
    int initiator = -1;
    unsigned session_id = 0;
    std::string server_id;
    std::vector<sync_entry> syncs;
};

// mode 2: only the 1.2 form; mode 1: only the 1.1 form (a WBXML SyncML message).
decoded decode(std::string san, int mode = 2) {
    sysync::SanPackage p;
    decoded out;
    out.error = p.PassSan(san.data(), san.size(), mode);
    if (out.error == 0) out.error = p.GetHeader();
    if (out.error != 0) return out;
    out.version = p.fProtocolVersion;
    out.ui = p.fUI_Mode;
    out.initiator = p.fInitiator;
    out.session_id = p.fSessionID;
    out.server_id = p.fServerID;
    for (int nth = 1; nth <= p.fNSync; ++nth) {
        int type = 0;
        sysync::uInt32 content_type = 0;
        std::string uri;
        out.error = p.GetNthSync(nth, type, content_type, uri);
        if (out.error != 0) return out;
        out.syncs.emplace_back(type, content_type, uri);
    }
    return out;
}

// The digest a phone with these credentials computes, by libsynthesis's MD5 and base64 (see the top of the file).
bool digest_verifies(std::string san, const std::string& server_id, const server_secret& secret) {
    sysync::SanPackage p;
    const auto b64 = p.B64_H(server_id + ":" + secret.password);
    p.CreateDigest(b64.c_str(), secret.nonce.c_str(), san.data(), san.size());
    return p.DigestOK(san.data());
}

notification two_stores() {
    notification n;
    n.server_id = "https://sync.example.org/sync/acme";
    n.session_id = 0xBEEF;
    n.ui = ui_mode::informative;
    n.by = initiator::server;
    n.datastores.push_back({session::sync_modes::two_way, content_type_code("text/x-vcard"), "contacts", {}, {}});
    n.datastores.push_back(
        {session::sync_modes::one_way_from_server, content_type_code("text/calendar"), "calendar", {}, {}});
    return n;
}

TEST(san_libsynthesis, decodes_our_notification_and_its_digest_verifies) {
    const server_secret secret{"server-password", "bm9uY2U="};
    const auto san = encode_san(two_stores(), secret);
    ASSERT_FALSE(san.error);
    const auto d = decode(san.bytes);
    ASSERT_EQ(d.error, 0);
    EXPECT_EQ(d.version, 12u);
    EXPECT_EQ(d.ui, sysync::UI_informative);
    EXPECT_EQ(d.initiator, sysync::Initiator_Server);
    EXPECT_EQ(d.session_id, 0xBEEFu);
    EXPECT_EQ(d.server_id, "https://sync.example.org/sync/acme");
    EXPECT_EQ(d.syncs, (std::vector<sync_entry>{{206, 0x07, "contacts"}, {209, 0x0305, "calendar"}}));
    EXPECT_TRUE(digest_verifies(san.bytes, "https://sync.example.org/sync/acme", secret));
    EXPECT_FALSE(digest_verifies(san.bytes, "https://sync.example.org/sync/acme", {"other", secret.nonce}));
    EXPECT_FALSE(digest_verifies(san.bytes, "https://sync.example.org/sync/acme", {secret.password, "other"}));
    // Its own three-argument form agrees when there is a password.
    sysync::SanPackage p;
    std::string copy = san.bytes;
    p.CreateDigest("https://sync.example.org/sync/acme", "server-password", "bm9uY2U=", copy.data(), copy.size());
    EXPECT_TRUE(p.DigestOK(copy.data()));
}

TEST(san_libsynthesis, reads_every_server_alerted_code) {
    using namespace session::sync_modes;
    for (auto mode : {two_way, one_way_from_client, refresh_from_client, one_way_from_server, refresh_from_server}) {
        notification n;
        n.server_id = "srv";
        n.datastores.push_back({mode, 0, "notes", {}, {}});
        const auto d = decode(encode_san(n, {}).bytes);
        ASSERT_EQ(d.error, 0);
        ASSERT_EQ(d.syncs.size(), 1u);
        EXPECT_EQ(std::get<0>(d.syncs[0]), mode.server_alerted_code());
    }
}

// libsynthesis's empty-password bug: its own B64_H("srv", "") leaves out the colon the specification keeps.
TEST(san_libsynthesis, verifies_an_empty_password_only_as_the_specification_hashes_it) {
    notification n = two_stores();
    const auto san = encode_san(n, {}).bytes;
    EXPECT_TRUE(digest_verifies(san, n.server_id, {}));
    sysync::SanPackage p;
    std::string copy = san;
    p.CreateDigest(n.server_id.c_str(), "", "", copy.data(), copy.size());
    EXPECT_FALSE(p.DigestOK(copy.data())) << "libsynthesis fixed its empty-password digest: drop the workaround";
}

TEST(san_libsynthesis, reads_a_notification_of_every_datastore) {
    notification n;
    n.server_id = "srv";
    n.session_id = 3;
    n.ui = ui_mode::user_interaction;
    n.by = initiator::user;
    const auto san = encode_san(n, {"pw", ""}).bytes;
    sysync::SanPackage p;
    std::string copy = san;
    ASSERT_EQ(p.PassSan(copy.data(), copy.size(), 2), 0);
    ASSERT_EQ(p.GetHeader(), 0);
    EXPECT_EQ(p.fNSync, 0);
    EXPECT_EQ(p.fServerID, "srv");
    EXPECT_EQ(p.fUI_Mode, sysync::UI_user_interaction);
    EXPECT_EQ(p.fInitiator, sysync::Initiator_User);
    EXPECT_EQ(p.fSessionID, 3);
    EXPECT_TRUE(digest_verifies(san, "srv", {"pw", ""}));
}

TEST(san_libsynthesis, ends_our_notification_where_the_vendor_part_begins) {
    auto n = two_stores();
    n.vendor_specific = "vendor-data";
    std::string san = encode_san(n, {}).bytes;
    sysync::SanPackage p;
    std::size_t size = san.size();
    ASSERT_EQ(p.GetSanSize(san.data(), size), 0);
    EXPECT_EQ(size, san.size() - n.vendor_specific.size());
    EXPECT_TRUE(digest_verifies(san, n.server_id, {}));
}

// The SyncML 1.1 form through libsynthesis's SyncML toolkit (its Check_11): the same datastores, codes and session.
TEST(san_libsynthesis, decodes_the_syncml_1_1_form) {
    auto n = two_stores();
    n.datastores[0].mime_type = "text/x-vcard";
    n.datastores[0].client_uri = "./Contacts";
    n.datastores[1].mime_type = "text/calendar";
    const auto san = encode_legacy_san(n, {"server-password", "nonce"}, {session::syncml_version::v1_1, "IMEI:1"});
    ASSERT_FALSE(san.error);
    const auto d = decode(san.bytes, 1);
    ASSERT_EQ(d.error, 0);
    EXPECT_EQ(d.version, 11u);
    EXPECT_EQ(d.session_id, 0xBEEFu);
    EXPECT_EQ(d.server_id, "https://sync.example.org/sync/acme");
    // Its decoder leaves the content type 0: the 1.1 form names the type, not a code.
    EXPECT_EQ(d.syncs, (std::vector<sync_entry>{{206, 0, "contacts"}, {209, 0, "calendar"}}));
}

}  // namespace
}  // namespace syncml::push
