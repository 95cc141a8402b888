// Authentication of the SyncHdr: basic and md5 with per-device nonces (OMA DS 1.1+ digest).
//
// A failed or missing login changes nothing: the caller rolls its transaction back. So a challenge announces a
// nonce that stays valid without being stored: the device's current one, or for a device without one a nonce
// derived from the server secret and the time (engine_context::stateless_nonces). Only a successful md5 login
// stores a fresh nonce, so a stranger can never rotate a real device's nonce away.

#include "session/engine/engine_run.hpp"
#include "session/protocol/sync_mode.hpp"

#include "common/crypto/base64.hpp"
#include "common/crypto/secrets.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::session::detail {
namespace {

// The nonce a device must use for its next md5 digest, as long as nothing changes.
std::string current_nonce(const run& r) {
    if (!r.device.nonce.empty()) return r.device.nonce;
    if (!r.ctx.stateless_nonces.empty()) return r.ctx.stateless_nonces.front();
    return {};
}

// Chal for the auth type we ask for: md5 when the client already speaks it (or basic is off), basic otherwise. Never
// md5 to a SyncML 1.0 client while basic is allowed: its digest, MD5(user:password:nonce), needs the password in
// clear, which the server never keeps (it keeps the 1.1 secret MD5(user:password)).
challenge make_challenge(run& r, bool md5) {
    if (md5 && (!r.ctx.allow_md5 || r.in.version == syncml_version::v1_0)) md5 = false;
    if (!md5 && !r.ctx.allow_basic) md5 = true;
    challenge chal;
    meta_info meta;
    meta.format = "b64";
    if (md5) {
        meta.type = "syncml:auth-md5";
        meta.next_nonce = common::base64_encode(current_nonce(r));
    } else {
        meta.type = "syncml:auth-basic";
    }
    chal.meta = meta;
    return chal;
}

bool credentials_match(run& r, const credentials& cred) {
    const auto& acct = r.ctx.account;
    if (!acct || acct->user_id == 0) return false;
    if (!is_md5(cred)) return r.ctx.allow_basic && acct->password_ok;
    return r.ctx.allow_md5 && md5_digest_matches(acct->md5_secret, cred.data, r.device.nonce, r.ctx.stateless_nonces);
}

}  // namespace

bool check_auth(run& r, status& header_status) {
    const auto& cred = r.in.header.cred;
    // Later messages may repeat Cred with a nonce we have replaced since: the session is what counts. The caller
    // hands an authenticated state only to a message that may continue the session (token, address or
    // credentials; see sync_service).
    if (r.st.authenticated) {
        header_status.data = code_text(status_codes::ok);
        return true;
    }
    if (!cred) {
        header_status.data = code_text(status_codes::missing_credentials);
        header_status.chal = make_challenge(r, false);
        return false;
    }
    bool md5 = is_md5(*cred);
    if (!credentials_match(r, *cred)) {
        ++r.st.auth_failures;
        header_status.data = code_text(status_codes::invalid_credentials);
        header_status.chal = make_challenge(r, md5);
        return false;
    }
    r.st.authenticated = true;
    r.st.user_id = r.ctx.account->user_id;
    r.st.user_name = r.ctx.account->name;
    header_status.data = code_text(status_codes::authenticated);
    // A fresh nonce after every use, so a captured digest cannot be replayed.
    if (md5) {
        r.device.nonce = r.ctx.make_nonce ? r.ctx.make_nonce() : common::random_nonce();
        r.store.set_device_nonce(r.tenant(), r.device.id, r.device.nonce);
        header_status.chal = make_challenge(r, true);
    }
    return true;
}

}  // namespace syncml::session::detail
