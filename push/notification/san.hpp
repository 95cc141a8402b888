#pragma once
// The server-alerted notification of OMA DS 1.2 (OMA-TS-DS_DataSyncNotification-V1_2, "package 0", media type
// application/vnd.syncml.ds.notification): the few bytes a server sends a phone (by SMS, WAP push or a relay) so that
// the phone starts a sync. Bytes only: no I/O, no clock, no randomness (the caller picks the session id).
//
//   digest (128 bits) | version (10) ui-mode (2) initiator (1) future use (27) session id (16)
//                     | server id length (8) server id | num-syncs (4) future use (4)
//                     | per datastore: sync type (4) future use (4) content type (24) URI length (8) URI
//                     | vendor-specific
//
// digest = H(B64(H(server-identifier ":" password)) ":" nonce ":" B64(H(notification))), H = MD5, B64 = base64,
// notification = every byte after the digest. The password and nonce are the server credentials the phone keeps for
// this server; a phone without them (most) takes an empty password and nonce, "PC Suite" style.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session/protocol/sync_mode.hpp"

namespace syncml::push {

// How the phone should involve its user.
enum class ui_mode : std::uint8_t { not_specified = 0, background = 1, informative = 2, user_interaction = 3 };
// Who asked for the sync: the server on its own (a change), or a user through the server (an operator's button).
enum class initiator : std::uint8_t { user = 0, server = 1 };

// One datastore the phone is asked to sync.
struct alerted_datastore {
    session::sync_mode mode = session::sync_modes::two_way;  // sent as its server-alerted code, 206-210
    std::uint32_t content_type = 0;  // the OMNA code of its format (content_type_code), 0 when it has none
    std::string server_uri;          // the server's datastore URI, as the phone addresses it
    std::string client_uri;          // the phone's own datastore URI when known: only the SyncML 1.1 form carries it
    std::string mime_type;           // only the SyncML 1.1 form carries it (Meta Type)
};

struct notification {
    std::string server_id;  // the server identifier the phone knows us by (its Target LocURI when it syncs)
    std::uint16_t session_id = 0;
    ui_mode ui = ui_mode::background;
    initiator by = initiator::server;
    // Empty: every datastore the phone syncs with this server (num-syncs 0).
    std::vector<alerted_datastore> datastores;
    std::string vendor_specific;  // appended after the datastores; covered by the digest
};

// The server credentials the digest is made with.
struct server_secret {
    std::string password;
    std::string nonce;
};

enum class san_error {
    server_id_too_long,      // over 255 bytes
    uri_too_long,            // a datastore URI over 255 bytes
    too_many_datastores,     // over 15: num-syncs has 4 bits
    content_type_too_large,  // over 24 bits
};
const char* describe(san_error e);

struct san_result {
    std::string bytes;               // the notification, when it could be encoded
    std::optional<san_error> error;  // otherwise why not
};

// Version 1.2 (the value 12 in the version field).
san_result encode_san(const notification& n, const server_secret& secret);

// The 16 bytes of the digest over `body` (every byte after the digest).
std::string san_digest(std::string_view server_id, const server_secret& secret, std::string_view body);

// Whether `san` carries the digest of its own body for these credentials: what a phone checks.
bool san_digest_matches(std::string_view san, std::string_view server_id, const server_secret& secret);

// The OMNA content type code (WSP Content Type Numbers) a notification gives a datastore's format: text/x-vcard 0x07,
// text/x-vcalendar 0x06, text/plain 0x03, text/calendar 0x0305, text/vcard (text/directory;profile=vCard) 0x0309;
// 0 for a type without one (SIF, XML items): the phone then knows the datastore by its URI alone.
std::uint32_t content_type_code(std::string_view mime_type);

}  // namespace syncml::push
