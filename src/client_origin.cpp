#include "src/client_origin.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "src/header_text.hpp"
#include "src/ip_network.hpp"

namespace syncml::server {
namespace {

constexpr std::size_t max_host_length = 253;

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// The element the nearest proxy added: the last comma-separated item of the last header line.
std::string_view last_element(const std::vector<std::string>& lines) {
    if (lines.empty()) return {};
    std::string_view line = lines.back();
    const auto comma = line.rfind(',');
    return trim_ows(comma == std::string_view::npos ? line : line.substr(comma + 1));
}

std::optional<unsigned> parse_port(std::string_view digits) {
    unsigned port = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || port == 0 || port > 65535) {
        return std::nullopt;
    }
    return port;
}

bool plausible_host_name(std::string_view host) {
    if (host.empty() || host.size() > max_host_length || host.front() == '.' || host.front() == '-') return false;
    return std::all_of(host.begin(), host.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '-'; });
}

// Some proxies write "192.0.2.7:5123" or "[2001:db8::7]:5123" into X-Forwarded-For.
std::optional<ip_address> forwarded_address(std::string_view item) {
    if (auto address = parse_ip_address(item)) return address;
    if (item.starts_with('[')) {
        const auto close = item.find("]:");
        if (close != std::string_view::npos && parse_port(item.substr(close + 2))) {
            return parse_ip_address(item.substr(0, close + 1));
        }
        return std::nullopt;
    }
    const auto colon = item.find(':');
    if (colon != std::string_view::npos && item.find(':', colon + 1) == std::string_view::npos &&
        parse_port(item.substr(colon + 1))) {
        return parse_ip_address(item.substr(0, colon));
    }
    return std::nullopt;
}

bool is_unspecified(const std::string& host) {
    if (host.empty()) return true;
    auto address = parse_ip_address(host);
    if (!address) return false;
    const auto& b = address->bytes;
    return address->v4 ? std::all_of(b.begin() + 12, b.end(), [](auto x) { return x == 0; })
                       : std::all_of(b.begin(), b.end(), [](auto x) { return x == 0; });
}

std::string bracketed(const std::string& host) { return host.find(':') != std::string::npos ? "[" + host + "]" : host; }

std::optional<std::string> forwarded_base(const forwarded_headers& headers, bool tls) {
    const std::string_view host = last_element(headers.forwarded_host);
    if (host.empty()) return std::nullopt;
    const std::string proto = lower(last_element(headers.forwarded_proto));
    return make_public_base(proto.empty() ? (tls ? "https" : "http") : proto, host);
}

std::string listener_base(const http_config& config, const socket_ends& socket) {
    const std::string scheme = socket.tls ? "https" : "http";
    const std::string& host = is_unspecified(config.listen.host) ? socket.local_address : config.listen.host;
    const std::string authority = bracketed(host) + ":" + std::to_string(socket.local_port);
    return make_public_base(scheme, authority).value_or(scheme + "://" + authority);
}

}  // namespace

std::optional<std::string> make_public_base(std::string_view scheme, std::string_view authority) {
    const std::string scheme_text = lower(scheme);
    if (scheme_text != "http" && scheme_text != "https") return std::nullopt;
    std::string host;
    std::string_view rest;
    if (authority.starts_with('[')) {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        const auto literal = authority.substr(1, close - 1);
        auto address = parse_ip_address(literal);
        if (!address || literal.find(':') == std::string_view::npos) return std::nullopt;
        host = "[" + lower(literal) + "]";
        rest = authority.substr(close + 1);
    } else {
        const auto colon = authority.find(':');
        host = lower(authority.substr(0, colon));
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

client_origin decide_origin(const http_config& config, const socket_ends& socket, const forwarded_headers& headers) {
    client_origin origin;
    origin.client_address = socket.peer_address;
    const auto peer = parse_ip_address(socket.peer_address);
    const bool trusted = peer && contains_any(config.trusted_proxies, *peer);
    if (trusted) {
        if (auto client = forwarded_address(last_element(headers.forwarded_for))) {
            origin.client_address = format_ip_address(*client);
            origin.via_proxy = true;
        }
    }
    std::optional<std::string> proxy_base = trusted ? forwarded_base(headers, socket.tls) : std::nullopt;
    if (!config.public_url.empty()) {
        origin.public_base = config.public_url;
    } else if (proxy_base) {
        origin.public_base = *proxy_base;
    } else {
        origin.public_base = listener_base(config, socket);
    }
    return origin;
}

}  // namespace syncml::server
