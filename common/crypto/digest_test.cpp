#include "common/crypto/digest.hpp"

#include <gtest/gtest.h>

#include "common/crypto/hex.hpp"

namespace syncml::common {
namespace {

// FIPS 180-2 appendix B.1 and the empty message.
TEST(sha256, digests_the_known_answer_vectors) {
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(sha256, raw_digest_is_the_32_bytes_of_the_hex_one) {
    const auto raw = sha256("abc");
    ASSERT_EQ(raw.size(), 32u);
    EXPECT_EQ(hex_of(raw), sha256_hex("abc"));
    EXPECT_EQ(static_cast<unsigned char>(raw[0]), 0xba);
}

// RFC 4231 test case 2.
TEST(sha256, hmac_matches_rfc_4231) {
    EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    EXPECT_EQ(hex_of(hmac_sha256("Jefe", "what do ya want for nothing?")),
              hmac_sha256_hex("Jefe", "what do ya want for nothing?"));
}

// RFC 1321 appendix A.5.
TEST(md5, digests_the_rfc_1321_vectors) {
    EXPECT_EQ(hex_of(md5("")), "d41d8cd98f00b204e9800998ecf8427e");
    EXPECT_EQ(hex_of(md5("abc")), "900150983cd24fb0d6963f7d28e17f72");
    EXPECT_EQ(md5("message digest").size(), 16u);
}

}  // namespace
}  // namespace syncml::common
