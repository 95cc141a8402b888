#include "matching/match/normalize_text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace syncml::matching {

namespace {

struct fold_range {
    char32_t first, last;
    std::string_view ascii;
};

// Letters of U+00C0..U+017F with their base letters; code points in no range are kept.
constexpr fold_range k_folds[] = {
    {0xC0, 0xC5, "a"},   {0xC6, 0xC6, "ae"},  {0xC7, 0xC7, "c"},   {0xC8, 0xCB, "e"},    {0xCC, 0xCF, "i"},
    {0xD0, 0xD0, "d"},   {0xD1, 0xD1, "n"},   {0xD2, 0xD6, "o"},   {0xD8, 0xD8, "o"},    {0xD9, 0xDC, "u"},
    {0xDD, 0xDD, "y"},   {0xDE, 0xDE, "th"},  {0xDF, 0xDF, "ss"},  {0xE0, 0xE5, "a"},    {0xE6, 0xE6, "ae"},
    {0xE7, 0xE7, "c"},   {0xE8, 0xEB, "e"},   {0xEC, 0xEF, "i"},   {0xF0, 0xF0, "d"},    {0xF1, 0xF1, "n"},
    {0xF2, 0xF6, "o"},   {0xF8, 0xF8, "o"},   {0xF9, 0xFC, "u"},   {0xFD, 0xFD, "y"},    {0xFE, 0xFE, "th"},
    {0xFF, 0xFF, "y"},   {0x100, 0x105, "a"}, {0x106, 0x10D, "c"}, {0x10E, 0x111, "d"},  {0x112, 0x11B, "e"},
    {0x11C, 0x123, "g"}, {0x124, 0x127, "h"}, {0x128, 0x131, "i"}, {0x132, 0x133, "ij"}, {0x134, 0x135, "j"},
    {0x136, 0x138, "k"}, {0x139, 0x142, "l"}, {0x143, 0x14B, "n"}, {0x14C, 0x151, "o"},  {0x152, 0x153, "oe"},
    {0x154, 0x159, "r"}, {0x15A, 0x161, "s"}, {0x162, 0x167, "t"}, {0x168, 0x173, "u"},  {0x174, 0x175, "w"},
    {0x176, 0x178, "y"}, {0x179, 0x17E, "z"}, {0x17F, 0x17F, "s"},
};

std::string_view fold_of(char32_t cp) {
    for (const auto& r : k_folds) {
        if (cp >= r.first && cp <= r.last) return r.ascii;
    }
    return {};
}

bool is_space_byte(unsigned char c) { return c <= 0x20 || c == 0x7F; }

// Appends one unit of `text` at `i` (an ASCII byte, a folded two-byte letter or raw bytes) and advances `i`.
void append_folded(std::string_view text, std::size_t& i, std::string& out, bool& pending_space) {
    auto c = static_cast<unsigned char>(text[i]);
    bool two_byte =
        c >= 0xC2 && c <= 0xDF && i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80;
    char32_t cp = two_byte ? ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu) : c;
    if (is_space_byte(c) || (two_byte && cp == 0xA0)) {
        pending_space = !out.empty();
        i += two_byte ? 2 : 1;
        return;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    if (c < 0x80) {
        out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c));
    } else if (auto folded = two_byte ? fold_of(cp) : std::string_view{}; !folded.empty()) {
        out.append(folded);
    } else {
        out.append(text.substr(i, two_byte ? 2 : 1));
    }
    i += two_byte ? 2 : 1;
}

bool is_title(std::string_view token) {
    static constexpr std::array<std::string_view, 10> k_titles = {"dr",   "mr",   "mrs", "ms",   "prof",
                                                                  "herr", "frau", "mme", "mlle", "sir"};
    return std::find(k_titles.begin(), k_titles.end(), token) != k_titles.end();
}

// "Mueller" is how devices without umlauts write "Müller", which fold_text() makes "muller": dropping the e of
// ae/oe/ue makes all three spellings one token. Applied to both sides, it only merges names differing that way.
std::string german_vowels_folded(const std::string& token) {
    std::string out;
    for (std::size_t i = 0; i < token.size(); ++i) {
        out.push_back(token[i]);
        bool vowel = token[i] == 'a' || token[i] == 'o' || token[i] == 'u';
        if (vowel && i + 1 < token.size() && token[i + 1] == 'e') ++i;
    }
    return out;
}

std::string join(const std::vector<std::string>& tokens) {
    std::string out;
    for (const auto& t : tokens) {
        if (!out.empty()) out.push_back(' ');
        out += t;
    }
    return out;
}

std::string structured_tokens(const structured_name& n, bool with_additional) {
    std::string text = n.given + " " + n.family;
    if (with_additional) text += " " + n.additional;
    return join(name_tokens(text));
}

std::string contact_name(const contact& value, bool with_additional) {
    if (value.name) {
        std::string s = structured_tokens(*value.name, with_additional);
        if (!s.empty()) return s;
    }
    std::string s = join(name_tokens(value.formatted_name));
    if (!s.empty() || value.organization.empty()) return s;
    return join(name_tokens(value.organization.front()));
}

}  // namespace

std::string fold_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool pending_space = false;
    for (std::size_t i = 0; i < text.size();) append_folded(text, i, out, pending_space);
    return out;
}

std::vector<std::string> name_tokens(std::string_view text) {
    std::string folded = fold_text(text);
    std::vector<std::string> tokens;
    std::string current;
    auto flush = [&] {
        if (current.size() > 1 && !is_title(current)) tokens.push_back(german_vowels_folded(current));
        current.clear();
    };
    for (char c : folded) {
        if (c == ' ' || c == ',' || c == '.' || c == '-' || c == '"' || c == '\'' || c == ';' || c == '(' || c == ')') {
            flush();
        } else {
            current.push_back(c);
        }
    }
    flush();
    std::sort(tokens.begin(), tokens.end());
    return tokens;
}

std::string normalized_name(const contact& value) { return contact_name(value, true); }

std::string normalized_short_name(const contact& value) { return contact_name(value, false); }

std::string normalized_email(std::string_view email) {
    std::string out = fold_text(email);
    out.erase(std::remove(out.begin(), out.end(), ' '), out.end());
    if (out.rfind("mailto:", 0) == 0) out.erase(0, 7);
    return out;
}

std::string normalized_summary(std::string_view summary) { return fold_text(summary); }

std::string normalized_memo_text(std::string_view text) { return fold_text(text); }

std::string hash_key(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;
    for (char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    static constexpr char k_hex[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = k_hex[h & 0xF];
    return out;
}

}  // namespace syncml::matching
