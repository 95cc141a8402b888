#include "auth/login.hpp"

#include <algorithm>
#include <optional>

#include "persistence/accounts/credential_store.hpp"
#include "persistence/accounts/password_hash.hpp"

namespace syncml::auth {
namespace {

// Costs what verifying a real user's hash costs.
const std::string& dummy_password_hash() {
    static const std::string hash = persistence::hash_password("no user has this password");
    return hash;
}

// One password hash within the guard: the client's address pays for it, and it runs in a slot. nullopt: not run (the
// address is over its budget, or every slot is taken and enough logins wait).
std::optional<bool> guarded_verify(const login_context& login, const std::string& password, const std::string& hash) {
    if (!login.guard) return persistence::verify_password(password, hash);
    if (login.guard->budget().wait(login.address).count() > 0) return std::nullopt;
    auto slot = login.guard->slots().take();
    if (!slot) return std::nullopt;
    login.guard->budget().charge(login.address);
    return persistence::verify_password(password, hash);
}

// A password verified afresh (not remembered) against a hash of an older cost, or for a tenant with md5 on and
// no md5 secret stored yet, is stored anew: the only moment the server sees it.
login_verdict password_verdict(const login_context& login, const persistence::stored_credentials& stored,
                               std::int64_t tenant, const basic_credentials& basic) {
    if (login.cache.verified(tenant, basic.user, basic.password, stored.password_hash)) return login_verdict::ok;
    const auto verified = guarded_verify(login, basic.password, stored.password_hash);
    if (!verified) return login_verdict::busy;
    if (!*verified) return login_verdict::wrong_password;
    if (stored.needs_upgrade &&
        persistence::upgrade_credentials(login.db, tenant, basic.user, basic.password, stored, login.md5_key)) {
        return login_verdict::ok;
    }
    login.cache.remember(tenant, basic.user, basic.password, stored.password_hash);
    return login_verdict::ok;
}

}  // namespace

std::optional<login_verdict> refusal_of(const persistence::credential_check& check) {
    if (check.blocked.count() > 0) return login_verdict::blocked;
    if (!check.account) return login_verdict::unknown_user;
    return std::nullopt;
}

login_verdict check_password(const login_context& login, const persistence::credential_check& check,
                             std::int64_t tenant, const basic_credentials& basic) {
    if (check.blocked.count() > 0) return login_verdict::blocked;
    if (!check.account) {
        return guarded_verify(login, basic.password, dummy_password_hash()) ? login_verdict::unknown_user
                                                                            : login_verdict::busy;
    }
    return password_verdict(login, *check.account, tenant, basic);
}

std::chrono::seconds busy_wait(const login_context& login) {
    const auto wait = login.guard ? login.guard->wait(login.address) : std::chrono::seconds(0);
    return std::max(wait, std::chrono::seconds(1));
}

bool record_failure(persistence::auth_throttle& throttle, const persistence::credential_check& check,
                    const login_attempt& attempt) {
    if (check.blocked.count() > 0) return false;
    throttle.record_failure(attempt.tenant, attempt.user, attempt.device, attempt.address);
    return true;
}

void record_success(persistence::auth_throttle& throttle, const persistence::credential_check& check,
                    const login_attempt& attempt, std::int64_t user_id) {
    if (check.failures_on_record) throttle.reset(attempt.tenant, attempt.user, attempt.device, attempt.address);
    if (!check.known_address || check.address_stale) throttle.remember_client(attempt.tenant, user_id, attempt.address);
}

basic_login log_in_basic(persistence::auth_throttle& throttle, const login_context& login, const login_attempt& attempt,
                         const basic_credentials& basic) {
    const auto check = throttle.check(attempt.tenant, attempt.user, attempt.device, attempt.address);
    basic_login result{check_password(login, check, attempt.tenant, basic), check.blocked, 0};
    if (result.verdict == login_verdict::busy) {
        result.blocked = busy_wait(login);
        return result;  // not checked: nothing to count
    }
    if (result.verdict != login_verdict::ok) {
        record_failure(throttle, check, attempt);
        return result;
    }
    result.user_id = check.account->user_id;
    record_success(throttle, check, attempt, result.user_id);
    return result;
}

}  // namespace syncml::auth
