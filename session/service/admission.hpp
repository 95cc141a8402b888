#pragma once
// Which session a message may continue: one value, decided once per message before its transaction from the
// message's RespURI token, what its credentials proved and the tenant's session binding. The row-level rule (expiry,
// idle window, another user's session of the device, credentials changed since the session authenticated) has one
// copy, the database's: syncml_open_session (migrations/0027). An admission says which of its ways the message may
// take; message_session_of() turns it into that function's arguments.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/auth_throttle.hpp"
#include "persistence/sync/sync_store.hpp"
#include "session/engine/engine.hpp"
#include "session/protocol/message.hpp"
#include "session/service/session_token.hpp"

namespace syncml::session {

struct admission {
    // A valid RespURI token: the session it names, of the user it names (with valid credentials, theirs only).
    std::optional<session_token> token{};
    // Valid credentials: this user's session of the device and SessionID, started when there is none; 0: none.
    std::int64_t verified_user = 0;
    // May continue a session authenticated from the client's address (tenant binding token-or-address) within the
    // idle window. Never for credentials that name a user the tenant does not have.
    bool by_address = false;
    // The user whose sessions alone an address continuation may reach; 0: any (one database). Credentials that did
    // not verify name it; without credentials, on a distributed schema, the recorded session starts do.
    std::int64_t route_user = 0;
    bool operator==(const admission&) const = default;
};

// What admit() decides from.
struct admission_input {
    const sync_hdr& header;
    std::optional<session_token> token;          // a valid RespURI token
    const std::optional<account_info>& account;  // find_account's answer (login.hpp)
    const persistence::credential_check& check;  // the throttle's, with the account the credentials name
    persistence::session_binding binding = persistence::session_binding::token;
    // The user the session starts of the device name (distributed schema); asked only for a message without token
    // and without credentials that name a user. Empty: nobody.
    std::function<std::int64_t()> route_of;
};

admission admit(const admission_input& input);

// The limits an admitted message opens its session under.
struct admission_limits {
    std::chrono::seconds address_idle{0};  // the server's session_address_idle
    std::chrono::seconds max_age{0};       // the server's session_max_age
    int max_devices = 0;                   // the tenant's, per user
    int max_sessions = 0;                  // the tenant's live sessions
};

// The arguments of sync_store::open_message_session for an admitted message from `address`.
persistence::message_session message_session_of(const admission& admitted, const sync_hdr& header,
                                                const std::string& address, const admission_limits& limits);

}  // namespace syncml::session
