#include "src/admin/common/json_reader.hpp"

#include <algorithm>
#include <charconv>

#include "matching/content/text_codec.hpp"

namespace syncml::server {
namespace {

struct parse_failure {
    std::string what;
    std::size_t at;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF); 0 when it is malformed.
std::size_t utf8_sequence(std::string_view s) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (s.size() < length || byte(1) < low || byte(1) > high) return 0;
    for (std::size_t i = 2; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80) return 0;
    }
    return length;
}

class reader {
  public:
    reader(std::string_view text, const json_limits& limits) : text_(text), limits_(limits) {}

    json_value document() {
        skip_space();
        json_value value = parse_value(0);
        skip_space();
        if (pos_ != text_.size()) fail("unexpected text after the JSON value");
        return value;
    }

  private:
    [[noreturn]] void fail(std::string what) const { throw parse_failure{std::move(what), pos_}; }

    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return at_end() ? '\0' : text_[pos_]; }

    void skip_space() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
    }

    void expect_word(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) fail("invalid literal (expected " + std::string(word) + ")");
        pos_ += word.size();
    }

    json_value parse_value(int depth) {
        if (at_end()) fail("unexpected end of input (expected a value)");
        json_value value;
        switch (peek()) {
            case '{':
                return parse_object(depth + 1);
            case '[':
                return parse_array(depth + 1);
            case '"':
                value.type = json_value::kind::string;
                value.text = parse_string();
                return value;
            case 't':
            case 'f':
                value.type = json_value::kind::boolean;
                value.boolean = peek() == 't';
                expect_word(value.boolean ? "true" : "false");
                return value;
            case 'n':
                expect_word("null");
                return value;
            default:
                if (peek() == '-' || is_digit(peek())) return parse_number();
                fail(std::string("unexpected character '") + peek() + "'");
        }
    }

    void enter(int depth) const {
        if (depth > limits_.max_depth) fail("nested deeper than " + std::to_string(limits_.max_depth) + " levels");
    }

    json_value parse_object(int depth) {
        enter(depth);
        json_value object;
        object.type = json_value::kind::object;
        ++pos_;
        skip_space();
        if (peek() == '}') {
            ++pos_;
            return object;
        }
        for (;;) {
            skip_space();
            if (peek() != '"') fail("expected a member name in double quotes");
            const std::size_t name_at = pos_;
            std::string name = parse_string();
            if (object.find(name) != nullptr) throw parse_failure{"duplicate member \"" + name + "\"", name_at};
            skip_space();
            if (peek() != ':') fail("expected ':' after a member name");
            ++pos_;
            skip_space();
            json_value member = parse_value(depth);
            object.members.emplace_back(std::move(name), std::move(member));
            skip_space();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == '}') {
                ++pos_;
                return object;
            }
            fail("expected ',' or '}' in an object");
        }
    }

    json_value parse_array(int depth) {
        enter(depth);
        json_value array;
        array.type = json_value::kind::array;
        ++pos_;
        skip_space();
        if (peek() == ']') {
            ++pos_;
            return array;
        }
        for (;;) {
            skip_space();
            array.items.push_back(parse_value(depth));
            skip_space();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == ']') {
                ++pos_;
                return array;
            }
            fail("expected ',' or ']' in an array");
        }
    }

    std::uint32_t hex4() {
        if (text_.size() - pos_ < 4) fail("truncated \\u escape");
        std::uint32_t code = 0;
        for (int i = 0; i < 4; ++i) {
            const int digit = hex_value(text_[pos_ + i]);
            if (digit < 0) fail("invalid \\u escape");
            code = code * 16 + static_cast<std::uint32_t>(digit);
        }
        pos_ += 4;
        return code;
    }

    // After "\u": one code point, a surrogate pair taking two escapes.
    std::uint32_t unicode_escape() {
        std::uint32_t code = hex4();
        if (code >= 0xDC00 && code <= 0xDFFF) fail("unpaired low surrogate in \\u escape");
        if (code >= 0xD800 && code <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u") fail("unpaired high surrogate in \\u escape");
            pos_ += 2;
            const std::uint32_t low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("unpaired high surrogate in \\u escape");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        return code;
    }

    void escape(std::string& out) {
        if (at_end()) fail("unterminated string");
        const char c = text_[pos_++];
        switch (c) {
            case '"':
            case '\\':
            case '/':
                out += c;
                return;
            case 'b':
                out += '\b';
                return;
            case 'f':
                out += '\f';
                return;
            case 'n':
                out += '\n';
                return;
            case 'r':
                out += '\r';
                return;
            case 't':
                out += '\t';
                return;
            case 'u':
                matching::append_utf8(out, unicode_escape());
                return;
            default:
                --pos_;
                fail(std::string("invalid escape '\\") + c + "'");
        }
    }

    std::string parse_string() {
        ++pos_;  // the opening quote
        std::string out;
        for (;;) {
            if (at_end()) fail("unterminated string");
            const auto c = static_cast<unsigned char>(text_[pos_]);
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (c == '\\') {
                ++pos_;
                escape(out);
            } else if (c < 0x20) {
                fail("control character in a string (escape it)");
            } else if (c < 0x80) {
                out += static_cast<char>(c);
                ++pos_;
            } else {
                const std::size_t length = utf8_sequence(text_.substr(pos_));
                if (length == 0) fail("invalid UTF-8 in a string");
                out.append(text_.substr(pos_, length));
                pos_ += length;
            }
        }
    }

    void digits() {
        if (!is_digit(peek())) fail("expected a digit");
        while (is_digit(peek())) ++pos_;
    }

    json_value parse_number() {
        const std::size_t start = pos_;
        if (peek() == '-') ++pos_;
        if (peek() == '0') {
            ++pos_;
            if (is_digit(peek())) fail("leading zero in a number");
        } else {
            digits();
        }
        if (peek() == '.') {
            ++pos_;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            ++pos_;
            if (peek() == '+' || peek() == '-') ++pos_;
            digits();
        }
        json_value value;
        value.type = json_value::kind::number;
        value.text = std::string(text_.substr(start, pos_ - start));
        return value;
    }

    std::string_view text_;
    const json_limits& limits_;
    std::size_t pos_ = 0;
};

}  // namespace

const json_value* json_value::find(std::string_view key) const {
    const auto found =
        std::find_if(members.begin(), members.end(), [&](const auto& member) { return member.first == key; });
    return found == members.end() ? nullptr : &found->second;
}

std::optional<std::int64_t> json_value::integer() const {
    if (type != kind::number || text.find_first_of(".eE") != std::string::npos) return std::nullopt;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

const char* json_kind_name(json_value::kind type) {
    switch (type) {
        case json_value::kind::null:
            return "null";
        case json_value::kind::boolean:
            return "a boolean";
        case json_value::kind::number:
            return "a number";
        case json_value::kind::string:
            return "a string";
        case json_value::kind::array:
            return "an array";
        case json_value::kind::object:
            return "an object";
    }
    return "a value";
}

json_parse_result parse_json(std::string_view text, const json_limits& limits) {
    json_parse_result result;
    if (text.size() > limits.max_bytes) {
        result.error = "JSON text larger than " + std::to_string(limits.max_bytes) + " bytes";
        return result;
    }
    try {
        result.value = reader(text, limits).document();
    } catch (const parse_failure& failure) {
        result.error = failure.what + " at byte " + std::to_string(failure.at);
        result.offset = failure.at;
    }
    return result;
}

}  // namespace syncml::server
