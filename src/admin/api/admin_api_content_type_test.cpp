// Admin API writes take JSON bodies only (issue 35): a cross-site form post cannot reach them.
#include <gtest/gtest.h>

#include "src/admin/api/admin_api.hpp"

namespace syncml::server {
namespace {

const admin_route& route_of(const char* method, const char* path) { return *match_admin_route(method, path).route; }

admin_api_request request(const char* method, const char* content_type, const char* body) {
    return {.method = method,
            .target = "/admin/v1/tenants",
            .content_type = content_type,
            .authorization = "",
            .body = body};
}

TEST(admin_api_content_type, a_write_whose_body_is_not_json_is_415) {
    const auto& create = route_of("POST", "/admin/v1/tenants");
    for (const char* type :
         {"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; b=x", "application/jsonp"}) {
        const auto refused = refuse_body_type(request("POST", type, "{\"name\":\"a\"}"), create);
        ASSERT_TRUE(refused) << type;
        EXPECT_EQ(refused->status, 415);
    }
    EXPECT_TRUE(refuse_body_type(request("POST", "", ""), create));  // the route takes a body
}

TEST(admin_api_content_type, json_in_any_case_with_parameters_is_taken) {
    const auto& create = route_of("POST", "/admin/v1/tenants");
    for (const char* type : {"application/json", "Application/JSON; charset=utf-8", " application/json "}) {
        EXPECT_FALSE(refuse_body_type(request("POST", type, "{}"), create)) << type;
    }
}

TEST(admin_api_content_type, reads_and_bodiless_deletes_need_no_type_and_imports_keep_theirs) {
    const auto& list = route_of("GET", "/admin/v1/tenants");
    EXPECT_FALSE(refuse_body_type(request("GET", "", ""), list));
    const auto& remove = route_of("DELETE", "/admin/v1/tenants/a");
    EXPECT_FALSE(refuse_body_type(request("DELETE", "", ""), remove));
    EXPECT_TRUE(refuse_body_type(request("DELETE", "text/plain", "x"), remove));
    const auto& import = route_of("POST", "/admin/v1/tenants/a/users/b/import/contacts");
    ASSERT_EQ(import.op, admin_op::user_import);
    EXPECT_FALSE(refuse_body_type(request("POST", "text/vcard", "BEGIN:VCARD"), import));
}

}  // namespace
}  // namespace syncml::server
