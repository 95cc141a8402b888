#pragma once
// SHA-256 and HMAC-SHA256 for every module, raw (32 bytes, as stored in bytea columns) or as lower-case hex.
// Throws std::runtime_error when OpenSSL fails.

#include <string>
#include <string_view>

namespace syncml::common {

std::string sha256(std::string_view data);
std::string sha256_hex(std::string_view data);
std::string hmac_sha256(std::string_view key, std::string_view data);
std::string hmac_sha256_hex(std::string_view key, std::string_view data);

}  // namespace syncml::common
