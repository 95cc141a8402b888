#pragma once
// Which Host header names a listener answers for: against DNS rebinding, where a web page's own name comes to
// resolve to 127.0.0.1 and its scripts then reach a private listener (the admin API) as the same origin.

#include <string>
#include <string_view>
#include <vector>

namespace syncml::server {

// The name of a Host header value, lowercased, without its port and without the brackets of an IPv6 literal.
std::string host_name_of(std::string_view host_header);

// True when `host_header` names a host in `allowed` ("*": any). An empty list allows the loopback names and
// addresses and `local_address`, the address the connection came in on (what a client that dials the listener by
// address sends).
bool host_allowed(std::string_view host_header, const std::vector<std::string>& allowed,
                  std::string_view local_address);

}  // namespace syncml::server
