#pragma once
// Length limits of the SyncHdr identifiers that end up in database keys and indexes: the device id (Source LocURI),
// the SessionID and the user name. A message beyond them is refused up front with SyncML 400 and a reason, instead
// of failing deep in the database (an index row too large: 503, and the phone retries for ever). Generous for real
// phones: device ids are IMEIs, MAC addresses or UUIDs with a prefix; session ids are counters.

#include <cstddef>
#include <optional>
#include <string>

#include "session/protocol/message.hpp"

namespace syncml::session {

inline constexpr std::size_t k_max_device_id_bytes = 256;
inline constexpr std::size_t k_max_session_id_bytes = 64;

// nullopt when the identifiers fit; else which one is too long, for the refusal's log line.
std::optional<std::string> oversized_identifier(const sync_hdr& header);

}  // namespace syncml::session
