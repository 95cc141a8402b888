#include "persistence/accounts/password_hash.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <charconv>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <vector>

#include "common/crypto/base64.hpp"
#include "common/crypto/digest.hpp"

namespace syncml::persistence {

namespace {

constexpr std::string_view k_scheme = "pbkdf2-sha256";
constexpr std::size_t k_salt_bytes = 16;
constexpr std::size_t k_hash_bytes = 32;

std::string pbkdf2(std::string_view password, std::string_view salt, int iterations) {
    std::string out(k_hash_bytes, '\0');
    if (PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                          reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()),
                          iterations, EVP_sha256(), static_cast<int>(out.size()),
                          reinterpret_cast<unsigned char*>(out.data())) != 1) {
        throw std::runtime_error("PBKDF2 failed");
    }
    return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    for (;;) {
        const auto at = text.find(separator);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) return parts;
        text.remove_prefix(at + 1);
    }
}

struct parsed_hash {
    int iterations = 0;
    std::string salt;
    std::string hash;
};

std::optional<parsed_hash> parse_hash(std::string_view stored) {
    const auto parts = split(stored, '$');
    if (parts.size() != 4 || parts[0] != k_scheme) return std::nullopt;
    parsed_hash out;
    const auto [end, error] = std::from_chars(parts[1].data(), parts[1].data() + parts[1].size(), out.iterations);
    if (error != std::errc{} || end != parts[1].data() + parts[1].size() || out.iterations < 1) return std::nullopt;
    auto salt = common::base64_decode(parts[2]);
    auto hash = common::base64_decode(parts[3]);
    if (!salt || !hash || hash->size() != k_hash_bytes) return std::nullopt;
    out.salt = std::move(*salt);
    out.hash = std::move(*hash);
    return out;
}

int iterations_from_environment() {
    const char* text = std::getenv("SYNCML_PASSWORD_HASH_ITERATIONS");
    if (text == nullptr || *text == '\0') return k_pbkdf2_iterations;
    int value = 0;
    const std::string_view view(text);
    const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
    // Below 1000 is no hash at all (RFC 8018's minimum): a typo must not silently make it one.
    if (error != std::errc{} || end != view.data() + view.size() || value < 1000) {
        throw std::invalid_argument("SYNCML_PASSWORD_HASH_ITERATIONS must be a number from 1000 up");
    }
    return value;
}

}  // namespace

int pbkdf2_iterations() {
    static const int iterations = iterations_from_environment();
    return iterations;
}

std::string hash_password(std::string_view password, int iterations) {
    if (iterations < 1) throw std::invalid_argument("PBKDF2 iterations must be positive");
    std::string salt(k_salt_bytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), static_cast<int>(salt.size())) != 1) {
        throw std::runtime_error("no random bytes for the password salt");
    }
    return std::string(k_scheme) + "$" + std::to_string(iterations) + "$" + common::base64_encode(salt) + "$" +
           common::base64_encode(pbkdf2(password, salt, iterations));
}

bool verify_password(std::string_view password, std::string_view stored) {
    const auto parsed = parse_hash(stored);
    if (!parsed) return false;
    const auto actual = pbkdf2(password, parsed->salt, parsed->iterations);
    return CRYPTO_memcmp(actual.data(), parsed->hash.data(), k_hash_bytes) == 0;
}

bool is_password_hash(std::string_view text) { return parse_hash(text).has_value(); }

bool needs_rehash(std::string_view stored, int iterations) {
    const auto parsed = parse_hash(stored);
    return !parsed || parsed->iterations < iterations;
}

std::string md5_secret_of(std::string_view user, std::string_view password) {
    const std::string input = std::string(user) + ":" + std::string(password);
    return common::base64_encode(common::md5(input));
}

}  // namespace syncml::persistence
