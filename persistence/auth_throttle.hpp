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

namespace syncml::persistence {

class database;

struct throttle_settings {
    int max_failures = 10;
    std::chrono::seconds window{300};
};

struct stored_credentials {
    std::int64_t user_id = 0;
    std::string password_hash;  // "pbkdf2-sha256$..." as accounts stores it
    std::string md5_secret;     // b64(md5(user ":" password))
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
    database& db_;
    throttle_settings settings_;
};

// The user's id and stored secrets; nullopt for an unknown user. Throws db_error.
std::optional<stored_credentials> find_stored_credentials(database& db, std::int64_t tenant, const std::string& user);

}  // namespace syncml::persistence
