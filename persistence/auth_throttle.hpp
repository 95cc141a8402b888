#pragma once
// Rate limit of failed authentications per user and per device, shared by every server instance (table
// auth_failures): after max_failures failures within one window, further attempts are refused without
// checking the password until the window has passed; a successful authentication resets both counters.
// Also the stored basic-auth password hash, which an in-process credential cache compares to notice a
// changed password.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "persistence/secret_key.hpp"

namespace syncml::persistence {

class database;

struct throttle_settings {
    int max_failures = 10;
    std::chrono::seconds window{300};
    // The configured server key of the sealed md5 secrets; none: the database's own (see credential_store.hpp).
    std::optional<secret_key> md5_key{};
};

// The key argument of the persistence functions that goes with these settings.
inline const secret_key* md5_key_of(const throttle_settings& settings) {
    return settings.md5_key ? &*settings.md5_key : nullptr;
}

struct stored_credentials {
    std::int64_t user_id = 0;
    std::string password_hash;  // "pbkdf2-sha256$..." as accounts stores it
    std::string md5_secret;     // b64(md5(user ":" password)); empty unless the tenant allows md5 and one is stored
    // The hash has an older scheme or cost, or the tenant allows md5 and no md5 secret is stored that opens: after
    // a verified basic-auth login, call upgrade_credentials (credential_store.hpp) with the password.
    bool needs_upgrade = false;
};

// What a message's credentials find: the throttle's verdict and the named account.
struct credential_check {
    std::chrono::seconds blocked{0};  // as blocked_for
    bool failures_on_record = false;  // the user or the device has failures recorded: a success must reset them
    std::optional<stored_credentials> account;  // nullopt for an unknown user
};

class auth_throttle {
  public:
    virtual ~auth_throttle() = default;
    // How long the user or the device must wait before its credentials are checked again; zero when
    // neither is blocked. An empty user or device is not looked up.
    virtual std::chrono::seconds blocked_for(std::int64_t tenant, const std::string& user,
                                             const std::string& device) = 0;
    virtual void record_failure(std::int64_t tenant, const std::string& user, const std::string& device) = 0;
    virtual void reset(std::int64_t tenant, const std::string& user, const std::string& device) = 0;
    // blocked_for, whether there is anything to reset, and the user's stored credentials at once.
    virtual credential_check check(std::int64_t tenant, const std::string& user, const std::string& device) = 0;
};

// The PostgreSQL throttle on db's connection; each call is one short transaction. Throws db_error.
class pg_auth_throttle final : public auth_throttle {
  public:
    pg_auth_throttle(database& db, throttle_settings settings) : db_(db), settings_(settings) {}
    std::chrono::seconds blocked_for(std::int64_t tenant, const std::string& user, const std::string& device) override;
    void record_failure(std::int64_t tenant, const std::string& user, const std::string& device) override;
    void reset(std::int64_t tenant, const std::string& user, const std::string& device) override;
    // One autocommit statement.
    credential_check check(std::int64_t tenant, const std::string& user, const std::string& device) override;

  private:
    const secret_key* key() const { return md5_key_of(settings_); }

    database& db_;
    throttle_settings settings_;
};

// The user's id and stored secrets (the md5 secret opened with md5_key, null: the database's own key); nullopt for
// an unknown user. Throws db_error.
std::optional<stored_credentials> find_stored_credentials(database& db, std::int64_t tenant, const std::string& user,
                                                          const secret_key* md5_key = nullptr);

}  // namespace syncml::persistence
