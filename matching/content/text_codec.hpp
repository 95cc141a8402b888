#pragma once
// Byte-level encodings found in PIM items: quoted-printable, base64, charsets.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace syncml::matching {

// Lenient: invalid escapes are kept literally, soft breaks removed, CRLF/LF kept as LF.
std::string decode_quoted_printable(std::string_view text);
// Encodes everything outside printable ASCII plus '='; inserts soft breaks so no line exceeds 76 octets, the
// first line having `first_line_used` octets already. Never splits an =XX triplet.
std::string encode_quoted_printable(std::string_view data, std::size_t first_line_used);

// Ignores whitespace; nullopt for characters outside the alphabet or impossible lengths.
std::optional<std::string> decode_base64(std::string_view text);
std::string encode_base64(std::string_view data);

bool is_valid_utf8(std::string_view data);
// Converts from `charset` (any name iconv knows; UTF-8, ISO-8859-1 and Windows-1252 handled inline) to UTF-8.
// Invalid UTF-8 claiming to be UTF-8 is read as Windows-1252, the usual culprit. nullopt for unknown charsets.
std::optional<std::string> to_utf8(std::string_view data, std::string_view charset);
bool is_ascii(std::string_view data);
// Appends the UTF-8 encoding of a Unicode code point.
void append_utf8(std::string& out, std::uint32_t cp);

}  // namespace syncml::matching
