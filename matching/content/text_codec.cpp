#include "matching/content/text_codec.hpp"

#include <iconv.h>

#include <array>
#include <cerrno>
#include <cstdint>

namespace syncml::matching {

namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// Windows-1252 differs from ISO-8859-1 only in 0x80..0x9F; undefined slots map to the C1 control as Latin-1 does.
constexpr std::array<std::uint16_t, 32> k_cp1252_high = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

std::string single_byte_to_utf8(std::string_view data, bool cp1252) {
    std::string out;
    out.reserve(data.size() + data.size() / 4);
    for (unsigned char c : data) {
        std::uint32_t cp = c;
        if (cp1252 && c >= 0x80 && c < 0xA0) cp = k_cp1252_high[c - 0x80];
        append_utf8(out, cp);
    }
    return out;
}

std::string normalized_charset(std::string_view charset) {
    std::string out;
    for (char c : charset) {
        if (c == '"') continue;
        out += static_cast<char>((c >= 'a' && c <= 'z') ? c - 'a' + 'A' : c);
    }
    return out;
}

std::optional<std::string> iconv_to_utf8(std::string_view data, const std::string& charset) {
    iconv_t cd = iconv_open("UTF-8", charset.c_str());
    if (cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
    std::string out(data.size() * 4 + 16, '\0');
    char* in_ptr = const_cast<char*>(data.data());
    std::size_t in_left = data.size();
    char* out_ptr = out.data();
    std::size_t out_left = out.size();
    while (in_left > 0) {
        if (iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left) != static_cast<std::size_t>(-1)) continue;
        if (errno == E2BIG) break;
        // Skip an invalid byte rather than failing the whole item: devices mislabel charsets.
        ++in_ptr;
        --in_left;
    }
    iconv_close(cd);
    out.resize(out.size() - out_left);
    return out;
}

constexpr std::string_view k_b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | ((cp >> 18) & 0x07));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::string decode_quoted_printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c != '=') {
            if (c != '\r') out += c;
            continue;
        }
        if (i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
            ++i;
            if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            continue;
        }
        int hi = i + 1 < text.size() ? hex_value(text[i + 1]) : -1;
        int lo = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
        if (hi < 0 || lo < 0) {
            if (i + 1 < text.size()) out += c;  // broken escape: keep it; a trailing '=' is a soft break
            continue;
        }
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

std::string encode_quoted_printable(std::string_view data, std::size_t first_line_used) {
    static constexpr char k_hex[] = "0123456789ABCDEF";
    std::string out;
    std::size_t used = first_line_used;
    for (std::size_t i = 0; i < data.size(); ++i) {
        auto c = static_cast<unsigned char>(data[i]);
        bool last = i + 1 == data.size();
        bool plain = c >= 33 && c <= 126 && c != '=';
        // Trailing whitespace is lost by some decoders, so space is literal only mid-line.
        if (c == ' ' && !last) plain = true;
        std::size_t width = plain ? 1 : 3;
        if (used + width > 75) {
            out += "=\r\n";
            used = 0;
        }
        if (plain) {
            out += static_cast<char>(c);
        } else {
            out += '=';
            out += k_hex[c >> 4];
            out += k_hex[c & 15];
        }
        used += width;
    }
    return out;
}

std::optional<std::string> decode_base64(std::string_view text) {
    std::string out;
    out.reserve(text.size() * 3 / 4);
    std::uint32_t buffer = 0;
    int bits = 0;
    int pad = 0;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        if (c == '=') {
            ++pad;
            continue;
        }
        auto pos = k_b64.find(c);
        if (pos == std::string_view::npos) {
            if (c == '-')
                pos = 62;  // URL-safe alphabet, seen in some exports
            else if (c == '_')
                pos = 63;
            else
                return std::nullopt;
        }
        if (pad > 0) return std::nullopt;
        buffer = (buffer << 6) | static_cast<std::uint32_t>(pos);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xFF);
        }
    }
    if (bits >= 6) return std::nullopt;
    return out;
}

std::string encode_base64(std::string_view data) {
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < data.size(); i += 3) {
        std::uint32_t n = (static_cast<unsigned char>(data[i]) << 16) | (static_cast<unsigned char>(data[i + 1]) << 8) |
                          static_cast<unsigned char>(data[i + 2]);
        out += k_b64[(n >> 18) & 63];
        out += k_b64[(n >> 12) & 63];
        out += k_b64[(n >> 6) & 63];
        out += k_b64[n & 63];
    }
    std::size_t rest = data.size() - i;
    if (rest > 0) {
        std::uint32_t n = static_cast<unsigned char>(data[i]) << 16;
        if (rest == 2) n |= static_cast<unsigned char>(data[i + 1]) << 8;
        out += k_b64[(n >> 18) & 63];
        out += k_b64[(n >> 12) & 63];
        out += rest == 2 ? k_b64[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

bool is_ascii(std::string_view data) {
    for (unsigned char c : data) {
        if (c >= 0x80) return false;
    }
    return true;
}

bool is_valid_utf8(std::string_view data) {
    std::size_t i = 0;
    while (i < data.size()) {
        auto c = static_cast<unsigned char>(data[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t extra = (c >= 0xC2 && c <= 0xDF) ? 1 : (c >> 4) == 0xE ? 2 : (c >= 0xF0 && c <= 0xF4) ? 3 : 0;
        if (extra == 0 || i + extra >= data.size()) return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            if ((static_cast<unsigned char>(data[i + k]) >> 6) != 2) return false;
        }
        auto c1 = static_cast<unsigned char>(data[i + 1]);
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) return false;
        if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) return false;
        i += extra + 1;
    }
    return true;
}

std::optional<std::string> to_utf8(std::string_view data, std::string_view charset) {
    std::string name = normalized_charset(charset);
    if (name.empty() || name == "UTF-8" || name == "UTF8" || name == "US-ASCII" || name == "ASCII") {
        if (is_valid_utf8(data)) return std::string(data);
        return single_byte_to_utf8(data, true);
    }
    if (is_ascii(data)) return std::string(data);
    if (name == "ISO-8859-1" || name == "ISO8859-1" || name == "LATIN1" || name == "ISO_8859-1") {
        // Devices that say Latin-1 usually mean Windows-1252 (curly quotes, euro sign).
        return single_byte_to_utf8(data, true);
    }
    if (name == "WINDOWS-1252" || name == "CP1252") return single_byte_to_utf8(data, true);
    return iconv_to_utf8(data, name);
}

}  // namespace syncml::matching
