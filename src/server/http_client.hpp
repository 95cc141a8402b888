#pragma once
// The process's outgoing HTTP: one request per call, blocking the calling thread (the push sender's own, never an io
// thread), bounded by a timeout over the whole exchange. http:// and https:// (the system's trusted certificates,
// the host name verified). No redirects, no connection reuse: a notification is a few requests a second at most.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "push/delivery/push_request.hpp"

namespace syncml::server {

struct url_parts {
    bool tls = false;
    std::string host;
    std::string port;    // "80"/"443" when the URL names none
    std::string target;  // path and query, "/" at least
};

// nullopt for anything but http(s)://host[:port][/path?query] (no user info: a gateway's credentials go in the query,
// as Kannel's do).
std::optional<url_parts> parse_http_url(std::string_view url);

class blocking_http_client final : public push::http_client {
  public:
    explicit blocking_http_client(std::chrono::milliseconds timeout, std::size_t max_response_bytes = 64 * 1024)
        : timeout_(timeout), max_response_bytes_(max_response_bytes) {}
    push::http_response send(const push::http_request& request) override;

  private:
    std::chrono::milliseconds timeout_;
    std::size_t max_response_bytes_;
};

}  // namespace syncml::server
