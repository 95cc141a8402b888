#pragma once
// Credentials of SyncML basic and md5 authentication (OMA DS 1.1+ digest). Basic credentials are parsed where the
// DAV front end's are (auth/credentials/), the crypto comes from common/crypto/.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "auth/credentials/basic_credentials.hpp"
#include "session/protocol/message.hpp"

namespace syncml::session {

// Type syncml:auth-basic (or no type): b64("user:password").
std::optional<auth::basic_credentials> parse_basic(const credentials& cred);
bool is_md5(const credentials& cred);
// The user a message authenticates as: from basic Cred, else the SyncHdr Source LocName (md5).
std::optional<std::string> credential_user(const sync_hdr& header);

// b64(md5(secret ":" nonce)), secret = b64(md5(user ":" password)).
std::string md5_digest(std::string_view secret, std::string_view nonce);
// Whether `digest` is the md5 digest of `secret` with the device's stored nonce, or, when the device has none,
// with one of `stateless_nonces`.
bool md5_digest_matches(std::string_view secret, std::string_view digest, std::string_view device_nonce,
                        const std::vector<std::string>& stateless_nonces);
// Nonces for a device without a stored one: HMAC of the server secret, tenant, device id and the 10-minute
// period, for this period and the one before (so a challenge stays answerable for 10 to 20 minutes).
std::vector<std::string> stateless_nonces(std::string_view secret, std::int64_t tenant, std::string_view device,
                                          std::int64_t unix_seconds);

}  // namespace syncml::session
