#include "src/http/routing.hpp"

#include <algorithm>
#include <cctype>

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "dav/dav_handler.hpp"

namespace syncml::server {
namespace {

constexpr std::string_view sync_prefix = "/sync";
constexpr std::string_view dav_prefix = "/dav/";
constexpr std::size_t max_tenant_length = 63;

// Tenant names as persistence accepts them; anything else cannot exist, so it is a 404 here.
bool plausible_tenant(std::string_view name) {
    if (name.empty() || name.size() > max_tenant_length || !std::isalnum(static_cast<unsigned char>(name[0]))) {
        return false;
    }
    return std::all_of(name.begin(), name.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '_' || c == '-'; });
}

struct path_match {
    endpoint_kind endpoint = endpoint_kind::none;
    std::string tenant;
};

path_match match_path(std::string_view path, listener_kind listener) {
    if (path == "/healthz") return {endpoint_kind::healthz, {}};
    if (path == "/readyz") return {endpoint_kind::readyz, {}};
    if (listener == listener_kind::metrics) {
        return {path == "/metrics" ? endpoint_kind::metrics : endpoint_kind::none, {}};
    }
    if (listener == listener_kind::admin) {
        // The API under /admin/, and its web page at / and /ui/ (src/admin/web/admin_page.hpp).
        const bool admin = path.starts_with("/admin/") || path == "/" || path.starts_with("/ui/");
        return {admin ? endpoint_kind::admin : endpoint_kind::none, {}};
    }
    if (path == "/.well-known/carddav" || path == "/.well-known/caldav") return {endpoint_kind::dav, {}};
    if (path.starts_with(dav_prefix)) {
        auto rest = path.substr(dav_prefix.size());
        auto tenant = rest.substr(0, rest.find('/'));
        if (plausible_tenant(tenant)) return {endpoint_kind::dav, std::string(tenant)};
        return {};
    }
    if (path == sync_prefix) return {endpoint_kind::sync, {}};
    if (path.starts_with("/sync/") && plausible_tenant(path.substr(sync_prefix.size() + 1))) {
        return {endpoint_kind::sync, std::string(path.substr(sync_prefix.size() + 1))};
    }
    return {};
}

http_reply method_not_allowed(const char* allow) {
    http_reply reply = text_reply(405, std::string("method not allowed; use ") + allow + "\n");
    reply.headers.emplace_back("Allow", allow);
    return reply;
}

}  // namespace

std::string_view path_of(std::string_view target) { return target.substr(0, target.find_first_of("?#")); }

std::optional<session::wire_encoding> classify_content_type(std::string_view content_type) {
    const std::string_view media = common::trim(content_type.substr(0, content_type.find(';')), common::k_blanks);
    if (common::iequals(media, "application/vnd.syncml+xml")) return session::wire_encoding::xml;
    if (common::iequals(media, "application/vnd.syncml+wbxml")) return session::wire_encoding::wbxml;
    return std::nullopt;
}

route_decision route_request(const request_head& head, listener_kind listener) {
    route_decision decision;
    path_match match = match_path(path_of(head.target), listener);
    decision.endpoint = match.endpoint;
    decision.tenant = std::move(match.tenant);
    if (match.endpoint == endpoint_kind::none) {
        decision.reply = text_reply(404, "not found\n");
    } else if (match.endpoint == endpoint_kind::sync) {
        auto encoding = classify_content_type(head.content_type);
        if (head.method != "POST") {
            decision.reply = method_not_allowed("POST");
        } else if (!encoding) {
            decision.reply = text_reply(415,
                                        "content type must be application/vnd.syncml+xml or "
                                        "application/vnd.syncml+wbxml\n");
        } else {
            decision.encoding = *encoding;
        }
    } else if (match.endpoint == endpoint_kind::dav) {
        if (decision.tenant.empty()) {
            // RFC 6764 discovery: the context path of the default tenant.
            http_reply reply = text_reply(301, "moved to /dav/default/\n");
            reply.headers.emplace_back("Location", "/dav/default/");
            decision.reply = std::move(reply);
        } else if (!dav::known_method(head.method)) {
            decision.reply = method_not_allowed(dav::k_allowed_methods);
        }
        decision.head_only = head.method == "HEAD";
    } else if (match.endpoint == endpoint_kind::admin) {
        // Methods are the admin API's to check, per route.
        decision.head_only = head.method == "HEAD";
    } else if (head.method == "HEAD") {
        decision.head_only = true;
    } else if (head.method != "GET") {
        decision.reply = method_not_allowed("GET, HEAD");
    }
    return decision;
}

const char* route_label(endpoint_kind endpoint) {
    switch (endpoint) {
        case endpoint_kind::sync:
            return "sync";
        case endpoint_kind::dav:
            return "dav";
        case endpoint_kind::healthz:
            return "healthz";
        case endpoint_kind::readyz:
            return "readyz";
        case endpoint_kind::metrics:
            return "metrics";
        case endpoint_kind::admin:
            return "admin";
        case endpoint_kind::none:
            break;
    }
    return "unmatched";
}

http_reply text_reply(int status, std::string body) {
    http_reply reply;
    reply.status = status;
    reply.body = std::move(body);
    return reply;
}

}  // namespace syncml::server
