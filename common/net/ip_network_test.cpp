#include "common/net/ip_network.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

ip_address address(const char* text) { return *parse_ip_address(text); }

TEST(ip_network, parses_addresses_and_prints_them_canonically) {
    EXPECT_EQ(format_ip_address(address("192.0.2.7")), "192.0.2.7");
    EXPECT_EQ(format_ip_address(address("::ffff:192.0.2.7")), "192.0.2.7");
    EXPECT_EQ(format_ip_address(address("[2001:DB8:0::1]")), "2001:db8::1");
    for (const char* bad : {"", "example.com", "192.0.2.7:80", "1.2.3", "::1%eth0", "unknown"}) {
        EXPECT_FALSE(parse_ip_address(bad)) << bad;
    }
}

TEST(ip_network, networks_contain_their_addresses_only) {
    const auto v4 = *parse_ip_network("10.1.0.0/16");
    EXPECT_TRUE(contains(v4, address("10.1.255.3")));
    EXPECT_TRUE(contains(v4, address("::ffff:10.1.0.1")));  // seen through a dual-stack socket
    EXPECT_FALSE(contains(v4, address("10.2.0.1")));
    const auto v6 = *parse_ip_network("2001:db8::/32");
    EXPECT_TRUE(contains(v6, address("2001:db8:ffff::1")));
    EXPECT_FALSE(contains(v6, address("2001:db9::1")));
    const auto single = *parse_ip_network("127.0.0.1");
    EXPECT_TRUE(contains(single, address("127.0.0.1")));
    EXPECT_FALSE(contains(single, address("127.0.0.2")));
    EXPECT_TRUE(contains(*parse_ip_network("0.0.0.0/0"), address("203.0.113.1")));
}

TEST(ip_network, refuses_host_bits_and_bad_prefixes) {
    for (const char* bad : {"10.0.0.1/8", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/x", "2001:db8::/129", "host/8"}) {
        EXPECT_FALSE(parse_ip_network(bad)) << bad;
    }
}

TEST(client_group, an_ipv4_address_is_its_own_group) {
    EXPECT_EQ(client_group("192.0.2.7"), "192.0.2.7");
    EXPECT_EQ(client_group("::ffff:192.0.2.7"), "192.0.2.7");
}

// Every address of an IPv6 /64 is one client: rotating through it gains an attacker nothing.
TEST(client_group, ipv6_addresses_of_one_64_are_one_group) {
    EXPECT_EQ(client_group("2001:db8:1:2::1"), "2001:db8:1:2::/64");
    EXPECT_EQ(client_group("2001:db8:1:2:ffff:ee:dd:cc"), "2001:db8:1:2::/64");
    EXPECT_EQ(client_group("[2001:db8:1:2::9]"), "2001:db8:1:2::/64");
    EXPECT_NE(client_group("2001:db8:1:3::1"), client_group("2001:db8:1:2::1"));
}

TEST(client_group, text_that_is_no_address_stays_as_it_is) {
    EXPECT_EQ(client_group("unix"), "unix");
    EXPECT_EQ(client_group(""), "");
}

}  // namespace
}  // namespace syncml::common
