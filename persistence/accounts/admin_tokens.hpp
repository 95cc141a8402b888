#pragma once
// Bearer tokens of the HTTP admin API (migrations/0017_admin_api.sql), created and listed by `admin token`. A token
// is 32 random bytes shown once at creation; only its SHA-256 is stored.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::persistence {

class database;

struct admin_token_info {
    std::string name;
    std::optional<std::string> tenant;  // the only tenant the token may see; empty: all tenants
    std::string created_at;             // ISO 8601 UTC
    std::optional<std::string> last_used_at;
};

// Creates a token named `name` (the rule of tenant names) for one tenant or, with no tenant, for all; returns the
// token text. already_exists for a taken name, not_found for an unknown tenant, std::invalid_argument for a
// malformed name.
std::string create_admin_token(database& db, std::string_view name, std::optional<std::string_view> tenant);
std::vector<admin_token_info> list_admin_tokens(database& db);
// not_found when there is no such token.
void delete_admin_token(database& db, std::string_view name);
// The token that `token` is, nullopt for an unknown or malformed one. Notes when it was used (at most once a
// minute, so a busy script does not write on every request).
std::optional<admin_token_info> verify_admin_token(database& db, std::string_view token);

}  // namespace syncml::persistence
