#pragma once
// The tenant settings an admin gives as options of `admin tenant add NAME` and `admin tenant set NAME`, their
// parsing and how `tenant list` and `tenant set` print them.

#include <string>
#include <vector>

#include "persistence/accounts/accounts.hpp"

namespace syncml::server {

// --conflict-policy, --session-binding, --auth-basic, --auth-md5, --max-sessions, --max-devices-per-user,
// --max-items-per-datastore, --max-message-bytes, --max-object-bytes, --max-user-bytes (0: no quota), --push,
// --push-daily-budget (0: no budget),
// --tombstone-retention-days, and the tenant's
// sync window (issue 18; 0: no limit): --window-past-days, --window-future-days, --window-max-items,
// --window-max-photo-bytes.
const std::vector<const char*>& tenant_option_names();

// The usage text of the options, one "[--option VALUES]" per line, indented by `indent`.
std::string tenant_options_usage(const std::string& indent);

// Sets the option's setting from its text; std::invalid_argument naming the option and what it expects.
// Range checks beyond the type (positive, at least 1024 bytes) are persistence's (accounts.cpp).
void apply_tenant_option(persistence::tenant_settings& settings, const std::string& option, const std::string& value);

// The sync window options (also those of `admin device window`), and one of them applied to `window`;
// std::invalid_argument as apply_tenant_option.
const std::vector<const char*>& window_option_names();
bool is_window_option(const std::string& option);
void apply_window_option(persistence::sync_window& window, const std::string& option, const std::string& value);

// "conflict=merge session-binding=token-or-address auth-basic=on ..." with `separator` between the fields.
std::string describe_tenant_settings(const persistence::tenant_settings& settings, const std::string& separator);

}  // namespace syncml::server
