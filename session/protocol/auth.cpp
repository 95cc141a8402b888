#include "session/protocol/auth.hpp"

#include <algorithm>
#include <cctype>

#include "common/crypto/base64.hpp"
#include "common/crypto/digest.hpp"
#include "common/crypto/secrets.hpp"

namespace syncml::session {
namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

}  // namespace

std::optional<auth::basic_credentials> parse_basic(const credentials& cred) {
    if (is_md5(cred)) return std::nullopt;
    return auth::parse_basic(cred.data);
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
    return common::base64_encode(common::md5(input));
}

bool md5_digest_matches(std::string_view secret, std::string_view digest, std::string_view device_nonce,
                        const std::vector<std::string>& stateless_nonces) {
    if (secret.empty()) return false;
    if (!device_nonce.empty()) return common::constant_time_equal(md5_digest(secret, device_nonce), digest);
    bool ok = false;
    for (const auto& nonce : stateless_nonces)
        ok = common::constant_time_equal(md5_digest(secret, nonce), digest) || ok;
    return ok;
}

std::vector<std::string> stateless_nonces(std::string_view secret, std::int64_t tenant, std::string_view device,
                                          std::int64_t unix_seconds) {
    constexpr std::int64_t period = 600;
    std::vector<std::string> out;
    for (auto p : {unix_seconds / period, unix_seconds / period - 1}) {
        std::string data = "nonce:" + std::to_string(tenant) + ":" + std::to_string(p) + ":";
        data.append(device);
        out.push_back(common::hmac_sha256_hex(secret, data).substr(0, 24));
    }
    return out;
}

}  // namespace syncml::session
