#pragma once
// `syncml-server admin ...`: tenants, users and devices, parsed here and carried out through
// persistence/accounts.hpp.

#include <iosfwd>
#include <string>
#include <vector>

namespace syncml::persistence {
class database;
}

namespace syncml::server {

enum class admin_action {
    tenant_add,
    tenant_list,
    tenant_set,
    tenant_delete,
    user_add,
    user_list,
    device_list,
    device_reset
};

struct admin_request {
    admin_action action = admin_action::tenant_list;
    std::string tenant;
    std::string user;
    std::string password;
    std::string device;
    std::string conflict_policy;  // tenant set: merge, server-wins, client-wins, newest-wins, duplicate
};

struct admin_parse_result {
    admin_request request;
    std::string error;  // usage error; empty when fine
};

admin_parse_result parse_admin(const std::vector<std::string>& words);

// Carries out the request; prints results to out and one clear message to err. Returns the exit status.
int run_admin(const admin_request& request, persistence::database& db, std::ostream& out, std::ostream& err);

}  // namespace syncml::server
