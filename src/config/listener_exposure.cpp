#include "src/config/listener_exposure.hpp"

#include "common/net/ip_network.hpp"
#include "common/text/ascii_case.hpp"

namespace syncml::server {

bool is_loopback_host(std::string_view host) {
    const std::string name = common::to_lower(host);
    if (name == "localhost" || name.ends_with(".localhost")) return true;
    const auto address = common::parse_ip_address(name);
    if (!address) return false;
    static const common::ip_network v4_loopback = *common::parse_ip_network("127.0.0.0/8");
    static const common::ip_network v6_loopback = *common::parse_ip_network("::1");
    return contains(v4_loopback, *address) || contains(v6_loopback, *address);
}

bool plain_http_exposed(const http_config& config) {
    return !config.tls_enabled() && config.trusted_proxies.empty() && !is_loopback_host(config.listen.host);
}

}  // namespace syncml::server
