#include "src/http/client_origin.hpp"

#include <gtest/gtest.h>

#include "common/net/ip_network.hpp"
#include "src/config/public_url.hpp"

namespace syncml::server {
namespace {

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
    if (*networks != '\0') config.trusted_proxies.push_back(*common::parse_ip_network(networks));
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
