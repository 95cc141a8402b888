#pragma once
// Message digests for every module: SHA-256 and HMAC-SHA256, raw (32 bytes, as stored in bytea columns) or as
// lower-case hex; MD5 only because OMA DS md5 authentication is defined over it (b64(md5(user ":" password)) and the
// digest over a nonce), never for anything new. Throws std::runtime_error when OpenSSL fails.

#include <string>
#include <string_view>

namespace syncml::common {

std::string md5(std::string_view data);  // the raw 16 bytes
std::string sha256(std::string_view data);
std::string sha256_hex(std::string_view data);
std::string hmac_sha256(std::string_view key, std::string_view data);
std::string hmac_sha256_hex(std::string_view key, std::string_view data);

}  // namespace syncml::common
