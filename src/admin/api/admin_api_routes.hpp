#pragma once
// The routes of the HTTP admin API: one table of (method, path pattern, operation), matched against a request's
// method and path. Patterns name their variable segments in braces, as the OpenAPI document does
// (src/admin/api/admin_openapi.json lists the same patterns; admin_api_routes_test.cpp checks both ways).

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::server {

enum class admin_op {
    openapi,
    tenant_list,
    tenant_create,
    tenant_show,
    tenant_update,
    tenant_delete,
    user_list,
    user_create,
    user_show,
    user_delete,
    user_password,
    user_disable,
    user_enable,
    user_export,
    user_import,
    device_list,
    device_show,
    device_delete,
    device_reset,
    device_window_show,
    device_window_set,
    device_push_show,
    device_push_set,
    device_push_clear,
    device_collections_show,
    device_collection_set,
    device_collection_clear,
    session_list,
    session_kill,
    audit_list,
    status_show,
    activity_show,
    failed_login_list,
    tenant_device_list,
    token_list,
    token_create,
    token_delete
};

struct admin_route {
    const char* method;
    const char* pattern;  // e.g. "/admin/v1/tenants/{tenant}/users/{user}"
    admin_op op;
    const char* action;  // for the audit log and logs, e.g. "user.create"; reads too
    bool changes;        // written to the audit log
};

const std::vector<admin_route>& admin_routes();

struct admin_route_match {
    const admin_route* route = nullptr;         // set when method and path match
    std::map<std::string, std::string> params;  // the variable segments, percent-decoded
    std::string allow;                          // the path matched, the method did not: the methods it takes
};

admin_route_match match_admin_route(std::string_view method, std::string_view path);

// The value of `name` in the request target's query string, percent-decoded ('+' is a space); nullopt when absent.
std::optional<std::string> query_parameter(std::string_view target, std::string_view name);

// %XX decoding; nullopt for a malformed escape or an encoded NUL.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space = false);

}  // namespace syncml::server
