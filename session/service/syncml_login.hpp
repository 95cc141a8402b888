#pragma once
// What the credentials of a message prove, decided before its transaction (password hashing holds no lock): the
// account they name and whether they are valid for the tenant's auth modes. The SyncML side of the one login
// (auth/login.hpp): a Cred element onto it, and the md5 digest over the device's nonces, which the engine checks
// the same way.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "auth/login.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/auth_throttle.hpp"
#include "session/engine/engine.hpp"
#include "session/protocol/message.hpp"

namespace syncml::session {

struct login_context {
    auth::login_context login;
    std::vector<std::string> stateless_nonces;  // see engine_context
};

struct found_account {
    // nullopt when the message has no credentials (or names no user); an account_info with user_id 0 for an unknown
    // or blocked user. password_ok means valid: basic with the right password, or md5 with the digest of the device's
    // stored nonce (check.device_nonce) or, for a device without one, of one of `stateless_nonces`, and the auth type
    // is on for the tenant.
    std::optional<account_info> account;
    // A basic password that was not checked (auth::login_verdict::busy): the client comes back after `wait`.
    bool busy = false;
    std::chrono::seconds wait{0};
};

found_account find_account(const persistence::credential_check& check, const persistence::tenant_info& tenant,
                           const sync_hdr& header, const login_context& login);

}  // namespace syncml::session
