#pragma once
// Basic credentials as both front ends receive them: b64("user:password") in a SyncML Cred element (type
// syncml:auth-basic) and in an HTTP Authorization header (RFC 7617). Parsing only: no module but common below it, so
// that the SyncML message model can use it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace syncml::auth {

// The longest user name either front end takes (bytes). Real ones are an address or a phone number; a longer one
// is refused with a clear status before it reaches the database, whose indexes hold no arbitrary lengths.
inline constexpr std::size_t k_max_user_name_bytes = 256;

struct basic_credentials {
    std::string user;
    std::string password;
};

// b64("user:password"), whitespace anywhere ignored; the password may hold colons. nullopt when the text is not
// base64 or has no colon.
std::optional<basic_credentials> parse_basic(std::string_view encoded);
// An Authorization header value of the Basic scheme (the scheme's name in any case).
std::optional<basic_credentials> parse_basic_authorization(std::string_view header);

}  // namespace syncml::auth
