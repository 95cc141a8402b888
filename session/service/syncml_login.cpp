#include "session/service/syncml_login.hpp"

#include "session/protocol/auth.hpp"

namespace syncml::session {

found_account find_account(const persistence::credential_check& check, const persistence::tenant_info& tenant,
                           const sync_hdr& header, const login_context& login) {
    if (!header.cred) return {};
    auto name = credential_user(header);
    if (!name) return {};
    const bool md5 = is_md5(*header.cred);
    auto basic = md5 ? std::nullopt : parse_basic(*header.cred);
    // Only a basic password is hashed for a blocked or unknown user: md5 and unreadable credentials hash nothing.
    const auto verdict = basic ? auth::check_password(login.login, check, tenant.id, *basic) : auth::refusal_of(check);
    if (verdict == auth::login_verdict::busy)
        return {.account = std::nullopt, .busy = true, .wait = auth::busy_wait(login.login)};
    if (verdict == auth::login_verdict::blocked || verdict == auth::login_verdict::unknown_user) {
        return {.account = account_info{}};
    }
    account_info acct{check.account->user_id, *name, false, {}};
    if (md5) {
        acct.md5_secret = check.account->md5_secret;
        acct.password_ok = tenant.settings.auth_md5 && md5_digest_matches(acct.md5_secret, header.cred->data,
                                                                          check.device_nonce, login.stateless_nonces);
    } else if (basic) {
        acct.password_ok = verdict == auth::login_verdict::ok && tenant.settings.auth_basic;
    }
    return {.account = std::move(acct)};
}

}  // namespace syncml::session
