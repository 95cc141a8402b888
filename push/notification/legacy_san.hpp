#pragma once
// The server-alerted notification for phones of SyncML 1.0 and 1.1 (SyncML Sync Protocol 1.1, "package 0"): a
// WBXML SyncML message of the server with one Alert 206-210 per datastore, each naming the server's datastore (Item
// Source), the phone's when known (Item Target) and its format (Meta Type). The server's credentials, when the device
// has a server password, go as an md5 Cred in the header: b64(md5(b64(md5(server-id ":" password)) ":" nonce)).
// Sent with the content type application/vnd.syncml+wbxml.

#include <string>
#include <string_view>

#include "push/notification/san.hpp"
#include "session/protocol/message.hpp"

namespace syncml::push {

struct legacy_san_request {
    session::syncml_version version = session::syncml_version::v1_1;  // 1.0 or 1.1
    std::string device_id;  // the phone's device id (SyncHdr Target); empty: "/"
};

enum class legacy_san_error {
    no_datastores,  // the 1.1 form has no "every datastore": each one is an Alert
    not_legacy,     // version 1.2 takes encode_san
};
const char* describe(legacy_san_error e);

struct legacy_san_result {
    std::string bytes;
    std::optional<legacy_san_error> error;
};

// The message as a model: what encode_legacy_san writes, for tests and traces.
session::message legacy_san_message(const notification& n, const server_secret& secret,
                                    const legacy_san_request& request);

legacy_san_result encode_legacy_san(const notification& n, const server_secret& secret,
                                    const legacy_san_request& request);

}  // namespace syncml::push
