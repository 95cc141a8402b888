#include "common/log/log_value.hpp"

#include <cstdint>
#include <cstdio>

namespace syncml::common {
namespace {

// Length of the well-formed UTF-8 sequence that starts at text[pos] (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), or 0 when the byte there does not start one. code receives the code point.
std::size_t utf8_sequence(std::string_view text, std::size_t pos, std::uint32_t& code) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    std::uint32_t min = 0;
    if (lead < 0x80) {
        code = lead;
        return 1;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2, min = 0x80, code = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3, min = 0x800, code = lead & 0x0f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4, min = 0x10000, code = lead & 0x07;
    } else {
        return 0;
    }
    if (pos + length > text.size()) return 0;
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xc0) != 0x80) return 0;
        code = (code << 6) | (byte(i) & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
    return length;
}

// Characters that end or break a line somewhere: C0 and C1 controls, DEL, U+2028 and U+2029.
bool is_control(std::uint32_t code) {
    return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code == 0x2028 || code == 0x2029;
}

void append_hex(std::string& out, const char* format, unsigned value) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, format, value);
    out += buffer;
}

bool is_plain_word(std::string_view text) {
    if (text.empty()) return false;
    for (const char c : text) {
        if (c <= ' ' || c > '~' || c == '"' || c == '\\' || c == '=') return false;
    }
    return true;
}

}  // namespace

void escape_log_text(std::string& out, std::string_view text, bool json) {
    for (std::size_t pos = 0; pos < text.size();) {
        std::uint32_t code = 0;
        const std::size_t length = utf8_sequence(text, pos, code);
        if (length == 0) {
            append_hex(out, json ? "\\\\x%02x" : "\\x%02x", static_cast<unsigned char>(text[pos]));
            ++pos;
            continue;
        }
        if (code == '"') {
            out += "\\\"";
        } else if (code == '\\') {
            out += "\\\\";
        } else if (code == '\n') {
            out += "\\n";
        } else if (code == '\r') {
            out += "\\r";
        } else if (code == '\t') {
            out += "\\t";
        } else if (is_control(code)) {
            append_hex(out, "\\u%04x", code);
        } else {
            out.append(text.substr(pos, length));
        }
        pos += length;
    }
}

std::string printable_text(std::string_view text) {
    std::string out;
    escape_log_text(out, text, false);
    return out;
}

std::string log_value(std::string_view text) {
    if (is_plain_word(text)) return std::string(text);
    std::string out = "\"";
    escape_log_text(out, text, false);
    out += '"';
    return out;
}

}  // namespace syncml::common
