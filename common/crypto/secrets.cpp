#include "common/crypto/secrets.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace syncml::common {

std::string random_nonce() {
    static constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::array<unsigned char, 16> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) throw std::runtime_error("RAND_bytes failed");
    std::string out;
    for (auto b : bytes) out += alphabet[b % alphabet.size()];
    return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

}  // namespace syncml::common
