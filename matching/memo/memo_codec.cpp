#include "matching/memo/memo_codec.hpp"

#include "common/text/ascii_case.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/content/content_line.hpp"

namespace syncml::matching {

namespace {

std::string first_line(std::string_view body) { return std::string(body.substr(0, body.find('\n'))); }

std::string normalize_newlines(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r') {
            out += '\n';
            if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

bool read_vnote_line(memo& m, const content_line& line) {
    const std::string& n = line.name;
    if (!line.params.empty()) return false;
    if (n == "BODY" && m.body.empty()) return !(m.body = normalize_newlines(unescape_text(line.value))).empty();
    if (n == "SUMMARY" && m.summary.empty()) return !(m.summary = unescape_text(line.value)).empty();
    if (n == "CLASS" && m.class_.empty()) return !(m.class_ = common::to_upper(line.value)).empty();
    if (n == "CATEGORIES" && m.categories.empty()) {
        for (auto& part : split_escaped(line.value, ';')) {
            for (auto& item : split_escaped(part, ',')) m.categories.push_back(unescape_text(item));
        }
        return true;
    }
    if (n == "DCREATED" && !m.created) return (m.created = parse_date_time(line.value)).has_value();
    if (n == "LAST-MODIFIED" && !m.last_modified) return (m.last_modified = parse_date_time(line.value)).has_value();
    return false;
}

}  // namespace

memo parse_plain_memo(std::string_view data) {
    memo m;
    if (data.starts_with("\xEF\xBB\xBF")) data.remove_prefix(3);
    m.body = normalize_newlines(data);
    m.summary = first_line(m.body);
    return m;
}

std::string write_plain_memo(const memo& value) {
    std::string out;
    std::string body = value.body;
    if (!value.summary.empty() && first_line(body) != value.summary) body = value.summary + "\n" + body;
    for (char c : body) {
        if (c == '\n')
            out += "\r\n";
        else
            out += c;
    }
    return out;
}

result<memo> parse_vnote(std::string_view data, const parse_limits& limits) {
    auto lines = read_content_lines(data, limits);
    if (!lines) return lines.error();
    memo m;
    bool open = false;
    for (auto& line : *lines) {
        if (line.name == "BEGIN" && common::iequals(line.value, "VNOTE")) {
            open = true;
            continue;
        }
        if (!open) return item_error{item_errc::malformed, "expected BEGIN:VNOTE, got " + line.name, line.line};
        if (line.name == "END" && common::iequals(line.value, "VNOTE")) break;
        if (line.name == "VERSION") continue;
        line.value = legacy_to_modern_escapes(line.value);
        if (!read_vnote_line(m, line)) m.extra.push_back(property{line.group, line.name, line.params, line.value});
    }
    if (!open) return item_error{item_errc::malformed, "no BEGIN:VNOTE found", 1};
    if (m.summary.empty()) m.summary = first_line(m.body);
    return m;
}

std::string write_vnote(const memo& value) {
    content_writer out(line_syntax::legacy);
    out.write("BEGIN", "VNOTE");
    out.write("VERSION", "1.1");
    if (!value.summary.empty() && value.summary != first_line(value.body)) {
        out.write("SUMMARY", escape_text(value.summary, false));
    }
    out.write("BODY", escape_text(value.body, false));
    if (!value.class_.empty()) out.write("CLASS", value.class_);
    if (!value.categories.empty()) {
        std::string cats;
        for (const auto& c : value.categories) {
            if (!cats.empty()) cats += ';';
            cats += escape_text(c);
        }
        out.write("CATEGORIES", cats);
    }
    if (value.created) out.write("DCREATED", format_date_time(*value.created));
    if (value.last_modified) out.write("LAST-MODIFIED", format_date_time(*value.last_modified));
    for (const auto& p : value.extra) out.write(p.group, p.name, p.params, p.value);
    out.write("END", "VNOTE");
    return out.take();
}

calendar memo_to_journal(const memo& value) {
    calendar cal;
    calendar_component j;
    j.kind = item_kind::memo;
    j.summary = value.summary;
    j.description = value.body;
    j.categories = value.categories;
    j.class_ = value.class_;
    j.created = value.created;
    j.last_modified = value.last_modified;
    for (const auto& p : value.extra) {
        if (p.name == "UID" && p.params.empty() && j.uid.empty())
            j.uid = unescape_text(p.value);
        else
            j.extra.push_back(p);
    }
    cal.components.push_back(std::move(j));
    return cal;
}

std::optional<memo> journal_to_memo(const calendar& cal) {
    if (cal.components.size() != 1 || cal.components[0].kind != item_kind::memo) return std::nullopt;
    const calendar_component& j = cal.components[0];
    memo m;
    m.summary = j.summary;
    m.body = j.description;
    if (!j.summary.empty() && !j.description.starts_with(j.summary)) {
        m.body = j.description.empty() ? j.summary : j.summary + "\n" + j.description;
    }
    m.categories = j.categories;
    m.class_ = j.class_;
    m.created = j.created;
    m.last_modified = j.last_modified;
    m.extra = j.extra;
    if (!j.uid.empty()) m.extra.push_back(property{{}, "UID", {}, escape_text(j.uid)});
    return m;
}

}  // namespace syncml::matching
