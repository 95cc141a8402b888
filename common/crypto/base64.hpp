#pragma once
// Base64 (RFC 4648, standard alphabet, padded) for every module: password hashes and server keys at rest, SyncML
// basic credentials and md5 digests and nonces on the wire.

#include <optional>
#include <string>
#include <string_view>

namespace syncml::common {

std::string base64_encode(std::string_view bytes);
// nullopt for text that is not padded base64. Stored values (hashes, keys) must be exact: no whitespace.
std::optional<std::string> base64_decode(std::string_view text);
// The same after dropping all whitespace: phones wrap and indent base64 in their XML.
std::optional<std::string> base64_decode_ignoring_whitespace(std::string_view text);

}  // namespace syncml::common
