#include "src/http/host_check.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(host_check, takes_the_name_without_port_or_brackets) {
    EXPECT_EQ(host_name_of("Admin.Example.com:8443"), "admin.example.com");
    EXPECT_EQ(host_name_of("127.0.0.1:9091"), "127.0.0.1");
    EXPECT_EQ(host_name_of("[::1]:9091"), "::1");
    EXPECT_EQ(host_name_of("::1"), "::1");
    EXPECT_EQ(host_name_of(" localhost "), "localhost");
}

TEST(host_check, by_default_answers_loopback_names_and_the_address_dialled_only) {
    const std::vector<std::string> by_default;
    for (const char* ok : {"localhost:9091", "127.0.0.1:9091", "[::1]:9091", "10.1.2.3:9091", "10.1.2.3"}) {
        EXPECT_TRUE(host_allowed(ok, by_default, "10.1.2.3")) << ok;
    }
    for (const char* rebound : {"evil.example:9091", "evil.example", "10.1.2.4", "", "localhost.evil.example"}) {
        EXPECT_FALSE(host_allowed(rebound, by_default, "10.1.2.3")) << rebound;
    }
}

TEST(host_check, a_configured_list_replaces_the_default_and_star_allows_any) {
    const std::vector<std::string> listed{"admin.example.com"};
    EXPECT_TRUE(host_allowed("ADMIN.example.com:443", listed, "127.0.0.1"));
    EXPECT_FALSE(host_allowed("localhost", listed, "127.0.0.1"));
    EXPECT_TRUE(host_allowed("anything.example", {"*"}, "127.0.0.1"));
    EXPECT_FALSE(host_allowed("", {"*"}, "127.0.0.1"));
}

}  // namespace
}  // namespace syncml::server
