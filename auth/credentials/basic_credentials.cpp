#include "auth/credentials/basic_credentials.hpp"

#include <cctype>

#include "common/crypto/base64.hpp"

namespace syncml::auth {

std::optional<basic_credentials> parse_basic(std::string_view encoded) {
    auto decoded = common::base64_decode_ignoring_whitespace(encoded);
    if (!decoded) return std::nullopt;
    auto colon = decoded->find(':');
    if (colon == std::string::npos) return std::nullopt;
    return basic_credentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

std::optional<basic_credentials> parse_basic_authorization(std::string_view header) {
    constexpr std::string_view scheme = "basic ";
    if (header.size() <= scheme.size()) return std::nullopt;
    for (std::size_t i = 0; i < scheme.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(header[i])) != scheme[i]) return std::nullopt;
    }
    return parse_basic(header.substr(scheme.size()));
}

}  // namespace syncml::auth
