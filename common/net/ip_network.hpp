#pragma once
// IP addresses and networks (CIDR) for the trusted-proxy list, and the client groups that rate limits count, without
// Asio: config parsing, the limits and the tests of the forwarding rules need no sockets.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::common {

// An IPv4 address is kept as its IPv4-mapped IPv6 form (::ffff:a.b.c.d), so that a peer seen through a
// dual-stack socket matches a configured IPv4 network.
struct ip_address {
    std::array<std::uint8_t, 16> bytes{};
    bool v4 = false;
};

struct ip_network {
    ip_address base;
    unsigned prefix = 128;  // over the 128-bit form (an IPv4 /24 is /120 here)
    std::string text;       // as configured, for --print-config
};

// "192.0.2.7", "2001:db8::1", "[2001:db8::1]", "::ffff:192.0.2.7"; nullopt for anything else (names, ports).
std::optional<ip_address> parse_ip_address(std::string_view text);

// Canonical text: dotted quad for IPv4 and IPv4-mapped addresses, RFC 5952 form for IPv6.
std::string format_ip_address(const ip_address& address);

// "10.0.0.0/8", "2001:db8::/32" or a single address; host bits must be zero.
std::optional<ip_network> parse_ip_network(std::string_view text);

bool contains(const ip_network& network, const ip_address& address);

// The client a per-address limit counts: an IPv4 address itself, an IPv6 address by its /64 ("2001:db8:1:2::/64":
// one subscriber or LAN gets a /64 and picks any address in it); text that is no address, as it is.
std::string client_group(const ip_address& address);
std::string client_group(std::string_view address);
bool contains_any(const std::vector<ip_network>& networks, const ip_address& address);

}  // namespace syncml::common
