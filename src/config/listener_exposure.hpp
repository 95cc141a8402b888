#pragma once
// Who can reach a listener: loopback only, or the network. Decides the start-up warning about plain HTTP and the
// admin API's default Host names.

#include <string_view>

#include "src/config/config.hpp"

namespace syncml::server {

// "localhost" (and its subdomains, RFC 6761), 127.0.0.0/8, ::1 and ::ffff:127.x.y.z; brackets allowed.
bool is_loopback_host(std::string_view host);

// True when the SyncML/DAV listener speaks plain HTTP on an address other hosts reach and no trusted proxy is
// configured (which would be the one doing TLS): passwords and address books then cross the network readable.
bool plain_http_exposed(const http_config& config);

}  // namespace syncml::server
