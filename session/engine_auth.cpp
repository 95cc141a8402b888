// Authentication of the SyncHdr: basic and md5 with per-device nonces (OMA DS 1.1+ digest).

#include "session/engine_run.hpp"

#include "session/auth.hpp"

namespace syncml::session::detail {
namespace {

// Chal for the auth type we ask for: md5 when the client already speaks it, basic otherwise.
challenge make_challenge(run& r, bool md5) {
    challenge chal;
    meta_info meta;
    meta.format = "b64";
    if (md5) {
        meta.type = "syncml:auth-md5";
        r.device.nonce = r.ctx.make_nonce ? r.ctx.make_nonce() : random_nonce();
        r.store.set_device_nonce(r.tenant(), r.device.id, r.device.nonce);
        meta.next_nonce = base64_encode(r.device.nonce);
    } else {
        meta.type = "syncml:auth-basic";
    }
    chal.meta = meta;
    return chal;
}

bool credentials_match(run& r, const credentials& cred) {
    const auto& acct = r.ctx.account;
    if (!acct || acct->user_id == 0) return false;
    if (!is_md5(cred)) return acct->password_ok;
    if (acct->md5_secret.empty() || r.device.nonce.empty()) return false;
    return constant_time_equal(md5_digest(acct->md5_secret, r.device.nonce), cred.data);
}

}  // namespace

bool check_auth(run& r, status& header_status) {
    const auto& cred = r.in.header.cred;
    // Later messages may repeat Cred with a nonce we have replaced since: the session is what counts.
    if (r.st.authenticated) {
        header_status.data = code_text(200);
        return true;
    }
    if (!cred) {
        header_status.data = code_text(407);
        header_status.chal = make_challenge(r, false);
        return false;
    }
    bool md5 = is_md5(*cred);
    if (!credentials_match(r, *cred)) {
        ++r.st.auth_failures;
        header_status.data = code_text(401);
        header_status.chal = make_challenge(r, md5);
        return false;
    }
    r.st.authenticated = true;
    r.st.user_id = r.ctx.account->user_id;
    r.st.user_name = r.ctx.account->name;
    header_status.data = code_text(212);
    // A fresh nonce after every use, so a captured digest cannot be replayed.
    if (md5) header_status.chal = make_challenge(r, true);
    return true;
}

}  // namespace syncml::session::detail
