#include "matching/filter/filter_codec.hpp"

#include <array>
#include <charconv>
#include <optional>

#include "matching/filter/filter_cgi.hpp"

namespace syncml::matching {
namespace {

// Stored filters were parsed within the network limits once; these only keep a corrupted row from costing much.
constexpr filter_limits k_stored_limits{.max_length = 1 << 16, .max_depth = k_max_filter_depth, .max_terms = 4096};

constexpr std::array<std::string_view, 8> k_entities = {"EQ", "NE", "LT", "GT", "LE", "GE", "CON", "NCON"};

std::optional<unsigned> number_hex(std::string_view two) {
    unsigned n = 0;
    auto [end, ec] = std::from_chars(two.data(), two.data() + two.size(), n, 16);
    if (two.size() != 2 || ec != std::errc() || end != two.data() + 2) return std::nullopt;
    return n;
}

void escaped(std::string& out, std::string_view value) {
    static constexpr char k_hex[] = "0123456789ABCDEF";
    for (unsigned char c : value) {
        bool special = c == '%' || c == '&' || c == '|' || c == '(' || c == ')' || c == ':' || c < 0x21 || c == 0x7f;
        if (!special) {
            out += static_cast<char>(c);
            continue;
        }
        out += '%';
        out += k_hex[c >> 4];
        out += k_hex[c & 15];
    }
}

// Names in field filters come from the device's DevInf and may hold any character.
std::string unescaped(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto hex = i + 2 < text.size() && text[i] == '%' ? number_hex(text.substr(i + 1, 2)) : std::nullopt;
        out += hex ? static_cast<char>(*hex) : text[i];
        if (hex) i += 2;
    }
    return out;
}

void write_term(std::string& out, const comparison& t) {
    const auto& p = t.property;
    out += p.name;
    if (!p.sub_field.empty()) out += "." + p.sub_field;
    if (!p.param_name.empty()) out += "[" + p.param_name + (p.param_value.empty() ? "" : "=" + p.param_value) + "]";
    out += t.case_insensitive ? "&i" : "&";
    out += k_entities[static_cast<std::size_t>(t.op)];
    out += ';';
    if (t.null_value || t.value.empty()) {
        out += "&NULL;";
    } else {
        escaped(out, t.value);
    }
}

// Children precede their parents (item_filter.hpp), so the depth of this recursion is bounded by the checks the
// parser made; a node that breaks the rule is written as a comparison that never holds.
void write_node(std::string& out, const filter_expression& e, std::uint32_t index, int depth) {
    const filter_node& node = e.nodes[index];
    if (node.kind == node_kind::comparison) return write_term(out, node.term);
    for (std::size_t i = 0; i < node.children.size(); ++i) {
        if (i) out += node.kind == node_kind::all_of ? "&AND;" : "&OR;";
        std::uint32_t child = node.children[i];
        if (child >= index || depth >= k_max_filter_depth) {
            out += "(X-INVALID&EQ;&NULL;&AND;X-INVALID&NE;&NULL;)";
            continue;
        }
        bool group = e.nodes[child].kind != node_kind::comparison;
        if (group) out += '(';
        write_node(out, e, child, depth + 1);
        if (group) out += ')';
    }
}

void write_bound(std::string& out, const std::optional<window_bound>& b) {
    if (!b) {
        out += '-';
    } else if (b->relative) {
        out += "r" + std::to_string(b->days);
    } else {
        out += "a" + std::to_string(b->seconds);
    }
}

template <class T>
std::optional<T> number(std::string_view text) {
    T n{};
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
}

std::optional<std::optional<window_bound>> read_bound(std::string_view text) {
    if (text == "-") return std::optional<window_bound>();
    auto n = number<std::int64_t>(text.substr(text.empty() ? 0 : 1));
    if (!n || (text[0] != 'r' && text[0] != 'a')) return std::nullopt;
    window_bound b;
    b.relative = text[0] == 'r';
    (b.relative ? b.days : b.seconds) = *n;
    return std::optional(b);
}

std::optional<date_window> read_window(std::string_view text) {
    auto first = text.find(' ');
    auto second = first == std::string_view::npos ? first : text.find(' ', first + 1);
    if (second == std::string_view::npos) return std::nullopt;
    auto field = text.substr(0, first);
    auto from = read_bound(text.substr(first + 1, second - first - 1));
    auto to = read_bound(text.substr(second + 1));
    if ((field != "span" && field != "modified") || !from || !to) return std::nullopt;
    return date_window{
        .field = field == "span" ? window_field::span : window_field::last_modified, .from = *from, .to = *to};
}

std::optional<field_rule> read_rule(std::string_view text) {
    auto colon = text.find(':');
    field_rule rule{.property = unescaped(text.substr(0, colon)), .max_size = std::nullopt};
    if (colon != std::string_view::npos) {
        rule.max_size = number<std::size_t>(text.substr(colon + 1));
        if (!rule.max_size) return std::nullopt;
    }
    if (rule.property.empty()) return std::nullopt;
    return rule;
}

// One "key=value" line into `out`; false when the line is not one encode_filter() writes.
bool read_line(std::string_view key, std::string_view value, item_filter& out, std::optional<item_error>& error) {
    auto& r = out.record;
    auto& f = out.fields;
    if (key == "type") {
        auto type = parse_filter_type(value);
        if (!type || value.empty()) return false;
        r.semantics = *type;
    } else if (key == "where") {
        auto parsed = parse_filter_cgi(value, r.semantics, k_stored_limits);
        if (!parsed) {
            error = parsed.error();
            return false;
        }
        r.where = std::move(parsed->record.where);
    } else if (key == "window") {
        auto window = read_window(value);
        if (!window) return false;
        r.windows.push_back(*window);
    } else if (key == "limit" || key == "maxsize") {
        auto n = number<std::size_t>(value);
        if (!n) return false;
        (key == "limit" ? r.max_items : f.max_value_size) = *n;
    } else if (key == "kind") {
        r.kind = common::parse_datastore_name(value);
        if (!r.kind) return false;
    } else if (key == "exclude") {
        if (value.empty()) return false;
        f.exclude.push_back(unescaped(value));
    } else if (key == "include" || key == "size") {
        auto rule = read_rule(value);
        if (!rule) return false;
        (key == "include" ? f.include : f.size_limits).push_back(*rule);
    } else {
        return false;
    }
    return true;
}

}  // namespace

std::string to_cgi(const filter_expression& expression) {
    std::string out;
    if (!expression.empty() && expression.root < expression.nodes.size())
        write_node(out, expression, expression.root, 0);
    return out;
}

std::string encode_filter(const item_filter& filter) {
    const auto& r = filter.record;
    std::string out = r.semantics == filter_semantics::inclusive ? "type=inclusive\n" : "type=exclusive\n";
    if (!r.where.empty()) out += "where=" + to_cgi(r.where) + "\n";
    for (const auto& w : r.windows) {
        out += w.field == window_field::span ? "window=span " : "window=modified ";
        write_bound(out, w.from);
        out += ' ';
        write_bound(out, w.to);
        out += '\n';
    }
    if (r.max_items) out += "limit=" + std::to_string(*r.max_items) + "\n";
    if (r.kind) out += "kind=" + std::string(common::datastore_name(*r.kind)) + "\n";
    if (filter.fields.max_value_size) out += "maxsize=" + std::to_string(*filter.fields.max_value_size) + "\n";
    for (const auto& name : filter.fields.exclude) {
        out += "exclude=";
        escaped(out, name);
        out += '\n';
    }
    for (const auto* rules : {&filter.fields.include, &filter.fields.size_limits}) {
        for (const auto& rule : *rules) {
            out += rules == &filter.fields.include ? "include=" : "size=";
            escaped(out, rule.property);
            if (rule.max_size) out += ":" + std::to_string(*rule.max_size);
            out += '\n';
        }
    }
    return out;
}

result<item_filter> decode_filter(std::string_view text) {
    if (text.size() > k_stored_limits.max_length)
        return item_error{item_errc::invalid_value, "stored filter longer than 64 KiB", 0};
    item_filter out;
    int line_number = 0;
    while (!text.empty()) {
        ++line_number;
        auto end = text.find('\n');
        auto line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (line.empty()) continue;
        auto eq = line.find('=');
        std::optional<item_error> error;
        if (eq == std::string_view::npos || !read_line(line.substr(0, eq), line.substr(eq + 1), out, error)) {
            if (error) return item_error{error->code, error->message, line_number};
            return item_error{item_errc::malformed, "stored filter: unreadable line", line_number};
        }
    }
    return out;
}

}  // namespace syncml::matching
