#include "session/protocol/header_limits.hpp"

#include <gtest/gtest.h>

#include "auth/credentials/basic_credentials.hpp"
#include "common/crypto/base64.hpp"

namespace syncml::session {
namespace {

sync_hdr header_of(std::string device, std::string session, std::string user) {
    sync_hdr header;
    header.source.loc_uri = std::move(device);
    header.session_id = std::move(session);
    header.cred = credentials{meta_info{}, common::base64_encode(user + ":pw")};
    header.cred->meta->type = "syncml:auth-basic";
    return header;
}

TEST(header_limits, identifiers_of_real_phones_fit) {
    EXPECT_FALSE(oversized_identifier(header_of("IMEI:356938035643809", "1", "alice@example.com")));
    EXPECT_FALSE(oversized_identifier(header_of(std::string(k_max_device_id_bytes, 'd'),
                                                std::string(k_max_session_id_bytes, '9'),
                                                std::string(auth::k_max_user_name_bytes, 'u'))));
}

TEST(header_limits, names_the_identifier_that_is_too_long) {
    EXPECT_EQ(oversized_identifier(header_of(std::string(3000, 'd'), "1", "u")),
              "device id (SyncHdr Source LocURI) longer than 256 bytes");
    EXPECT_EQ(oversized_identifier(header_of("IMEI:1", std::string(3000, '9'), "u")), "SessionID longer than 64 bytes");
    EXPECT_EQ(oversized_identifier(header_of("IMEI:1", "1", std::string(3000, 'u'))),
              "user name longer than 256 bytes");
    auto md5 = header_of("IMEI:1", "1", "u");
    md5.cred.reset();
    md5.source.loc_name = std::string(300, 'u');
    EXPECT_EQ(oversized_identifier(md5), "user name (SyncHdr Source LocName) longer than 256 bytes");
}

}  // namespace
}  // namespace syncml::session
