#include "auth/credentials/basic_credentials.hpp"

#include <gtest/gtest.h>

namespace syncml::auth {
namespace {

// "user|password", or "none".
std::string shown(const std::optional<basic_credentials>& basic) {
    return basic ? basic->user + "|" + basic->password : "none";
}

TEST(basic_credentials, splits_user_and_password_at_the_first_colon) {
    EXPECT_EQ(shown(parse_basic("YWxpY2U6cGE6c3M=")), "alice|pa:ss");  // b64("alice:pa:ss")
    EXPECT_EQ(shown(parse_basic("OnB3")), "|pw");                      // b64(":pw")
}

TEST(basic_credentials, ignores_whitespace_a_phone_wraps_in) {
    EXPECT_EQ(shown(parse_basic(" YWxp\n Y2U6cHc=\n")), "alice|pw");
}

TEST(basic_credentials, refuses_text_without_colon_or_not_base64) {
    EXPECT_EQ(shown(parse_basic("YWxpY2U=")), "none");  // b64("alice")
    EXPECT_EQ(shown(parse_basic("not base64!")), "none");
    EXPECT_EQ(shown(parse_basic("")), "none");
}

TEST(basic_credentials, reads_the_basic_scheme_of_an_authorization_header_in_any_case) {
    EXPECT_EQ(shown(parse_basic_authorization("bAsIc YWxpY2U6cHc=")), "alice|pw");
    EXPECT_EQ(shown(parse_basic_authorization("Bearer YWxpY2U6cHc=")), "none");
    EXPECT_EQ(shown(parse_basic_authorization("Basic ")), "none");
    EXPECT_EQ(shown(parse_basic_authorization("Basic")), "none");
}

}  // namespace
}  // namespace syncml::auth
