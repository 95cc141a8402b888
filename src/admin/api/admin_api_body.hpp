#pragma once
// Request bodies of the admin API: JSON objects whose members are checked by name and type. Every problem is an
// admin_field_error naming the member, which the API answers with 400 and {"error": ..., "field": ...}.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "persistence/accounts/accounts.hpp"
#include "src/admin/common/json_reader.hpp"

namespace syncml::server {

class admin_field_error : public std::invalid_argument {
  public:
    admin_field_error(std::string field, const std::string& what)
        : std::invalid_argument(what), field_(std::move(field)) {}
    const std::string& field() const noexcept { return field_; }

  private:
    std::string field_;
};

// The tenant settings as JSON names them (the names of admin_json's tenant objects).
const std::vector<std::string_view>& tenant_setting_members();
// Those of them only a token for all tenants may change: limits, auth modes, session binding, retention.
const std::vector<std::string_view>& operator_setting_members();

// Fails on a member not in `allowed`.
void require_only(const json_value& body, const std::vector<std::string_view>& allowed);

// A required non-empty string member.
std::string required_string(const json_value& body, std::string_view member);

// `base` with the settings the body gives (members of tenant_setting_members(); others are the caller's to allow
// or refuse). Ranges beyond the type are persistence's to check (std::invalid_argument from accounts.hpp).
persistence::tenant_settings settings_from(const json_value& body, persistence::tenant_settings base);

// A device's sync window request: the window_* members (as the tenant's) as CLI options, and `inherit` (a boolean:
// the tenant's window applies again). Fails on any other member.
struct window_body {
    std::vector<std::pair<std::string, std::string>> options;
    bool inherit = false;
};
window_body window_from(const json_value& body);

// The body of PUT .../devices/{device}/push as the options of `admin device push` (device_push_command.hpp):
// phone_number (a string or null), server_password, server_nonce, datastores (an array of names; empty: all),
// quiet_start and quiet_end ("HH:MM", together; null: none), time_zone. Members given change those settings.
std::vector<std::pair<std::string, std::string>> push_options_from(const json_value& body);

}  // namespace syncml::server
