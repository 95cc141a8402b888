#include "matching/content/content_line.hpp"

#include <algorithm>
#include <optional>

#include "common/text/ascii_case.hpp"
#include "matching/content/text_codec.hpp"

namespace syncml::matching {

namespace {

enum class value_mode { plain, quoted_printable, base64 };

bool is_fold_start(std::string_view line) { return !line.empty() && (line[0] == ' ' || line[0] == '\t'); }

bool is_blank(std::string_view line) {
    return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t'; });
}

bool is_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '/';
}

// A new property starts with a name and then ';' or ':'; anything else after a value is a broken continuation.
bool looks_like_property_start(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && is_name_char(line[i])) ++i;
    return i > 0 && i < line.size() && (line[i] == ':' || line[i] == ';');
}

// "VERSION" or "ORGANIZER;CN=x" with the ':' missing: a property without value, not a stray text line.
bool looks_like_bare_header(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && is_name_char(line[i])) ++i;
    return i > 0 && (i == line.size() || line[i] == ';') && line.find(':') == std::string_view::npos;
}

bool is_base64_text(std::string_view line) {
    return !line.empty() && std::all_of(line.begin(), line.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
               c == '=';
    });
}

// Physical lines one at a time with a look-ahead of one: a vector of them would cost 16 bytes per input byte for
// a body of line breaks.
class physical_lines {
  public:
    explicit physical_lines(std::string_view data) : data_(data) { scan(); }

    bool done() const { return !has_next_; }
    std::string_view peek() const { return next_; }
    std::string_view next() {
        std::string_view line = next_;
        ++number_;
        scan();
        return line;
    }
    int number() const { return number_; }  // 1-based number of the line next() returned last

  private:
    void scan() {
        has_next_ = pos_ < data_.size();
        if (!has_next_) return;
        std::size_t end = data_.find_first_of("\r\n", pos_);
        if (end == std::string_view::npos) {
            next_ = data_.substr(pos_);
            pos_ = data_.size();
            return;
        }
        next_ = data_.substr(pos_, end - pos_);
        // CR CR LF comes from exports that were converted twice; it is one line break.
        while (data_[end] == '\r' && end + 1 < data_.size() && data_[end + 1] == '\r') ++end;
        if (data_[end] == '\r' && end + 1 < data_.size() && data_[end + 1] == '\n') ++end;
        pos_ = end + 1;
    }

    std::string_view data_;
    std::size_t pos_ = 0;
    std::string_view next_;
    bool has_next_ = false;
    int number_ = 0;
};

// Index of the first ':' not inside a quoted parameter value.
std::size_t find_value_colon(std::string_view line, bool strict) {
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ':' && !quoted)
            return i;
    }
    // An unbalanced quote must not swallow the value: fall back to the first colon.
    return strict ? std::string_view::npos : line.find(':');
}

// The name and parameters may be folded too: joins fold lines until the value's ':' shows up. The quote state
// carries over from piece to piece, so each byte is looked at once (a rescan per fold line was quadratic).
std::string header_line(std::string_view first, physical_lines& lines) {
    std::string text(first);
    bool quoted = false;
    std::size_t i = 0;
    while (true) {
        for (; i < text.size(); ++i) {
            if (text[i] == '"')
                quoted = !quoted;
            else if (text[i] == ':' && !quoted)
                return text;
        }
        if (lines.done() || !is_fold_start(lines.peek())) return text;
        text += lines.next().substr(1);  // may be empty: a fold line of one space
    }
}

// Splits on `sep` outside double quotes; false, with `parts` incomplete, when there are more than `max_parts`.
bool split_unquoted(std::string_view text, char sep, bool keep_quotes, std::size_t max_parts,
                    std::vector<std::string>& parts) {
    parts.assign(1, std::string());
    bool quoted = false;
    for (char c : text) {
        if (c == '"') {
            quoted = !quoted;
            if (keep_quotes) parts.back() += c;
        } else if (c == sep && !quoted) {
            if (parts.size() == max_parts) return false;
            parts.emplace_back();
        } else {
            parts.back() += c;
        }
    }
    return true;
}

bool is_encoding_word(const std::string& upper) {
    return upper == "QUOTED-PRINTABLE" || upper == "BASE64" || upper == "8BIT" || upper == "7BIT" || upper == "B";
}

// nullopt when the parameter has more than `max_values` values.
std::optional<param> parse_param(std::string_view text, std::size_t max_values) {
    if (max_values == 0) return std::nullopt;
    auto eq = text.find('=');
    param p;
    if (eq == std::string_view::npos) {
        std::string word = common::to_upper(text);
        p.name = is_encoding_word(word) ? "ENCODING" : "TYPE";
        p.values.push_back(word);
        return p;
    }
    p.name = common::to_upper(text.substr(0, eq));
    if (!split_unquoted(text.substr(eq + 1), ',', false, max_values, p.values)) return std::nullopt;
    if (p.name == "TYPE" || p.name == "ENCODING" || p.name == "VALUE" || p.name == "CHARSET") {
        for (auto& v : p.values) v = common::to_upper(v);
    }
    if (p.name == "ENCODING" && !p.values.empty() && p.values[0] == "B") p.values[0] = "BASE64";
    return p;
}

// Merges repeated TYPE parameters (TEL;HOME;VOICE) into one. The scan is short: a line has at most
// parse_limits::max_params_per_line parameters.
void add_param(std::vector<param>& params, param p) {
    if (p.name == "TYPE") {
        for (auto& existing : params) {
            if (existing.name != "TYPE") continue;
            existing.values.insert(existing.values.end(), p.values.begin(), p.values.end());
            return;
        }
    }
    params.push_back(std::move(p));
}

// Takes the parameter values from `budget`; fails when they do not fit.
result<content_line> parse_header(std::string_view header, int line_no, std::size_t& budget) {
    const item_error too_many{item_errc::malformed, "too many parameters", line_no};
    content_line out;
    out.line = line_no;
    std::vector<std::string> parts;
    if (!split_unquoted(header, ';', true, budget + 1, parts)) return too_many;
    std::string_view name = parts[0];
    if (auto dot = name.rfind('.'); dot != std::string_view::npos) {
        out.group = std::string(name.substr(0, dot));
        name = name.substr(dot + 1);
    }
    out.name = common::to_upper(name);
    for (std::size_t i = 1; i < parts.size(); ++i) {
        if (parts[i].empty()) continue;
        auto p = parse_param(parts[i], budget);
        if (!p) return too_many;
        budget -= p->values.size();
        add_param(out.params, std::move(*p));
    }
    return out;
}

value_mode mode_of(const content_line& line) {
    const param* enc = find_param(line.params, "ENCODING");
    if (enc == nullptr || enc->values.empty()) return value_mode::plain;
    if (enc->values[0] == "QUOTED-PRINTABLE") return value_mode::quoted_printable;
    if (enc->values[0] == "BASE64") return value_mode::base64;
    return value_mode::plain;
}

std::string newlines_to_escapes(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r' || text[i] == '\n') {
            out += "\\n";
            if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

void erase_param(std::vector<param>& params, std::string_view name) {
    std::erase_if(params, [&](const param& p) { return p.name == name; });
}

void finish_line(content_line& line, std::string& raw, value_mode mode) {
    if (mode == value_mode::base64) {
        std::erase_if(raw, [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
        line.value = std::move(raw);
        return;
    }
    std::string decoded = mode == value_mode::quoted_printable ? decode_quoted_printable(raw) : std::move(raw);
    const param* charset = find_param(line.params, "CHARSET");
    std::string name = charset != nullptr && !charset->values.empty() ? charset->values[0] : std::string();
    auto utf8 = to_utf8(decoded, name);
    if (!utf8) utf8 = to_utf8(decoded, "WINDOWS-1252");
    line.value = newlines_to_escapes(*utf8);
    erase_param(line.params, "CHARSET");
    if (mode == value_mode::quoted_printable || (find_param(line.params, "ENCODING") && mode == value_mode::plain)) {
        erase_param(line.params, "ENCODING");
    }
}

// Decides whether physical line `next` continues the current value and if so appends it to `raw`.
bool continues(value_mode mode, std::string& raw, std::string_view next) {
    if (mode == value_mode::quoted_printable && !raw.empty() && raw.back() == '=') {
        raw.append(1, '\n').append(next);
        return true;
    }
    if (next.empty()) return false;
    if (is_fold_start(next)) {
        raw.append(mode == value_mode::base64 ? next : next.substr(1));
        return true;
    }
    if (mode == value_mode::base64 && is_base64_text(next)) {
        raw.append(next);
        return true;
    }
    bool other_text = !looks_like_property_start(next) && !looks_like_bare_header(next);
    if (other_text || (mode == value_mode::quoted_printable && !looks_like_property_start(next))) {
        raw.append(1, '\n').append(next);  // a raw line break inside a value, as broken peers send
        return true;
    }
    return false;
}

// A content line's text up to the end of its header, split at the ':' that starts its value.
struct property_line {
    std::string text;
    std::size_t colon = 0;

    std::string_view header() const { return std::string_view(text).substr(0, colon); }
    std::string value() const { return text.substr(colon + 1); }
};

// The content line that starts at physical line `line` (a folded header joined), checked for a property name and
// the ':' before its value; a bare header (vCard 2.1 "BEGIN" alone) gets its ':'.
result<property_line> property_text(std::string_view line, physical_lines& lines, int line_no) {
    std::string text = header_line(line, lines);
    auto colon = find_value_colon(text, false);
    if (colon == std::string_view::npos && looks_like_bare_header(text)) {
        text += ':';
        colon = text.size() - 1;
    }
    if (colon == std::string_view::npos || colon == 0) {
        return item_error{item_errc::malformed, "content line without a property name and ':'", line_no};
    }
    // Names are letters, digits and '-' (plus group dots); written back, anything else would be invalid.
    if (!looks_like_property_start(text)) {
        return item_error{item_errc::malformed,
                          "invalid property name in \"" + text.substr(0, std::min<std::size_t>(colon, 80)) + "\"",
                          line_no};
    }
    return property_line{std::move(text), colon};
}

// Parses a header with the parameters left to this line and to the item, and counts the ones it used.
result<content_line> parse_header_within_budget(std::string_view header, int line_no, const parse_limits& limits,
                                                std::size_t& params_used) {
    std::size_t budget = std::min(limits.max_params_per_line, limits.max_params - params_used);
    const std::size_t granted = budget;
    auto parsed = parse_header(header, line_no, budget);
    if (parsed) params_used += granted - budget;
    return parsed;
}

}  // namespace

result<std::vector<content_line>> read_content_lines(std::string_view data, const parse_limits& limits) {
    if (data.starts_with("\xEF\xBB\xBF")) data.remove_prefix(3);
    physical_lines lines(data);
    std::vector<content_line> out;
    bool open = false;
    std::string raw;
    value_mode mode = value_mode::plain;
    std::size_t params_used = 0;
    while (!lines.done()) {
        std::string_view line = lines.next();
        if (open && continues(mode, raw, line)) continue;
        if (open) finish_line(out.back(), raw, mode);
        open = false;
        if (is_blank(line)) continue;
        int line_no = lines.number();
        if (out.size() == limits.max_lines) {
            return item_error{item_errc::malformed,
                              "more than " + std::to_string(limits.max_lines) + " content lines in one item", line_no};
        }
        auto property = property_text(line, lines, line_no);
        if (!property) return property.error();
        auto header = parse_header_within_budget(property->header(), line_no, limits, params_used);
        if (!header) return header.error();
        out.push_back(std::move(*header));
        raw = property->value();
        mode = mode_of(out.back());
        open = true;
    }
    if (open) finish_line(out.back(), raw, mode);
    return out;
}

}  // namespace syncml::matching
