#pragma once
// Stored user secrets. Basic auth: PBKDF2-HMAC-SHA256 with a random salt, stored as
// "pbkdf2-sha256$<iterations>$<b64 salt>$<b64 hash>" so the cost can grow without a migration.
// SyncML md5 auth: the server must know b64(md5(user ":" password)) itself, so that is stored too.

#include <string>
#include <string_view>

namespace syncml::persistence {

// Moderate on purpose: the md5 secret stored beside the hash (required by SyncML md5 auth) is far
// cheaper to attack, so more rounds here would add cost per login, some clients send credentials
// with every message, without adding protection. Stored hashes carry their count, so it can change.
inline constexpr int k_pbkdf2_iterations = 25000;

std::string hash_password(std::string_view password, int iterations = k_pbkdf2_iterations);
// False for a wrong password or a malformed stored hash. Constant-time comparison.
bool verify_password(std::string_view password, std::string_view stored);
// b64(md5(user ":" password)), as OMA DS md5 authentication defines it.
std::string md5_secret_of(std::string_view user, std::string_view password);

std::string base64_encode(std::string_view bytes);

}  // namespace syncml::persistence
