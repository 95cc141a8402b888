#include "session/service/session_token.hpp"

#include <charconv>

#include "common/crypto/digest.hpp"
#include "common/crypto/secrets.hpp"
#include "persistence/sync/sync_store.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::session {

std::string make_session_token(const session_token& token, const std::string& secret) {
    auto id = std::to_string(token.user) + "." + std::to_string(token.key);
    return id + "-" + common::hmac_sha256_hex(secret, "session:" + id).substr(0, 32);
}

std::optional<session_token> parse_session_token(const std::string& token, const std::string& secret) {
    auto dot = token.find('.');
    auto dash = token.find('-');
    if (dot == std::string::npos || dash == std::string::npos || dot > dash || secret.empty()) return std::nullopt;
    session_token parsed;
    auto [user_end, user_ec] = std::from_chars(token.data(), token.data() + dot, parsed.user);
    auto [key_end, key_ec] = std::from_chars(token.data() + dot + 1, token.data() + dash, parsed.key);
    if (user_ec != std::errc{} || user_end != token.data() + dot || key_ec != std::errc{} ||
        key_end != token.data() + dash)
        return std::nullopt;
    if (!common::constant_time_equal(make_session_token(parsed, secret), token)) return std::nullopt;
    return parsed;
}

std::string query_token(const std::string& url) {
    auto q = url.find("?s=");
    if (q == std::string::npos) q = url.find("&s=");
    if (q == std::string::npos) return {};
    auto end = url.find('&', q + 3);
    return url.substr(q + 3, end == std::string::npos ? std::string::npos : end - q - 3);
}

const std::string& token_secret_cache::get(persistence::sync_store& store) {
    std::lock_guard lock(mutex_);
    if (secret_.empty()) secret_ = store.token_secret();
    return secret_;
}

std::string token_secret_cache::get(persistence::database& db) {
    {
        std::lock_guard lock(mutex_);
        if (!secret_.empty()) return secret_;
    }
    std::string read;
    persistence::run_sync_transaction(db, [&](persistence::sync_store& store) { read = get(store); });
    return read;
}

}  // namespace syncml::session
