#include "matching/convert/item_convert.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "common/crypto/digest.hpp"
#include "matching/content/text_lines.hpp"
#include "matching/convert/item_format.hpp"
#include "matching/match/match_keys.hpp"

namespace syncml::matching {
namespace {

std::optional<item_dialect> dialect_of(const std::string& data, std::string_view mime, std::string_view version) {
    if (!mime.empty()) {
        if (auto d = dialect_from_mime(mime, version)) return d;
    }
    return detect_dialect(data);
}

bool is_sif(item_dialect d) {
    return d == item_dialect::sifc || d == item_dialect::sife || d == item_dialect::sift || d == item_dialect::sifn;
}

bool volatile_line(const std::string& line) {
    static constexpr std::array<std::string_view, 6> names{"REV",           "PRODID",  "DTSTAMP",
                                                           "LAST-MODIFIED", "CREATED", "X-EVOLUTION-FILE-AS"};
    for (auto name : names) {
        if (line.size() > name.size() && line.compare(0, name.size(), name) == 0 &&
            (line[name.size()] == ':' || line[name.size()] == ';'))
            return true;
    }
    return false;
}

}  // namespace

item_dialect canonical_dialect(item_kind kind) {
    if (kind == item_kind::contact) return item_dialect::vcard30;
    if (kind == item_kind::memo) return item_dialect::plain_text;
    return item_dialect::ical20;
}

std::string to_canonical(const std::string& data, std::string_view mime, std::string_view version, item_kind kind) {
    auto converted = canonical_content(data, mime, version, kind);
    return converted ? std::move(converted.value()) : data;
}

result<std::string> canonical_content(const std::string& data, std::string_view mime, std::string_view version,
                                      item_kind kind) {
    auto from = dialect_of(data, mime, version);
    auto to = canonical_dialect(kind);
    if (!from || *from == to) return data;
    // Journal memos keep their iCalendar form (UID, DTSTART, ...): plain text is only the fallback
    // form for devices that store text.
    if (kind == item_kind::memo && *from == item_dialect::ical20) return data;
    auto converted = convert_item(data, *from, to);
    if (converted) return converted;
    // Stored as sent, SIF would reach vCard and iCalendar devices as XML they cannot read.
    if (is_sif(*from) || is_sif(detect_dialect(data).value_or(item_dialect::plain_text))) return converted.error();
    return data;
}

std::string to_device(const std::string& content, std::string_view mime, std::string_view version, item_kind kind) {
    auto from = detect_dialect(content);
    if (!from) from = canonical_dialect(kind);
    auto to = mime.empty() ? std::nullopt : dialect_from_mime(mime, version);
    if (!to || *to == *from) return content;
    auto converted = convert_item(content, *from, *to);
    return converted ? std::move(converted.value()) : content;
}

std::string comparable_form(std::string_view content) {
    auto lines = text_lines(content, {.keep_empty = false});
    lines.erase(std::remove_if(lines.begin(), lines.end(), volatile_line), lines.end());
    std::sort(lines.begin(), lines.end());
    std::string joined;
    for (const auto& line : lines) joined += line + '\n';
    return common::sha256_hex(joined);
}

std::optional<item> parse_canonical(std::string_view content) {
    auto dialect = detect_dialect(content);
    if (!dialect) return std::nullopt;
    auto parsed = parse_item(content, *dialect);
    if (!parsed) return std::nullopt;
    return std::move(parsed.value());
}

std::optional<std::string> write_canonical(const item& value, std::string_view content_like) {
    auto dialect = detect_dialect(content_like);
    if (!dialect) return std::nullopt;
    auto written = serialize_item(value, *dialect);
    if (!written) return std::nullopt;
    return std::move(written.value());
}

std::string content_key(std::string_view content) { return "content:" + comparable_form(content); }

std::vector<std::string> index_keys(std::string_view content, const item* parsed) {
    std::vector<std::string> keys{content_key(content)};
    if (parsed) {
        for (const auto& key : match_keys_of(*parsed)) keys.push_back(to_string(key));
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

}  // namespace syncml::matching
