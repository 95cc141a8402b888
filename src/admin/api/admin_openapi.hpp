#pragma once
// The OpenAPI 3 document of the admin API, src/admin/api/admin_openapi.json as built into the binary
// (src/CMakeLists.txt), so that GET /admin/openapi.json serves what the repository holds.

#include <string_view>

namespace syncml::server {

std::string_view admin_openapi_document();

}  // namespace syncml::server
