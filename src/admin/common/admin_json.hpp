#pragma once
// `--json` output of the admin list and show commands: one JSON array (list) or object (show) per command, for
// scripts.

#include <string>
#include <vector>

#include "persistence/accounts/account_details.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/admin_audit.hpp"
#include "persistence/accounts/admin_sessions.hpp"
#include "persistence/accounts/admin_tokens.hpp"
#include "persistence/push/push_settings.hpp"
#include "persistence/sync/device_collections.hpp"

namespace syncml::server {

std::string tenants_json(const std::vector<persistence::tenant_info>& tenants);
std::string users_json(const std::vector<persistence::user_info>& users);
std::string devices_json(const std::vector<persistence::device_info>& devices);
std::string tenant_json(const persistence::tenant_details& details);
std::string user_json(const persistence::user_details& details);
// With its push settings and last notification (null: not opted in).
std::string device_json(const persistence::device_details& details,
                        const std::optional<persistence::push_status>& push = std::nullopt);
// A device's push settings and notification as an object (the server password only as set or not), or null.
std::string push_status_json(const std::optional<persistence::push_status>& status);
// {"device": ..., "push": push_status_json} and a line end: `device push --json` and the API's .../push.
std::string device_push_json(const std::string& device, const std::optional<persistence::push_status>& status);
// The sync window in effect for a device: its own (`own`) or its tenant's.
std::string device_window_json(const std::string& device, bool own, const persistence::sync_window& window);
// {"device": ..., "collections": [{"datastore", "collection", "chosen", "deleted"}, ...]} and a line end: the
// collection each of a device's datastores syncs (`device collection --json`, the API's .../collections).
std::string device_collections_json(const std::string& device,
                                    const std::vector<persistence::device_collection>& collections);
std::string sessions_json(const std::vector<persistence::session_info>& sessions);
std::string tokens_json(const std::vector<persistence::admin_token_info>& tokens);
std::string audit_json(const std::vector<persistence::audit_record>& records);

}  // namespace syncml::server
