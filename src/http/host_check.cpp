#include "src/http/host_check.hpp"

#include <algorithm>

#include "common/net/ip_network.hpp"
#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "src/config/listener_exposure.hpp"

namespace syncml::server {

std::string host_name_of(std::string_view host_header) {
    std::string_view host = common::trim(host_header, common::k_blanks);
    if (host.starts_with('[')) {
        const auto close = host.find(']');
        return common::to_lower(close == std::string_view::npos ? host.substr(1) : host.substr(1, close - 1));
    }
    // A name or IPv4 address with one colon has a port; more colons are an IPv6 literal without brackets.
    if (std::count(host.begin(), host.end(), ':') == 1) host = host.substr(0, host.find(':'));
    return common::to_lower(host);
}

bool host_allowed(std::string_view host_header, const std::vector<std::string>& allowed,
                  std::string_view local_address) {
    const std::string name = host_name_of(host_header);
    if (name.empty()) return false;
    if (!allowed.empty()) {
        return std::any_of(allowed.begin(), allowed.end(),
                           [&](const std::string& entry) { return entry == "*" || entry == name; });
    }
    if (is_loopback_host(name)) return true;
    const auto named = common::parse_ip_address(name);
    const auto local = common::parse_ip_address(local_address);
    return named && local && named->bytes == local->bytes;
}

}  // namespace syncml::server
