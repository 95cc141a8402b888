#include "common/crypto/base64.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

// RFC 4648 section 10.
TEST(base64, encodes_and_decodes_the_rfc_4648_vectors) {
    const std::pair<std::string, std::string> vectors[] = {{"", ""},
                                                           {"f", "Zg=="},
                                                           {"fo", "Zm8="},
                                                           {"foo", "Zm9v"},
                                                           {"foob", "Zm9vYg=="},
                                                           {"fooba", "Zm9vYmE="},
                                                           {"foobar", "Zm9vYmFy"}};
    for (const auto& [plain, encoded] : vectors) {
        EXPECT_EQ(base64_encode(plain), encoded);
        EXPECT_EQ(base64_decode(encoded), plain);
        EXPECT_EQ(base64_decode_ignoring_whitespace(encoded), plain);
    }
}

TEST(base64, keeps_binary_bytes) {
    const std::string bytes("\x00\xff\x10 \x80", 5);
    EXPECT_EQ(base64_decode(base64_encode(bytes)), bytes);
}

TEST(base64, rejects_unpadded_or_foreign_text) {
    EXPECT_EQ(base64_decode("Zg="), std::nullopt);
    EXPECT_EQ(base64_decode("Zm9v!A=="), std::nullopt);
}

TEST(base64, only_the_lenient_decoder_skips_whitespace) {
    EXPECT_EQ(base64_decode("Zm9v\nYmFy"), std::nullopt);
    EXPECT_EQ(base64_decode_ignoring_whitespace(" Zm9v\r\n\tYmFy\n"), "foobar");
    EXPECT_EQ(base64_decode_ignoring_whitespace("Zm9v Yg= ="), "foob");
}

}  // namespace
}  // namespace syncml::common
