#pragma once
// The one login of both front ends: SyncML (basic and md5 Cred) and CardDAV/CalDAV (HTTP basic). The auth throttle
// (persistence/accounts/auth_throttle.hpp) is asked first; a blocked user is refused without a hash (the block says
// nothing about the password, and a hash is what a flood wants to cost us); an unknown user is refused after a hash
// that costs what a real check costs (the answer's timing tells nothing about who exists); a basic password is checked
// against the stored hash, or found in the credential cache, and a hash of an older cost is stored anew. Every hash
// runs within the login guard (auth/login_guard.hpp): the client's address pays for it and it waits for a slot, or
// the login is not checked and the client comes back later. A new auth rule goes here, for every front end.
//
// SyncML decides some throttle effects after its engine ran (whose session a message continued), so the accounting
// is in pieces it calls then; a client without a device id (DAV) takes the whole login at once (log_in_basic).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "auth/credential_cache.hpp"
#include "auth/credentials/basic_credentials.hpp"
#include "auth/login_guard.hpp"
#include "persistence/accounts/auth_throttle.hpp"

namespace syncml::persistence {
class database;
}  // namespace syncml::persistence

namespace syncml::auth {

struct login_context {
    persistence::database& db;               // where a verified password of an older hash cost is stored anew
    const persistence::secret_key* md5_key;  // seals the md5 secret stored then (nullptr: the database's own)
    credential_cache& cache;
    login_guard* guard = nullptr;  // null: hashes are not bounded (tests, admin commands)
    std::string address{};         // the client's, which pays for the hashes
};

// Whom the throttle counts a login for: the tenant, the user the credentials name, the device id (empty for DAV)
// and the client's address.
struct login_attempt {
    std::int64_t tenant = 0;
    std::string user;
    std::string device;
    std::string address;
};

enum class login_verdict {
    blocked,         // too many failures: not checked at all
    unknown_user,    // no such user
    wrong_password,  // or a malformed stored hash
    busy,            // not checked: the client's address is over its budget, or too many hashes wait already
    ok,
};

// blocked or unknown_user when the throttle's check rules the credentials out before any secret is looked at.
std::optional<login_verdict> refusal_of(const persistence::credential_check& check);

// A basic password against the account `check` found, whatever the tenant allows (the caller decides that). Each
// verdict costs one password hash, except blocked and busy, and a password verified a moment ago (cache).
login_verdict check_password(const login_context& login, const persistence::credential_check& check,
                             std::int64_t tenant, const basic_credentials& basic);

// A failed login counts against the attempt, unless the check blocked it (it was then never checked). Returns
// whether it counted.
bool record_failure(persistence::auth_throttle& throttle, const persistence::credential_check& check,
                    const login_attempt& attempt);
// A verified login of `user_id` forgets the failures the check found on record and remembers the address, so that
// strangers' failures elsewhere do not lock the user out there.
void record_success(persistence::auth_throttle& throttle, const persistence::credential_check& check,
                    const login_attempt& attempt, std::int64_t user_id);

struct basic_login {
    login_verdict verdict = login_verdict::unknown_user;
    std::chrono::seconds blocked{0};  // how long a blocked or busy client must wait
    std::int64_t user_id = 0;         // of a verified login
};

// How long a client whose login was busy should wait: its address's wait, at least a second.
std::chrono::seconds busy_wait(const login_context& login);

// The whole login of a client without a device id (attempt.device empty): check, password, accounting.
basic_login log_in_basic(persistence::auth_throttle& throttle, const login_context& login, const login_attempt& attempt,
                         const basic_credentials& basic);

}  // namespace syncml::auth
