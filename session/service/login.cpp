#include "session/service/login.hpp"

#include "persistence/accounts/credential_store.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::session {
namespace {

// Costs what verifying a real user's hash costs.
const std::string& dummy_password_hash() {
    static const std::string hash = persistence::hash_password("no user has this password");
    return hash;
}

// A password verified afresh (not remembered) against a hash of an older cost, or for a tenant with md5 on and
// no md5 secret stored yet, is stored anew: the only moment the server sees it.
bool basic_password_ok(const persistence::stored_credentials& stored, std::int64_t tenant, const std::string& name,
                       const std::string& password, const login_context& login) {
    if (login.cache.verified(tenant, name, password, stored.password_hash)) return true;
    if (!persistence::verify_password(password, stored.password_hash)) return false;
    if (stored.needs_upgrade &&
        persistence::upgrade_credentials(login.db, tenant, name, password, stored, login.md5_key)) {
        return true;
    }
    login.cache.remember(tenant, name, password, stored.password_hash);
    return true;
}

}  // namespace

std::optional<account_info> find_account(const persistence::credential_check& check,
                                         const persistence::tenant_info& tenant, const sync_hdr& header,
                                         const login_context& login) {
    if (!header.cred) return std::nullopt;
    auto name = credential_user(header);
    if (!name) return std::nullopt;
    const bool md5 = is_md5(*header.cred);
    auto basic = md5 ? std::nullopt : parse_basic(*header.cred);
    if (check.blocked.count() > 0 || !check.account) {
        // A blocked user is refused whatever the password, an unknown one cannot log in: the hash only makes the
        // answer take as long as a real check.
        if (basic) (void)persistence::verify_password(basic->password, dummy_password_hash());
        return account_info{};
    }
    const auto& stored = *check.account;
    account_info acct{stored.user_id, *name, false, {}};
    if (md5) {
        acct.md5_secret = stored.md5_secret;
        acct.password_ok = tenant.settings.auth_md5 && md5_digest_matches(acct.md5_secret, header.cred->data,
                                                                          check.device_nonce, login.stateless_nonces);
    } else if (basic) {
        acct.password_ok =
            basic_password_ok(stored, tenant.id, *name, basic->password, login) && tenant.settings.auth_basic;
    }
    return acct;
}

}  // namespace syncml::session
