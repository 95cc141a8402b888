#include "src/http/request_target.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(SplitAbsoluteTarget, TakesPathQueryAndAuthority) {
    auto split = split_absolute_target("http://dav.example.com:8080/dav/t/ann/?x=1");
    ASSERT_TRUE(split);
    EXPECT_EQ(split->origin_form, "/dav/t/ann/?x=1");
    EXPECT_EQ(split->authority, "dav.example.com:8080");
    split = split_absolute_target("HTTPS://Example.com");
    ASSERT_TRUE(split);
    EXPECT_EQ(split->origin_form, "/");
    EXPECT_EQ(split->authority, "Example.com");
    split = split_absolute_target("http://example.com?q");
    ASSERT_TRUE(split);
    EXPECT_EQ(split->origin_form, "/?q");
}

TEST(SplitAbsoluteTarget, LeavesOtherFormsAlone) {
    for (std::string_view target : {"/sync", "*", "", "ftp://example.com/x", "http://", "http:///path",
                                    "http://user:pw@example.com/", "/http://example.com/"}) {
        EXPECT_FALSE(split_absolute_target(target)) << target;
    }
}

TEST(KeepsAlive, CloseWinsWhateverElseIsListed) {
    EXPECT_FALSE(keeps_alive(11, {"keep-alive, close"}));
    EXPECT_FALSE(keeps_alive(10, {"keep-alive, close"}));
    EXPECT_FALSE(keeps_alive(11, {"Keep-Alive", " CLOSE "}));
    EXPECT_FALSE(keeps_alive(11, {"TE,\tclose"}));
}

TEST(KeepsAlive, VersionDecidesWithoutClose) {
    EXPECT_TRUE(keeps_alive(11, {}));
    EXPECT_TRUE(keeps_alive(11, {"TE"}));
    EXPECT_FALSE(keeps_alive(10, {}));
    EXPECT_TRUE(keeps_alive(10, {"keep-alive"}));
    EXPECT_FALSE(keeps_alive(10, {"closed"}));
}

}  // namespace
}  // namespace syncml::server
