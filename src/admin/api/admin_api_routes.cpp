#include "src/admin/api/admin_api_routes.hpp"

namespace syncml::server {
namespace {

std::vector<std::string_view> segments_of(std::string_view path) {
    std::vector<std::string_view> segments;
    while (!path.empty()) {
        if (path.front() != '/') return {};
        path.remove_prefix(1);
        const auto end = path.find('/');
        segments.push_back(path.substr(0, end));
        path = end == std::string_view::npos ? std::string_view() : path.substr(end);
    }
    return segments;
}

// Fills params when every segment matches; a variable matches any non-empty segment.
bool matches(std::string_view pattern, const std::vector<std::string_view>& path,
             std::map<std::string, std::string>& params) {
    const auto wanted = segments_of(pattern);
    if (wanted.size() != path.size()) return false;
    std::map<std::string, std::string> found;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        if (wanted[i].starts_with('{')) {
            auto value = percent_decode(path[i]);
            if (!value || value->empty()) return false;
            found[std::string(wanted[i].substr(1, wanted[i].size() - 2))] = std::move(*value);
        } else if (wanted[i] != path[i]) {
            return false;
        }
    }
    params = std::move(found);
    return true;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

const std::vector<admin_route>& admin_routes() {
    static const std::vector<admin_route> table = {
        {"GET", "/admin/openapi.json", admin_op::openapi, "openapi", false},
        {"GET", "/admin/v1/tenants", admin_op::tenant_list, "tenant.list", false},
        {"POST", "/admin/v1/tenants", admin_op::tenant_create, "tenant.create", true},
        {"GET", "/admin/v1/tenants/{tenant}", admin_op::tenant_show, "tenant.show", false},
        {"PATCH", "/admin/v1/tenants/{tenant}", admin_op::tenant_update, "tenant.update", true},
        {"DELETE", "/admin/v1/tenants/{tenant}", admin_op::tenant_delete, "tenant.delete", true},
        {"GET", "/admin/v1/tenants/{tenant}/users", admin_op::user_list, "user.list", false},
        {"POST", "/admin/v1/tenants/{tenant}/users", admin_op::user_create, "user.create", true},
        {"GET", "/admin/v1/tenants/{tenant}/users/{user}", admin_op::user_show, "user.show", false},
        {"DELETE", "/admin/v1/tenants/{tenant}/users/{user}", admin_op::user_delete, "user.delete", true},
        {"PUT", "/admin/v1/tenants/{tenant}/users/{user}/password", admin_op::user_password, "user.password", true},
        {"POST", "/admin/v1/tenants/{tenant}/users/{user}/disable", admin_op::user_disable, "user.disable", true},
        {"POST", "/admin/v1/tenants/{tenant}/users/{user}/enable", admin_op::user_enable, "user.enable", true},
        {"GET", "/admin/v1/tenants/{tenant}/users/{user}/export/{datastore}", admin_op::user_export, "user.export",
         false},
        {"POST", "/admin/v1/tenants/{tenant}/users/{user}/import/{datastore}", admin_op::user_import,
         "user.import_items", true},
        {"GET", "/admin/v1/tenants/{tenant}/users/{user}/devices", admin_op::device_list, "device.list", false},
        {"GET", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}", admin_op::device_show, "device.show",
         false},
        {"DELETE", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}", admin_op::device_delete, "device.delete",
         true},
        {"POST", "/admin/v1/tenants/{tenant}/devices/{device}/reset", admin_op::device_reset, "device.reset", true},
        {"GET", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}/window", admin_op::device_window_show,
         "device.window_show", false},
        {"PUT", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}/window", admin_op::device_window_set,
         "device.window", true},
        {"GET", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}/push", admin_op::device_push_show,
         "device.push_show", false},
        {"PUT", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}/push", admin_op::device_push_set,
         "device.push", true},
        {"DELETE", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}/push", admin_op::device_push_clear,
         "device.push", true},
        {"GET", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}/collections",
         admin_op::device_collections_show, "device.collections_show", false},
        {"PUT", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}/collections/{datastore}",
         admin_op::device_collection_set, "device.collection", true},
        {"DELETE", "/admin/v1/tenants/{tenant}/users/{user}/devices/{device}/collections/{datastore}",
         admin_op::device_collection_clear, "device.collection", true},
        {"GET", "/admin/v1/tenants/{tenant}/sessions", admin_op::session_list, "session.list", false},
        {"DELETE", "/admin/v1/tenants/{tenant}/sessions/{session}", admin_op::session_kill, "session.kill", true},
        {"GET", "/admin/v1/audit", admin_op::audit_list, "audit.list", false},
        {"GET", "/admin/v1/status", admin_op::status_show, "status.show", false},
        {"GET", "/admin/v1/activity", admin_op::activity_show, "activity.show", false},
        {"GET", "/admin/v1/failed-logins", admin_op::failed_login_list, "failed_login.list", false},
        {"GET", "/admin/v1/tenants/{tenant}/devices", admin_op::tenant_device_list, "device.list", false},
        {"GET", "/admin/v1/tokens", admin_op::token_list, "token.list", false},
        {"POST", "/admin/v1/tokens", admin_op::token_create, "token.create", true},
        {"DELETE", "/admin/v1/tokens/{token}", admin_op::token_delete, "token.delete", true},
    };
    return table;
}

admin_route_match match_admin_route(std::string_view method, std::string_view path) {
    admin_route_match match;
    const auto segments = segments_of(path);
    if (segments.empty()) return match;
    for (const auto& route : admin_routes()) {
        std::map<std::string, std::string> params;
        if (!matches(route.pattern, segments, params)) continue;
        if (method == route.method || (method == "HEAD" && std::string_view(route.method) == "GET")) {
            match.route = &route;
            match.params = std::move(params);
            match.allow.clear();
            return match;
        }
        match.allow += (match.allow.empty() ? "" : ", ") + std::string(route.method);
    }
    return match;
}

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+' && plus_is_space) {
            out += ' ';
        } else if (text[i] != '%') {
            out += text[i];
        } else {
            if (i + 2 >= text.size()) return std::nullopt;
            const int high = hex_digit(text[i + 1]);
            const int low = hex_digit(text[i + 2]);
            if (high < 0 || low < 0 || (high == 0 && low == 0)) return std::nullopt;
            out += static_cast<char>(high * 16 + low);
            i += 2;
        }
    }
    return out;
}

std::optional<std::string> query_parameter(std::string_view target, std::string_view name) {
    const auto question = target.find('?');
    if (question == std::string_view::npos) return std::nullopt;
    std::string_view query = target.substr(question + 1);
    query = query.substr(0, query.find('#'));
    while (!query.empty()) {
        const auto end = query.find('&');
        const std::string_view pair = query.substr(0, end);
        const auto equals = pair.find('=');
        if (pair.substr(0, equals) == name) {
            return equals == std::string_view::npos ? std::string() : percent_decode(pair.substr(equals + 1), true);
        }
        query = end == std::string_view::npos ? std::string_view() : query.substr(end + 1);
    }
    return std::nullopt;
}

}  // namespace syncml::server
