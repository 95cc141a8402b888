#pragma once
// What a message's outcome means for the auth throttle: a failed login counted, a throttled one answered with the
// rest of its block, a verified one in the user's own session clearing the failures on record.

#include <cstdint>

#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/auth_throttle.hpp"
#include "session/protocol/message.hpp"
#include "session/service/message_transaction.hpp"
#include "session/service/sync_handler.hpp"

namespace syncml::session {

// What the login decided before the transaction.
struct login_outcome {
    const persistence::credential_check& check;
    std::int64_t cred_user = 0;  // the account the Cred names (0: none or unknown)
    bool cred_verified = false;  // the Cred proved it
};

// Only for a message with Cred; may add Retry-After to `report`'s reply.
void settle_throttle(persistence::auth_throttle& throttle, const persistence::tenant_info& tenant, const message& in,
                     const sync_request& request, const login_outcome& login, message_report& report);

}  // namespace syncml::session
