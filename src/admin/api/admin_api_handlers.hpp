#pragma once
// The operations of the admin API on the database, one function per route (admin_api_routes.hpp), through the same
// persistence functions as the admin CLI. Failures are thrown as persistence's exceptions (not_found,
// already_exists, std::invalid_argument, db_error), admin_field_error (admin_api_body.hpp), admin_forbidden,
// admin_conflict or admin_unsupported_media, and turned into replies in one place (admin_api.cpp).

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/admin/api/admin_api_routes.hpp"
#include "src/admin/common/json_reader.hpp"

namespace syncml::persistence {
class database;
class secret_key;
}  // namespace syncml::persistence

namespace syncml::server {

// The operation spans tenants and the token is limited to one.
class admin_forbidden : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A tenant that still has users is deleted only with force (409, not 400: the request is fine, the state is not).
class admin_conflict : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A request body of another media type than the route takes (415).
class admin_unsupported_media : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class sync_activity;

// What the API tells of the running instance (GET /admin/v1/status and the activity routes).
struct admin_instance {
    std::string version;
    std::int64_t started_at = 0;  // seconds since the epoch
    // Whether the instance is ready, and if not why (/readyz); empty: always ready.
    std::function<bool(std::string& reason)> ready;
    const sync_activity* activity = nullptr;  // this instance's SyncML traffic; null: none recorded
};

struct admin_call {
    const admin_route_match& match;
    const std::string& target;                // the request target, for query parameters
    const json_value* body;                   // the parsed body; null when there was none
    const std::optional<std::string>& scope;  // the token's tenant; empty: all tenants
    const persistence::secret_key* md5_key;   // seals new users' md5 secrets; null: the database's own key
    std::string_view content_type = {};       // of the request body, for routes that take other bodies than JSON
    std::string_view raw_body = {};
    const admin_instance* instance = nullptr;  // null: nothing known of the instance
    std::string_view token_name = {};          // the token of the request
};

struct admin_result {
    int status = 200;
    std::string json;  // the body, JSON unless content_type says otherwise; empty for 204
    std::string content_type = "application/json";
    std::vector<std::pair<std::string, std::string>> headers = {};  // e.g. Link to a list's next page
};

admin_result run_admin_op(persistence::database& db, const admin_call& call);

}  // namespace syncml::server
