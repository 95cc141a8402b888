#include "src/config/public_url.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/net/ip_network.hpp"
#include "common/text/ascii_case.hpp"

namespace syncml::server {
namespace {

constexpr std::size_t max_host_length = 253;

bool plausible_host_name(std::string_view host) {
    if (host.empty() || host.size() > max_host_length || host.front() == '.' || host.front() == '-') return false;
    return std::all_of(host.begin(), host.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '-'; });
}

}  // namespace

std::optional<unsigned> parse_port(std::string_view digits) {
    unsigned port = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || port == 0 || port > 65535) {
        return std::nullopt;
    }
    return port;
}

std::optional<std::string> make_public_base(std::string_view scheme, std::string_view authority) {
    const std::string scheme_text = common::to_lower(scheme);
    if (scheme_text != "http" && scheme_text != "https") return std::nullopt;
    std::string host;
    std::string_view rest;
    if (authority.starts_with('[')) {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        const auto literal = authority.substr(1, close - 1);
        auto address = common::parse_ip_address(literal);
        if (!address || literal.find(':') == std::string_view::npos) return std::nullopt;
        host = "[" + common::to_lower(literal) + "]";
        rest = authority.substr(close + 1);
    } else {
        const auto colon = authority.find(':');
        host = common::to_lower(authority.substr(0, colon));
        if (!plausible_host_name(host)) return std::nullopt;
        rest = colon == std::string_view::npos ? std::string_view{} : authority.substr(colon);
    }
    std::string port_suffix;
    if (!rest.empty()) {
        auto port = rest.front() == ':' ? parse_port(rest.substr(1)) : std::nullopt;
        if (!port) return std::nullopt;
        const unsigned default_port = scheme_text == "https" ? 443 : 80;
        if (*port != default_port) port_suffix = ":" + std::to_string(*port);
    }
    return scheme_text + "://" + host + port_suffix;
}

std::optional<std::string> normalize_public_url(std::string_view url) {
    const auto separator = url.find("://");
    if (separator == std::string_view::npos) return std::nullopt;
    auto authority = url.substr(separator + 3);
    if (authority.ends_with('/')) authority.remove_suffix(1);
    if (authority.find_first_of("/?#@") != std::string_view::npos) return std::nullopt;
    return make_public_base(url.substr(0, separator), authority);
}

}  // namespace syncml::server
