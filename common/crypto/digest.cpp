#include "common/crypto/digest.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <stdexcept>

#include "common/crypto/hex.hpp"

namespace syncml::common {
namespace {

const unsigned char* bytes_of(std::string_view text) { return reinterpret_cast<const unsigned char*>(text.data()); }

std::string digest_of(std::string_view data, const EVP_MD* type, const char* failure) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), digest.data(), &length, type, nullptr) != 1) {
        throw std::runtime_error(failure);
    }
    return std::string(reinterpret_cast<const char*>(digest.data()), length);
}

}  // namespace

std::string md5(std::string_view data) { return digest_of(data, EVP_md5(), "MD5 digest failed"); }

std::string sha256(std::string_view data) { return digest_of(data, EVP_sha256(), "SHA-256 failed"); }

std::string sha256_hex(std::string_view data) { return hex_of(sha256(data)); }

std::string hmac_sha256(std::string_view key, std::string_view data) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
    unsigned int length = 0;
    if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytes_of(data), data.size(), mac.data(),
             &length) == nullptr) {
        throw std::runtime_error("HMAC-SHA256 failed");
    }
    return std::string(reinterpret_cast<const char*>(mac.data()), length);
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) { return hex_of(hmac_sha256(key, data)); }

}  // namespace syncml::common
