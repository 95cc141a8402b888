#include "common/net/ip_network.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>

namespace syncml::common {
namespace {

constexpr std::array<std::uint8_t, 12> v4_mapped_prefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

bool is_v4_mapped(const std::array<std::uint8_t, 16>& bytes) {
    return std::equal(v4_mapped_prefix.begin(), v4_mapped_prefix.end(), bytes.begin());
}

}  // namespace

std::optional<ip_address> parse_ip_address(std::string_view text) {
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
    if (text.empty() || text.size() > INET6_ADDRSTRLEN) return std::nullopt;
    const std::string nul_terminated(text);
    ip_address address;
    std::array<std::uint8_t, 4> v4{};
    if (inet_pton(AF_INET, nul_terminated.c_str(), v4.data()) == 1) {
        std::copy(v4_mapped_prefix.begin(), v4_mapped_prefix.end(), address.bytes.begin());
        std::copy(v4.begin(), v4.end(), address.bytes.begin() + 12);
        address.v4 = true;
        return address;
    }
    if (inet_pton(AF_INET6, nul_terminated.c_str(), address.bytes.data()) != 1) return std::nullopt;
    address.v4 = is_v4_mapped(address.bytes);
    return address;
}

std::string format_ip_address(const ip_address& address) {
    char out[INET6_ADDRSTRLEN] = {};
    if (address.v4 || is_v4_mapped(address.bytes)) {
        inet_ntop(AF_INET, address.bytes.data() + 12, out, sizeof out);
    } else {
        inet_ntop(AF_INET6, address.bytes.data(), out, sizeof out);
    }
    return out;
}

std::optional<ip_network> parse_ip_network(std::string_view text) {
    const auto slash = text.find('/');
    auto address = parse_ip_address(text.substr(0, slash));
    if (!address) return std::nullopt;
    ip_network network{*address, 128, std::string(text)};
    if (slash != std::string_view::npos) {
        const auto digits = text.substr(slash + 1);
        unsigned bits = 0;
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
        if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
        if (bits > (address->v4 ? 32u : 128u)) return std::nullopt;
        network.prefix = address->v4 ? bits + 96 : bits;
    }
    // Host bits set ("10.0.0.1/8") are most likely a typo for a different network: refuse instead of guessing.
    ip_network masked = network;
    for (unsigned bit = network.prefix; bit < 128; ++bit) {
        masked.base.bytes[bit / 8] &= static_cast<std::uint8_t>(~(0x80u >> (bit % 8)));
    }
    if (masked.base.bytes != network.base.bytes) return std::nullopt;
    return network;
}

bool contains(const ip_network& network, const ip_address& address) {
    for (unsigned bit = 0; bit < network.prefix; ++bit) {
        const std::uint8_t mask = static_cast<std::uint8_t>(0x80u >> (bit % 8));
        if ((network.base.bytes[bit / 8] & mask) != (address.bytes[bit / 8] & mask)) return false;
    }
    return true;
}

std::string client_group(const ip_address& address) {
    if (address.v4 || is_v4_mapped(address.bytes)) return format_ip_address(address);
    ip_address prefix = address;
    std::fill(prefix.bytes.begin() + 8, prefix.bytes.end(), std::uint8_t{0});
    return format_ip_address(prefix) + "/64";
}

std::string client_group(std::string_view text) {
    const auto address = parse_ip_address(text);
    return address ? client_group(*address) : std::string(text);
}

bool contains_any(const std::vector<ip_network>& networks, const ip_address& address) {
    return std::any_of(networks.begin(), networks.end(), [&](const ip_network& n) { return contains(n, address); });
}

}  // namespace syncml::common
