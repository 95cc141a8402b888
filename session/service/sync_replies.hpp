#pragma once
// What the SyncML front end answers: the engine's reply, or a failure's. Every failure becomes its HTTP status or
// SyncML status, its Retry-After and its log line in failure_reply() alone.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "persistence/accounts/accounts.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/protocol/message.hpp"
#include "session/service/sync_handler.hpp"

namespace syncml::session {

// The engine's reply in the request's encoding, its statuses counted in `metrics` (null: not counted).
sync_response syncml_reply(const message& reply, wire_encoding encoding, engine_metrics* metrics);

enum class sync_failure {
    malformed,             // SyncML 400 when the SyncHdr decoded, else HTTP 400
    unsupported_version,   // SyncML 505 when the SyncHdr decoded, else HTTP 400
    unknown_tenant,        // SyncML 404
    oversized,             // HTTP 413: beyond the tenant's max_message_bytes
    busy,                  // SyncML 101: a newer session of the device took over
    too_many_devices,      // SyncML 403: the user has the tenant's maximum of devices
    too_many_sessions,     // HTTP 503, Retry-After 30: the tenant has its maximum of live sessions (phones retry)
    database_unavailable,  // HTTP 503, Retry-After 5
    login_throttled,       // the engine's challenge, Retry-After the rest of the block
    address_busy,          // HTTP 503, Retry-After: the password was not checked (auth::login_verdict::busy)
};

// Where a failure happened: what its reply answers and its log line names.
struct failure_scene {
    const sync_hdr* header = nullptr;  // the decoded SyncHdr; nullptr: the reply is an HTTP error
    syncml_version version = syncml_version::v1_2;
    wire_encoding encoding = wire_encoding::xml;
    const persistence::tenant_info* tenant = nullptr;
    // malformed: why; database_unavailable: the error to log (nullopt: persistence logged it).
    std::optional<std::string> detail;
    std::size_t bytes = 0;            // oversized: the body's size
    std::chrono::seconds blocked{0};  // login_throttled, address_busy: how long the client should wait
    sync_response challenge;          // login_throttled: the engine's answer
};
// The scene of a decoded message, in its tenant when known.
failure_scene scene_of(const message& in, const persistence::tenant_info* tenant = nullptr);

// The reply to a failure, after its log line and its limit metric in `metrics` (null: not counted).
sync_response failure_reply(sync_failure failure, failure_scene scene, engine_metrics* metrics);

// How a refused message counts in syncml_messages_total, where the caller counts it (a message refused before its
// tenant is known is not counted, except one that does not decode: bad_request).
engine_metrics::message_result message_result_of(sync_failure failure);

}  // namespace syncml::session
