#pragma once
// `--json` output of the admin list commands: one JSON array per command, for scripts.

#include <string>
#include <vector>

#include "persistence/accounts.hpp"

namespace syncml::server {

std::string tenants_json(const std::vector<persistence::tenant_info>& tenants);
std::string users_json(const std::vector<persistence::user_info>& users);
std::string devices_json(const std::vector<persistence::device_info>& devices);

}  // namespace syncml::server
