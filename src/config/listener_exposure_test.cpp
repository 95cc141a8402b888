#include "src/config/listener_exposure.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(listener_exposure, knows_loopback_names_and_addresses) {
    for (const char* local :
         {"localhost", "LOCALHOST", "api.localhost", "127.0.0.1", "127.8.9.10", "::1", "[::1]", "::ffff:127.0.0.1"}) {
        EXPECT_TRUE(is_loopback_host(local)) << local;
    }
    for (const char* remote : {"0.0.0.0", "::", "192.0.2.7", "example.com", "localhost.example.com", "128.0.0.1", ""}) {
        EXPECT_FALSE(is_loopback_host(remote)) << remote;
    }
}

TEST(listener_exposure, plain_http_on_a_public_address_without_a_proxy_is_exposed) {
    http_config config;
    config.listen = {"0.0.0.0", 8080};
    EXPECT_TRUE(plain_http_exposed(config));
    config.trusted_proxies.push_back(*common::parse_ip_network("10.0.0.0/8"));
    EXPECT_FALSE(plain_http_exposed(config));
    config.trusted_proxies.clear();
    config.tls_cert = "cert.pem";
    config.tls_key = "key.pem";
    EXPECT_FALSE(plain_http_exposed(config));
    http_config local;
    local.listen = {"127.0.0.1", 8080};
    EXPECT_FALSE(plain_http_exposed(local));
}

}  // namespace
}  // namespace syncml::server
