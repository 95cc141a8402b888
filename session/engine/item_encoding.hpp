#pragma once
// Item data as devices encode it in SyncML (Meta Format): Funambol's clients send SIF base64-encoded (b64) by default,
// other devices send plain text. Incoming data is decoded here, in one place whatever its content type, before any
// codec sees it; outgoing data is encoded for the devices that use b64.

#include <optional>
#include <string>
#include <string_view>

#include "session/engine/state.hpp"

namespace syncml::session {

// The bytes `data` stands for in Meta Format `format` (case-insensitive): base64 decoded for b64 (white space
// ignored: clients wrap it), unchanged for chr, bin or no format; nullopt for b64 that does not decode and for
// formats the server cannot undo (Funambol's des;b64 encryption).
std::optional<std::string> decoded_item_data(std::string data, std::string_view format);

// Why decoded_item_data refused data in `format`, for the log.
std::string undecodable_reason(std::string_view format);

// Records the Meta Format of an item the device sent (an item that states neither Type nor Format tells nothing).
void note_device_format(store_state& s, std::string_view mime, std::string_view format);

// Whether the device gets its items base64-encoded: it sent b64 items in this session, or sent none and takes SIF,
// which Funambol's clients expect in b64.
bool sends_b64(const store_state& s);

}  // namespace syncml::session
