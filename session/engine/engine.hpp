#pragma once
// The server side of the SyncML protocol as a sans-I/O state machine: (state, incoming message) ->
// (new state, reply, store calls). It never touches the network or keeps anything between calls; the
// caller (sync_service) finds and locks the session, runs one transaction and stores the result.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "persistence/sync/sync_store.hpp"
#include "session/engine/state.hpp"
#include "session/protocol/message.hpp"

namespace syncml::session {

// What the account lookup before the transaction found for the credentials of this message.
struct account_info {
    std::int64_t user_id = 0;
    std::string name;
    bool password_ok = false;  // basic auth: the password in Cred matched
    std::string md5_secret;    // b64(md5(user:password)), empty when the account has none
};

class engine_metrics;

struct engine_context {
    std::int64_t tenant_id = 0;
    engine_metrics* metrics = nullptr;    // counts the conflicts and limit refusals decided here; null: not counted
    std::string resp_uri;                 // where the client should post the rest of the session; empty: none
    std::optional<account_info> account;  // for the user named in Cred (basic) or SyncHdr Source LocName (md5)
    std::int64_t now_ms = 0;
    std::function<std::string()> make_nonce;  // fresh random nonce after a successful md5 authentication
    // Nonces a device without a stored one may answer an md5 challenge with (derived from the server secret and
    // the time, so that a failed login needs no write); the first one is announced.
    std::vector<std::string> stateless_nonces;
    bool allow_basic = true;  // the tenant's auth modes
    bool allow_md5 = true;
    std::int64_t max_msg_size = 1024 * 1024;  // our own limit, announced in the reply header
    // The largest item we accept (413 beyond), the items a datastore may hold (a new one beyond: 420; 0: no limit) and
    // the bytes of the user's items (a write that grows them beyond: 420; 0: no quota).
    std::int64_t max_obj_size = 16 * 1024 * 1024;
    std::int64_t max_items_per_datastore = 100000;
    std::int64_t max_user_bytes = 0;
};

struct engine_outcome {
    message reply;
    bool session_done = false;  // the sync completed (anchors stored); the session can be dropped
    bool auth_failed = false;
};

// Handles one incoming message of an existing (possibly fresh) session. `device` is the device of the
// SyncHdr Source; its nonce and DevInf may be updated through `store`.
engine_outcome process_message(const message& in, session_state& state, persistence::device_record& device,
                               const engine_context& context, persistence::sync_store& store);

// Answer for a message that could not be processed at all (unknown tenant, busy device): Status
// `code` on the SyncHdr, Final.
message error_reply(const sync_hdr& header, syncml_version version, wire_encoding encoding, int code);

}  // namespace syncml::session
