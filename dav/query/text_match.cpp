#include "dav/query/text_match.hpp"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include <vector>

#include "common/text/ascii_case.hpp"

namespace syncml::dav::query {
namespace {

// RFC 5051 2: each character to its simple titlecase mapping, then the whole to NFKD. Text that is not UTF-8 (no
// stored item is, but a filter might be) falls back to the ASCII mapping.
std::string unicode_casemap(std::string_view text) {
    std::u16string titled;
    titled.reserve(text.size());
    for (std::int32_t at = 0, size = static_cast<std::int32_t>(text.size()); at < size;) {
        UChar32 c;
        U8_NEXT(text.data(), at, size, c);
        if (c < 0) return common::to_upper(text);
        c = u_totitle(c);
        UChar units[2];
        std::int32_t n = 0;
        UBool unused = false;
        U16_APPEND(units, n, 2, c, unused);
        (void)unused;
        titled.append(reinterpret_cast<const char16_t*>(units), static_cast<std::size_t>(n));
    }
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2* nfkd = unorm2_getNFKDInstance(&status);
    if (U_FAILURE(status)) return common::to_upper(text);
    const auto* source = reinterpret_cast<const UChar*>(titled.data());
    const auto length = static_cast<std::int32_t>(titled.size());
    std::vector<UChar> normal(titled.size() * 3 + 16);
    auto written =
        unorm2_normalize(nfkd, source, length, normal.data(), static_cast<std::int32_t>(normal.size()), &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) {
        normal.resize(static_cast<std::size_t>(written));
        status = U_ZERO_ERROR;
        written = unorm2_normalize(nfkd, source, length, normal.data(), written, &status);
    }
    if (U_FAILURE(status)) return common::to_upper(text);
    std::string out(static_cast<std::size_t>(written) * 3, '\0');
    std::int32_t bytes = 0;
    status = U_ZERO_ERROR;
    u_strToUTF8(out.data(), static_cast<std::int32_t>(out.size()), &bytes, normal.data(), written, &status);
    if (U_FAILURE(status)) return common::to_upper(text);
    out.resize(static_cast<std::size_t>(bytes));
    return out;
}

}  // namespace

std::optional<collation> collation_named(std::string_view name, collation fallback) {
    if (name.empty()) return fallback;
    if (name == "i;ascii-casemap") return collation::ascii_casemap;
    if (name == "i;octet") return collation::octet;
    if (name == "i;unicode-casemap") return collation::unicode_casemap;
    return std::nullopt;
}

std::string collation_key(std::string_view text, collation by) {
    switch (by) {
        case collation::octet:
            return std::string(text);
        case collation::ascii_casemap:
            return common::to_upper(text);
        case collation::unicode_casemap:
            return unicode_casemap(text);
    }
    return std::string(text);
}

bool text_matches(std::string_view value, const text_match& match) {
    const auto v = collation_key(value, match.by), want = collation_key(match.text, match.by);
    bool hit = false;
    switch (match.type) {
        case match_type::equals:
            hit = v == want;
            break;
        case match_type::contains:
            hit = v.find(want) != std::string::npos;
            break;
        case match_type::starts_with:
            hit = v.starts_with(want);
            break;
        case match_type::ends_with:
            hit = v.ends_with(want);
            break;
    }
    return match.negate ? !hit : hit;
}

}  // namespace syncml::dav::query
