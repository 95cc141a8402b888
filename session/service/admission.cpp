#include "session/service/admission.hpp"

#include "session/protocol/auth.hpp"

namespace syncml::session {

admission admit(const admission_input& input) {
    admission a;
    a.token = input.token;
    a.verified_user = input.account && input.account->password_ok ? input.account->user_id : 0;
    // Credentials that did not verify (wrong, stale or blocked) still say whose phone sends: such a message may go on
    // only in a session of that user (as its owner), never in another user's by address; naming an unknown user, in
    // none by address. Credentials that name nobody (md5 without LocName) count as none.
    const bool names_user = input.header.cred && credential_user(input.header);
    const std::int64_t claimed =
        names_user && a.verified_user == 0 && input.check.account ? input.check.account->user_id : 0;
    a.by_address = (!names_user || a.verified_user != 0 || claimed != 0) &&
                   input.binding == persistence::session_binding::token_or_address;
    if (a.verified_user != 0) return a;
    if (names_user) {
        a.route_user = claimed;
    } else if (!a.token && input.route_of) {
        a.route_user = input.route_of();
    }
    return a;
}

persistence::message_session message_session_of(const admission& admitted, const sync_hdr& header,
                                                const std::string& address, const admission_limits& limits) {
    persistence::message_session m;
    m.device_uri = header.source.loc_uri;
    m.session_id = header.session_id;
    if (admitted.token) {
        m.key = admitted.token->key;
        m.key_user = admitted.token->user;
    }
    m.route_user = admitted.route_user;
    m.msg_id = header.msg_id;
    m.user = admitted.verified_user;
    m.address = address;
    if (admitted.by_address) m.address_idle = limits.address_idle;
    m.max_age = limits.max_age;
    m.max_devices = limits.max_devices;
    m.max_sessions = limits.max_sessions;
    return m;
}

}  // namespace syncml::session
