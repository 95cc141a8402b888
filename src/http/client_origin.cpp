#include "src/http/client_origin.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/net/ip_network.hpp"
#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "src/config/public_url.hpp"

namespace syncml::server {
namespace {

// The element the nearest proxy added: the last comma-separated item of the last header line.
std::string_view last_element(const std::vector<std::string>& lines) {
    if (lines.empty()) return {};
    std::string_view line = lines.back();
    const auto comma = line.rfind(',');
    return common::trim(comma == std::string_view::npos ? line : line.substr(comma + 1), common::k_blanks);
}

// Some proxies write "192.0.2.7:5123" or "[2001:db8::7]:5123" into X-Forwarded-For.
std::optional<common::ip_address> forwarded_address(std::string_view item) {
    if (auto address = common::parse_ip_address(item)) return address;
    if (item.starts_with('[')) {
        const auto close = item.find("]:");
        if (close != std::string_view::npos && parse_port(item.substr(close + 2))) {
            return common::parse_ip_address(item.substr(0, close + 1));
        }
        return std::nullopt;
    }
    const auto colon = item.find(':');
    if (colon != std::string_view::npos && item.find(':', colon + 1) == std::string_view::npos &&
        parse_port(item.substr(colon + 1))) {
        return common::parse_ip_address(item.substr(0, colon));
    }
    return std::nullopt;
}

bool is_unspecified(const std::string& host) {
    if (host.empty()) return true;
    auto address = common::parse_ip_address(host);
    if (!address) return false;
    const auto& b = address->bytes;
    return address->v4 ? std::all_of(b.begin() + 12, b.end(), [](auto x) { return x == 0; })
                       : std::all_of(b.begin(), b.end(), [](auto x) { return x == 0; });
}

std::string bracketed(const std::string& host) { return host.find(':') != std::string::npos ? "[" + host + "]" : host; }

std::optional<std::string> forwarded_base(const forwarded_headers& headers, bool tls) {
    const std::string_view host = last_element(headers.forwarded_host);
    if (host.empty()) return std::nullopt;
    const std::string proto = common::to_lower(last_element(headers.forwarded_proto));
    return make_public_base(proto.empty() ? (tls ? "https" : "http") : proto, host);
}

std::string listener_base(const http_config& config, const socket_ends& socket) {
    const std::string scheme = socket.tls ? "https" : "http";
    const std::string& host = is_unspecified(config.listen.host) ? socket.local_address : config.listen.host;
    const std::string authority = bracketed(host) + ":" + std::to_string(socket.local_port);
    return make_public_base(scheme, authority).value_or(scheme + "://" + authority);
}

}  // namespace

client_origin decide_origin(const http_config& config, const socket_ends& socket, const forwarded_headers& headers) {
    client_origin origin;
    origin.client_address = socket.peer_address;
    const auto peer = common::parse_ip_address(socket.peer_address);
    const bool trusted = peer && common::contains_any(config.trusted_proxies, *peer);
    if (trusted) {
        if (auto client = forwarded_address(last_element(headers.forwarded_for))) {
            origin.client_address = common::format_ip_address(*client);
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
