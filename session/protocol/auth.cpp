#include "session/protocol/auth.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace syncml::session {
namespace {

std::string raw_md5(std::string_view data) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_md5(), nullptr);
    return std::string(reinterpret_cast<const char*>(digest.data()), length);
}

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

}  // namespace

std::string base64_encode(std::string_view data) {
    std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
    int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(data.data()), static_cast<int>(data.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
    std::string clean;
    for (char c : text) {
        if (!std::isspace(static_cast<unsigned char>(c))) clean += c;
    }
    if (clean.size() % 4 != 0) return std::nullopt;
    std::string out(clean.size() / 4 * 3 + 1, '\0');
    int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                            reinterpret_cast<const unsigned char*>(clean.data()), static_cast<int>(clean.size()));
    if (n < 0) return std::nullopt;
    // EVP_DecodeBlock counts padding as zero bytes.
    std::size_t size = static_cast<std::size_t>(n);
    if (clean.ends_with("=="))
        size -= 2;
    else if (clean.ends_with("="))
        size -= 1;
    out.resize(size);
    return out;
}

std::optional<basic_credentials> parse_basic(const credentials& cred) {
    if (is_md5(cred)) return std::nullopt;
    auto decoded = base64_decode(cred.data);
    if (!decoded) return std::nullopt;
    auto colon = decoded->find(':');
    if (colon == std::string::npos) return std::nullopt;
    return basic_credentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

bool is_md5(const credentials& cred) {
    return cred.meta && cred.meta->type && lower(*cred.meta->type) == "syncml:auth-md5";
}

std::optional<std::string> credential_user(const sync_hdr& header) {
    if (header.cred) {
        if (auto basic = parse_basic(*header.cred)) return basic->user;
    }
    if (header.source.loc_name && !header.source.loc_name->empty()) return *header.source.loc_name;
    return std::nullopt;
}

std::string md5_digest(std::string_view secret, std::string_view nonce) {
    std::string input(secret);
    input += ':';
    input.append(nonce);
    return base64_encode(raw_md5(input));
}

bool md5_digest_matches(std::string_view secret, std::string_view digest, std::string_view device_nonce,
                        const std::vector<std::string>& stateless_nonces) {
    if (secret.empty()) return false;
    if (!device_nonce.empty()) return constant_time_equal(md5_digest(secret, device_nonce), digest);
    bool ok = false;
    for (const auto& nonce : stateless_nonces) ok = constant_time_equal(md5_digest(secret, nonce), digest) || ok;
    return ok;
}

std::vector<std::string> stateless_nonces(std::string_view secret, std::int64_t tenant, std::string_view device,
                                          std::int64_t unix_seconds) {
    constexpr std::int64_t period = 600;
    std::vector<std::string> out;
    for (auto p : {unix_seconds / period, unix_seconds / period - 1}) {
        std::string data = "nonce:" + std::to_string(tenant) + ":" + std::to_string(p) + ":";
        data.append(device);
        out.push_back(hmac_sha256_hex(secret, data).substr(0, 24));
    }
    return out;
}

std::string random_nonce() {
    static constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::array<unsigned char, 16> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) throw std::runtime_error("RAND_bytes failed");
    std::string out;
    for (auto b : bytes) out += alphabet[b % alphabet.size()];
    return out;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
         data.size(), mac.data(), &length);
    static constexpr std::string_view hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[mac[i] >> 4];
        out += hex[mac[i] & 15];
    }
    return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

}  // namespace syncml::session
