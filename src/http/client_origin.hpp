#pragma once
// Who the client is and which URL it reached us by, decided from configuration and the accepted socket, and
// from a proxy's X-Forwarded-* headers only when the TCP peer is a configured trusted proxy. The RespURI a
// phone follows is built from public_base, so a client's own Host header never chooses where its next
// message (with its credentials or session token) goes. Free of Asio so the rules are tested without sockets.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/config/config.hpp"

namespace syncml::server {

// The accepted socket's two ends (addresses as common::format_ip_address prints them).
struct socket_ends {
    std::string peer_address;
    std::string local_address;
    std::uint16_t local_port = 0;
    bool tls = false;
};

// The proxy headers of one request. Repeated header lines are kept in order: a proxy appends its own line
// after whatever the client sent.
struct forwarded_headers {
    std::vector<std::string> forwarded_for;
    std::vector<std::string> forwarded_proto;
    std::vector<std::string> forwarded_host;
};

struct client_origin {
    std::string public_base;     // "https://sync.example.com:8443": scheme, host and port, no path
    std::string client_address;  // the client's IP address, no port
    bool via_proxy = false;      // the peer is a trusted proxy and its X-Forwarded-For named the client
};

client_origin decide_origin(const http_config& config, const socket_ends& socket, const forwarded_headers& headers);

}  // namespace syncml::server
