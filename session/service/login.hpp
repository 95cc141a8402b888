#pragma once
// What the credentials of a message prove, decided before its transaction (password hashing holds no lock): the
// account they name and whether they are valid for the tenant's auth modes. Every path costs about the same: an
// unknown user, a blocked one and a wrong password each run one password hash, so the answer's timing tells
// nothing about which users exist.

#include <optional>
#include <string>
#include <vector>

#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/auth_throttle.hpp"
#include "session/engine/engine.hpp"
#include "session/protocol/message.hpp"
#include "session/service/credential_cache.hpp"

namespace syncml::persistence {
class database;
class secret_key;
}  // namespace syncml::persistence

namespace syncml::session {

struct login_context {
    persistence::database& db;               // where a verified password of an older hash cost is stored anew
    const persistence::secret_key* md5_key;  // seals the md5 secret stored then (nullptr: none)
    credential_cache& cache;
    std::vector<std::string> stateless_nonces;  // see engine_context
};

// nullopt when the message has no credentials (or names no user); an account_info with user_id 0 for an unknown
// or blocked user. password_ok means valid: basic with the right password, or md5 with the digest of the device's
// stored nonce (check.device_nonce) or, for a device without one, of one of `stateless_nonces`, and the auth type
// is on for the tenant. A basic password verified a moment ago is not hashed again (cache).
std::optional<account_info> find_account(const persistence::credential_check& check,
                                         const persistence::tenant_info& tenant, const sync_hdr& header,
                                         const login_context& login);

}  // namespace syncml::session
