#include "src/http/client_origin.hpp"

#include <gtest/gtest.h>

#include "src/config/ip_network.hpp"
#include "src/config/public_url.hpp"

namespace syncml::server {
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

TEST(ip_network, buckets_an_ipv4_address_alone_and_an_ipv6_address_by_its_64) {
    EXPECT_EQ(address_bucket(address("192.0.2.7")), "192.0.2.7");
    EXPECT_EQ(address_bucket(address("::ffff:192.0.2.7")), "192.0.2.7");
    EXPECT_EQ(address_bucket(address("2001:db8:1:2:aaaa::1")), "2001:db8:1:2::/64");
    EXPECT_EQ(address_bucket(address("2001:db8:1:2:bbbb::9")), address_bucket(address("2001:db8:1:2::1")));
    EXPECT_NE(address_bucket(address("2001:db8:1:3::1")), address_bucket(address("2001:db8:1:2::1")));
}

TEST(public_url, is_normalised_to_scheme_host_and_port) {
    EXPECT_EQ(normalize_public_url("https://Sync.Example.com/"), "https://sync.example.com");
    EXPECT_EQ(normalize_public_url("HTTPS://sync.example.com:443"), "https://sync.example.com");
    EXPECT_EQ(normalize_public_url("http://sync.example.com:8080"), "http://sync.example.com:8080");
    EXPECT_EQ(normalize_public_url("https://[2001:DB8::1]:8443"), "https://[2001:db8::1]:8443");
    for (const char* bad : {"sync.example.com", "ftp://sync.example.com", "https://", "https://x/sync", "https://x?a=1",
                            "https://x#f", "https://user@x", "https://x:0", "https://x:65536", "https://x:port",
                            "https://[::1", "https://[example]", "https://a b"}) {
        EXPECT_FALSE(normalize_public_url(bad)) << bad;
    }
}

http_config with_proxies(const char* networks) {
    http_config config;
    config.listen = {"0.0.0.0", 8080};
    if (*networks != '\0') config.trusted_proxies.push_back(*parse_ip_network(networks));
    return config;
}

const socket_ends from_proxy{"10.0.0.5", "10.0.0.20", 8080, false};
const forwarded_headers proxy_says{{"203.0.113.50, 198.51.100.7"}, {"https"}, {"sync.example.com"}};

TEST(client_origin, an_untrusted_peer_is_the_client_and_the_listener_the_base) {
    const auto origin = decide_origin(with_proxies(""), from_proxy, proxy_says);
    EXPECT_EQ(origin.client_address, "10.0.0.5");
    EXPECT_FALSE(origin.via_proxy);
    EXPECT_EQ(origin.public_base, "http://10.0.0.20:8080");  // wildcard listener: the accepting address
}

TEST(client_origin, a_trusted_proxy_names_the_client_by_the_last_forwarded_address) {
    const auto origin = decide_origin(with_proxies("10.0.0.0/24"), from_proxy, proxy_says);
    EXPECT_EQ(origin.client_address, "198.51.100.7");  // the first entry is whatever the client claimed
    EXPECT_TRUE(origin.via_proxy);
    EXPECT_EQ(origin.public_base, "https://sync.example.com");
    // The proxy appends its own line after the client's.
    const forwarded_headers two_lines{{"1.1.1.1", "[2001:db8::9]:4711"}, {}, {}};
    EXPECT_EQ(decide_origin(with_proxies("10.0.0.5"), from_proxy, two_lines).client_address, "2001:db8::9");
    const forwarded_headers with_port{{"198.51.100.7:5123"}, {}, {}};
    EXPECT_EQ(decide_origin(with_proxies("10.0.0.5"), from_proxy, with_port).client_address, "198.51.100.7");
}

TEST(client_origin, unusable_proxy_headers_fall_back_to_the_socket) {
    const forwarded_headers junk{{"unknown"}, {"gopher"}, {"evil.example/path"}};
    const auto origin = decide_origin(with_proxies("10.0.0.5"), from_proxy, junk);
    EXPECT_EQ(origin.client_address, "10.0.0.5");
    EXPECT_FALSE(origin.via_proxy);
    EXPECT_EQ(origin.public_base, "http://10.0.0.20:8080");
    const forwarded_headers host_only{{}, {}, {"sync.example.com:8443"}};
    EXPECT_EQ(decide_origin(with_proxies("10.0.0.5"), {"10.0.0.5", "10.0.0.20", 8443, true}, host_only).public_base,
              "https://sync.example.com:8443");  // no X-Forwarded-Proto: the scheme the proxy reached us by
}

TEST(client_origin, public_url_wins_over_everything) {
    http_config config = with_proxies("10.0.0.0/24");
    config.public_url = "https://phones.example.org";
    const auto origin = decide_origin(config, from_proxy, proxy_says);
    EXPECT_EQ(origin.public_base, "https://phones.example.org");
    EXPECT_EQ(origin.client_address, "198.51.100.7");
}

TEST(client_origin, a_configured_listener_host_is_used_as_is) {
    http_config config = with_proxies("");
    config.listen = {"::1", 8443};
    EXPECT_EQ(decide_origin(config, {"::1", "::1", 8443, true}, {}).public_base, "https://[::1]:8443");
    config.listen = {"::", 80};
    EXPECT_EQ(decide_origin(config, {"192.0.2.1", "192.0.2.80", 80, false}, {}).public_base, "http://192.0.2.80");
}

}  // namespace
}  // namespace syncml::server
