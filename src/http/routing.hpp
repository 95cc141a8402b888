#pragma once
// Request routing decided from the request head alone (method, target, content type), before the body is
// read: errors that need no body (404/405/415) are answered without reading it. Free of Beast so it is
// tested without sockets.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "session/service/sync_handler.hpp"

namespace syncml::server {

// The SyncML listener serves /sync, CardDAV/CalDAV under /dav/<tenant>/ (and the /.well-known redirects to it) and the
// probes; the metrics listener serves /metrics and the probes; the admin
// listener (when configured) serves /admin/... (routed further by admin_api_routes.hpp), the admin web page at / and
// /ui/... and the probes.
enum class listener_kind { sync, metrics, admin };
enum class endpoint_kind { sync, dav, healthz, readyz, metrics, admin, none };

struct request_head {
    std::string method;
    std::string target;
    std::string content_type;
};

struct http_reply {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

struct route_decision {
    endpoint_kind endpoint = endpoint_kind::none;
    std::optional<http_reply> reply;  // set when the head alone decides the answer (an error)
    std::string tenant;               // for /sync/<tenant> and /dav/<tenant>/...; empty for /sync
    session::wire_encoding encoding = session::wire_encoding::xml;
    bool head_only = false;  // HEAD request: answer without a body
};

route_decision route_request(const request_head& head, listener_kind listener);

// application/vnd.syncml+xml or +wbxml, parameters and case ignored; nullopt for anything else.
std::optional<session::wire_encoding> classify_content_type(std::string_view content_type);

// The path of a request target without query or fragment.
std::string_view path_of(std::string_view target);

// Bounded label value for metrics and logs.
const char* route_label(endpoint_kind endpoint);

http_reply text_reply(int status, std::string body);

}  // namespace syncml::server
