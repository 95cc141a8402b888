#pragma once
// A tenant's users: their accounts, passwords and the secrets SyncML auth checks. Every function runs one
// transaction on the given connection. Errors: not_found when the named tenant or user does not exist,
// already_exists for a duplicate name, std::invalid_argument for a malformed name or password, db_error for
// database failures.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "persistence/accounts/secret_key.hpp"

namespace syncml::persistence {

class database;

struct user_info {
    std::int64_t tenant_id = 0;
    std::int64_t id = 0;
    std::string name;
    bool disabled = false;
};

// Creates the user with its four standard datastores (contacts, calendar, tasks, memos). The md5 secret is stored
// only when the tenant has md5 auth on, sealed with md5_key (null: the database's own key; credential_store.hpp).
user_info add_user(database& db, std::string_view tenant, std::string_view user, std::string_view password,
                   const secret_key* md5_key = nullptr);
// add_user with a password hash in the stored form (is_password_hash, e.g. from a bulk import): no md5 secret, so
// md5 logins work after the user's first basic-auth login. std::invalid_argument for a malformed hash.
user_info add_user_with_hash(database& db, std::string_view tenant, std::string_view user,
                             std::string_view password_hash);
std::vector<user_info> list_users(database& db, std::string_view tenant);
std::optional<user_info> find_user(database& db, std::string_view tenant, std::string_view user);
// Deletes the user with its datastores, items and devices.
void delete_user(database& db, std::string_view tenant, std::string_view user);
// A disabled user cannot log in (it looks like an unknown user) and its sessions end; enabling lets it log in
// again with its password. not_found for an unknown tenant or user.
void set_user_disabled(database& db, std::string_view tenant, std::string_view user, bool disabled);
// New hash and md5 secret (as add_user stores it); sets credentials_changed_at, which ends the user's sessions.
void set_password(database& db, std::string_view tenant, std::string_view user, std::string_view password,
                  const secret_key* md5_key = nullptr);

// b64(md5(user ":" password)) as SyncML md5 auth needs it, opened with md5_key (null: the database's own key);
// nullopt for an unknown tenant or user, a tenant with md5 off, a user without a secret, or one that does not open.
std::optional<std::string> md5_secret(database& db, std::string_view tenant, std::string_view user,
                                      const secret_key* md5_key = nullptr);

}  // namespace syncml::persistence
