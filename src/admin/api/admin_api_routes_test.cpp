#include "src/admin/api/admin_api_routes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "src/admin/api/admin_api.hpp"
#include "src/admin/api/admin_api_body.hpp"
#include "src/admin/api/admin_api_transfer.hpp"
#include "src/admin/api/admin_openapi.hpp"
#include "src/admin/common/json_reader.hpp"

namespace syncml::server {
namespace {

TEST(admin_api_routes, match_by_method_and_pattern_with_decoded_segments) {
    auto match = match_admin_route("GET", "/admin/v1/tenants/acme/users/bob/devices/IMEI%3A1%2Fx");
    ASSERT_TRUE(match.route);
    EXPECT_EQ(match.route->op, admin_op::device_show);
    EXPECT_EQ(match.params["tenant"], "acme");
    EXPECT_EQ(match.params["device"], "IMEI:1/x");
    match = match_admin_route("DELETE", "/admin/v1/tenants/acme");
    ASSERT_TRUE(match.route);
    EXPECT_EQ(match.route->op, admin_op::tenant_delete);
    EXPECT_TRUE(match.route->changes);
    EXPECT_EQ(match_admin_route("HEAD", "/admin/v1/tenants").route->op, admin_op::tenant_list);
}

TEST(admin_api_routes, wrong_methods_name_the_allowed_ones_and_unknown_paths_match_nothing) {
    auto match = match_admin_route("PUT", "/admin/v1/tenants/acme");
    EXPECT_FALSE(match.route);
    EXPECT_EQ(match.allow, "GET, PATCH, DELETE");
    EXPECT_FALSE(match_admin_route("GET", "/admin/v1/tenants/").route);
    EXPECT_FALSE(match_admin_route("GET", "/admin/v1/tenants/a%zz").route);  // a malformed escape
    EXPECT_FALSE(match_admin_route("GET", "/admin/v1/tenants/a%00").route);
    match = match_admin_route("GET", "/admin/v2/tenants");
    EXPECT_FALSE(match.route);
    EXPECT_EQ(match.allow, "");
}

TEST(admin_api_routes, export_and_import_name_the_datastore_and_only_imports_take_large_bodies) {
    auto match = match_admin_route("GET", "/admin/v1/tenants/acme/users/bob/export/contacts");
    ASSERT_TRUE(match.route);
    EXPECT_EQ(match.route->op, admin_op::user_export);
    EXPECT_EQ(match.params["datastore"], "contacts");
    EXPECT_FALSE(match.route->changes);
    match = match_admin_route("POST", "/admin/v1/tenants/acme/users/bob/import/memos");
    ASSERT_TRUE(match.route);
    EXPECT_EQ(match.route->op, admin_op::user_import);
    EXPECT_TRUE(match.route->changes);
    EXPECT_EQ(admin_body_limit("POST", "/admin/v1/tenants/acme/users/bob/import/contacts?x=1"),
              k_admin_import_body_limit);
    EXPECT_EQ(admin_body_limit("POST", "/admin/v1/tenants"), k_admin_body_limit);
    EXPECT_EQ(admin_body_limit("PUT", "/admin/v1/tenants/acme/users/bob/import/contacts"), k_admin_body_limit);
    EXPECT_EQ(admin_body_limit("GET", "/nothing"), k_admin_body_limit);
}

TEST(admin_api_routes, query_parameters_are_decoded) {
    EXPECT_EQ(query_parameter("/x?force=true&user=a+b%21", "user"), "a b!");
    EXPECT_EQ(query_parameter("/x?force=true", "force"), "true");
    EXPECT_EQ(query_parameter("/x?force", "force"), "");
    EXPECT_FALSE(query_parameter("/x?forced=1", "force"));
    EXPECT_FALSE(query_parameter("/x", "force"));
}

// The OpenAPI document lists exactly the routes the API serves, each with its method.
TEST(admin_api_routes, the_openapi_document_and_the_routes_agree) {
    const auto parsed = parse_json(admin_openapi_document(), {.max_bytes = 1 << 20, .max_depth = 64});
    ASSERT_TRUE(parsed.value) << parsed.error;
    const json_value& doc = *parsed.value;
    ASSERT_TRUE(doc.find("openapi"));
    EXPECT_TRUE(doc.find("openapi")->text.starts_with("3.")) << doc.find("openapi")->text;
    const json_value* paths = doc.find("paths");
    ASSERT_TRUE(paths);
    std::set<std::string> documented;
    for (const auto& [path, item] : paths->members) {
        for (const auto& [method, operation] : item.members) {
            if (method == "parameters") continue;
            std::string upper = method;
            for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            documented.insert(upper + " " + path);
            EXPECT_TRUE(operation.find("responses")) << upper << " " << path;
        }
    }
    std::set<std::string> served;
    for (const auto& route : admin_routes()) served.insert(std::string(route.method) + " " + route.pattern);
    EXPECT_EQ(documented, served);
}

TEST(admin_api_body, tenant_settings_use_the_cli_parser_and_name_the_member_at_fault) {
    const auto body = parse_json(R"({"max_sessions": 7, "auth_md5": false, "conflict_policy": "server-wins"})");
    const auto settings = settings_from(*body.value, {});
    EXPECT_EQ(settings.max_sessions, 7);
    EXPECT_FALSE(settings.auth_md5);
    EXPECT_EQ(settings.on_conflict, persistence::conflict_policy::server_wins);
    EXPECT_EQ(settings.max_devices_per_user, 20);  // untouched

    const auto field_of = [](std::string_view json) {
        try {
            const auto value = *parse_json(json).value;
            require_only(value, tenant_setting_members());
            settings_from(value, {});
        } catch (const admin_field_error& e) {
            return e.field() + ": " + e.what();
        }
        return std::string("accepted");
    };
    EXPECT_EQ(field_of(R"({"max_sessions": "7"})"), "max_sessions: max_sessions must be a whole number, not a string");
    EXPECT_EQ(field_of(R"({"max_sessions": 1.5})"), "max_sessions: max_sessions must be a whole number, not a number");
    EXPECT_EQ(field_of(R"({"auth_md5": "off"})"), "auth_md5: auth_md5 must be a boolean, not a string");
    EXPECT_EQ(field_of(R"({"conflict_policy": "loudest"})"),
              "conflict_policy: conflict policy 'loudest' (expected merge, server-wins, client-wins, newest-wins or "
              "duplicate)");
    EXPECT_EQ(field_of(R"({"max_sesions": 1})"), "max_sesions: unknown member max_sesions");
    EXPECT_EQ(field_of("[]"), ": the body must be a JSON object, not an array");
    EXPECT_EQ(field_of("{}"), "accepted");
}

TEST(admin_api_body, limits_are_the_operators_and_a_tenants_policy_its_own) {
    const auto& all = tenant_setting_members();
    const auto& operators = operator_setting_members();
    for (const auto member :
         {"max_sessions", "max_items_per_datastore", "max_user_bytes", "auth_md5", "session_binding"})
        EXPECT_NE(std::find(operators.begin(), operators.end(), member), operators.end()) << member;
    for (const auto member : {"conflict_policy", "dav", "window_past_days"})
        EXPECT_EQ(std::find(operators.begin(), operators.end(), member), operators.end()) << member;
    for (const auto member : operators) EXPECT_NE(std::find(all.begin(), all.end(), member), all.end()) << member;
}

TEST(admin_api_body, required_strings_are_present_non_empty_strings) {
    const auto body = *parse_json(R"({"name": "", "password": 5, "ok": "x"})").value;
    EXPECT_EQ(required_string(body, "ok"), "x");
    EXPECT_THROW(required_string(body, "name"), admin_field_error);
    EXPECT_THROW(required_string(body, "password"), admin_field_error);
    EXPECT_THROW(required_string(body, "missing"), admin_field_error);
}

}  // namespace
}  // namespace syncml::server
