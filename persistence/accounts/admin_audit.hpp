#pragma once
// The audit log of admin actions (migrations/0017_admin_api.sql): every change made through the admin API or the
// admin CLI, and every API request a token was refused for, with who, what, on what, when and how it ended.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::persistence {

class database;

struct audit_entry {
    std::string actor;   // "token:NAME" or "cli"
    std::string action;  // e.g. "user.create", "tenant.delete"
    std::string tenant;  // empty: none (e.g. tenant.list)
    std::string target;  // the user, device, session or token acted on; empty: the tenant itself
    std::string result;  // "ok", "not found", "exists", "invalid", "failed"
};

struct audit_record {
    std::int64_t id = 0;
    std::string at;  // ISO 8601 UTC
    audit_entry entry;
};

// Appends one entry in a transaction of its own, so it stays when the action failed.
void record_audit(database& db, const audit_entry& entry);

// The newest entries first, at most `limit`; only the tenant's when `tenant` is not empty.
std::vector<audit_record> list_audit(database& db, std::string_view tenant, int limit);

}  // namespace syncml::persistence
