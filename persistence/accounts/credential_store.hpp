#pragma once
// The stored secrets of a user beyond what accounts.hpp creates: the upgrade a basic-auth login makes (a hash of
// today's cost, the md5 secret a tenant that turned md5 on still lacks) and the server key's start-up check.
//
// Every function here and in accounts.hpp / auth_throttle.hpp takes the md5 key as a pointer: the configured
// server key, or null for the database's own key (server_secrets, created on first use) when none is configured:
// that one keeps the secrets unreadable in a dump of the users table alone, not in a dump of the whole database.
//
// The md5 secret exists only for tenants with md5 auth on, sealed with the server key (secret_key.hpp), bound to
// tenant and user name. A tenant that turns md5 on later has no secret for its users until each logs in once
// with basic auth (the server only then sees the password) or an admin sets the password; turning md5 off
// drops the secrets (update_tenant).

#include <cstdint>
#include <optional>
#include <string>

#include "persistence/accounts/auth_throttle.hpp"
#include "persistence/accounts/secret_key.hpp"

namespace syncml::persistence {

class database;

// After a basic-auth login verified `password` against `verified.password_hash` (when verified.needs_upgrade):
// stores a new hash when that one has an older scheme or a lower cost, and the sealed md5 secret when the tenant
// allows md5 and verified.md5_secret is empty (none stored, or it does not open with the key). Writes nothing when
// the stored hash is no longer verified.password_hash (the password changed meanwhile). Leaves
// credentials_changed_at alone: the password is the same. Returns whether it stored anything. Throws db_error.
// Hashing runs before the statement, outside any lock.
bool upgrade_credentials(database& db, std::int64_t tenant_id, const std::string& user, const std::string& password,
                         const stored_credentials& verified, const secret_key* md5_key = nullptr);

struct key_preparation {
    int sealed = 0;    // plaintext md5 secrets of databases before migration 0011 now sealed with the key
    int dropped = 0;   // plaintext md5 secrets of tenants with md5 off, dropped
    int resealed = 0;  // secrets moved from the database's own key to a key configured since
};

// Once at start-up (server, admin) with the key it will use (null: the database's own): records the key's
// fingerprint in server_secrets. When secrets were sealed under another fingerprint, moves them to this key if
// that other key was the database's own (then deleted, so the database no longer holds a key), else throws
// std::runtime_error (every instance of one database needs the same key). Then seals the plaintext secrets that
// migration 0011 left. Throws db_error.
key_preparation prepare_secret_key(database& db, const secret_key* key);

// What a database says about the key of its md5 secrets, for restore (src/app/backup_key.hpp): whether the key a
// server would start with is the one prepare_secret_key will accept.
struct secret_key_record {
    std::optional<std::string> fingerprint;           // of the key the secrets are sealed with (the last prepared)
    std::optional<std::string> database_fingerprint;  // of the database's own key, when it holds one
    std::int64_t sealed = 0;                          // users with a sealed md5 secret

    // Whether prepare_secret_key(key) would accept `key` (null: the database's own): nothing is sealed, or it is
    // the recorded key, or the recorded key is the database's own (the secrets move to `key`).
    bool accepts(const secret_key* key) const;
};

// Throws db_error.
secret_key_record read_secret_key_record(database& db);

}  // namespace syncml::persistence
