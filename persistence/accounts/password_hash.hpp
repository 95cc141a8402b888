#pragma once
// Stored user secrets. Basic auth: PBKDF2-HMAC-SHA256 with a random salt, stored as
// "pbkdf2-sha256$<iterations>$<b64 salt>$<b64 hash>" so the cost can grow without a migration: a login that
// verifies a hash of a lower cost stores a new one (needs_rehash). Argon2id would be better, but Debian 12's
// OpenSSL 3.0 has no Argon2 (it came with 3.2), so PBKDF2 at the OWASP 2023 cost.
// SyncML md5 auth: the server must know b64(md5(user ":" password)) itself; accounts.cpp keeps it only for
// tenants with md5 auth on, encrypted with the server key (secret_key.hpp).

#include <string>
#include <string_view>

namespace syncml::persistence {

// OWASP Password Storage Cheat Sheet (2023): 600,000 iterations for PBKDF2-HMAC-SHA256. A verified password is
// remembered for a while (auth/credential_cache), so a client pays this on its first login only.
inline constexpr int k_pbkdf2_iterations = 600000;

// The cost new hashes get: SYNCML_PASSWORD_HASH_ITERATIONS when set to a number from 1000 up (read once; for
// test suites, which create many users), else k_pbkdf2_iterations.
int pbkdf2_iterations();

std::string hash_password(std::string_view password, int iterations = pbkdf2_iterations());
// False for a wrong password or a malformed stored hash. Constant-time comparison.
bool verify_password(std::string_view password, std::string_view stored);
// Whether `text` is a hash in the stored form ("pbkdf2-sha256$..."), e.g. one exported from another server.
bool is_password_hash(std::string_view text);
// Whether a stored hash (verified a moment ago) has another scheme or a lower cost than `iterations`.
bool needs_rehash(std::string_view stored, int iterations = pbkdf2_iterations());
// b64(md5(user ":" password)), as OMA DS md5 authentication defines it.
std::string md5_secret_of(std::string_view user, std::string_view password);

}  // namespace syncml::persistence
