#pragma once
// Rate limit of failed authentications, shared by every server instance (table auth_failures). Counted per user and
// client address and per device id (after max_failures failures within one window, further attempts are refused
// whatever the password until the window has passed), and user-wide: per user and per user with one device id, where
// the block doubles with each failure beyond max_failures (up to backoff_cap) and the count is forgotten only after
// backoff_cap without a failure, so rotating addresses buys an attacker a handful of guesses a day. A successful
// authentication resets the counters of its device id and of its address, never a user-wide one.
// Addresses count by client group (an IPv4 address, an IPv6 /64: common::client_group).
// Failures of strangers never lock a user out of an address she logged in from within 30 days, nor a device she
// authenticated before out of any address unless they name that device's id (see check).
// Also the stored basic-auth password hash, which an in-process credential cache compares to notice a
// changed password.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "persistence/accounts/secret_key.hpp"

namespace syncml::persistence {

class database;

struct throttle_settings {
    int max_failures = 10;
    std::chrono::seconds window{300};
    // The configured server key of the sealed md5 secrets; none: the database's own (see credential_store.hpp).
    std::optional<secret_key> md5_key{};
    // The longest block of a user-wide counter, and how long it remembers a failure.
    std::chrono::seconds backoff_cap{86400};
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
    std::chrono::seconds blocked{0};            // zero: the credentials may be checked
    bool failures_on_record = false;            // the user at this address or the device has failures a success resets
    std::optional<stored_credentials> account;  // nullopt for an unknown user
    // The user's device of the message: whether it exists (it authenticated before) and its md5 nonce.
    bool known_device = false;
    std::string device_nonce;
    // The user logged in from this address (client group) within 30 days (remember_client), so only failures from
    // this address block; `address_stale`: the last such login is over a day old.
    bool known_address = false;
    bool address_stale = false;
};

class auth_throttle {
  public:
    virtual ~auth_throttle() = default;
    // A failed login of `user` from `device` at client `address` (empty ones are not counted).
    virtual void record_failure(std::int64_t tenant, const std::string& user, const std::string& device,
                                const std::string& address) = 0;
    // A successful login from `address`: from now on failures elsewhere do not block the user there (check's
    // known_address). Call it when check said the address is not known, or known but stale.
    virtual void remember_client(std::int64_t tenant, std::int64_t user_id, const std::string& address) = 0;
    // A successful login: forgets the failures of the device and of the user at that address; the user's failures
    // elsewhere stay until their window passes.
    virtual void reset(std::int64_t tenant, const std::string& user, const std::string& device,
                       const std::string& address) = 0;
    // How long the credentials must not be checked (`blocked`), whether there is anything to reset, the user's
    // stored credentials and device row, at once. Blocked: max_failures within the window of the user at that
    // address; at an address the user has not logged in from, the user-wide backoff of the user with this device id,
    // and for a device the user never authenticated from also the user's and the device id's.
    virtual credential_check check(std::int64_t tenant, const std::string& user, const std::string& device,
                                   const std::string& address) = 0;
};

// The PostgreSQL throttle on db's connection; each call is one short transaction. Throws db_error.
class pg_auth_throttle final : public auth_throttle {
  public:
    pg_auth_throttle(database& db, throttle_settings settings) : db_(db), settings_(settings) {}
    void record_failure(std::int64_t tenant, const std::string& user, const std::string& device,
                        const std::string& address) override;
    void reset(std::int64_t tenant, const std::string& user, const std::string& device,
               const std::string& address) override;
    void remember_client(std::int64_t tenant, std::int64_t user_id, const std::string& address) override;
    // Autocommit statements: one for the user's rows, and with a device id one for its failure counter (another
    // shard on a distributed database).
    credential_check check(std::int64_t tenant, const std::string& user, const std::string& device,
                           const std::string& address) override;

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
