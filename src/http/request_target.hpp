#pragma once
// The two parts of a request head that HTTP lets a client spell in more than one way, reduced to one form before
// routing: the request target (origin form or absolute form) and the Connection header's wish to close.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::server {

// A request target in absolute form ("http://host:port/path?query"), split. RFC 9112 3.2.2: a server accepts it
// (proxies and some clients send it) and takes the host from it instead of the Host header.
struct absolute_target {
    std::string origin_form;  // "/path?query", "/" when the target names no path
    std::string authority;    // "host:port", what the Host header then says
};

// The parts of `target` when it is in absolute form with the http or https scheme; nullopt for any other form
// (the origin form "/...", "*", or a scheme the server does not serve), which routing then judges as it is.
std::optional<absolute_target> split_absolute_target(std::string_view target);

// Whether the connection stays open after the response. RFC 9112 9.3 and RFC 9110 7.6.1: "close" in any
// Connection header closes it, whatever else is listed ("keep-alive, close" included); HTTP/1.1 keeps it open by
// default, HTTP/1.0 only when asked with "keep-alive". `version` is 10 or 11, as the parser reports it.
bool keeps_alive(unsigned version, const std::vector<std::string_view>& connection_headers);

}  // namespace syncml::server
