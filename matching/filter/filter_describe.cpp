#include "matching/filter/filter_describe.hpp"

#include <array>

#include "matching/calendar/calendar_values.hpp"

namespace syncml::matching {
namespace {

constexpr std::size_t k_max_value_shown = 40;

std::string_view op_name(compare_op op) {
    static constexpr std::array<std::string_view, 8> k_names = {"EQ", "NE", "LT", "GT", "LE", "GE", "CON", "NCON"};
    return k_names[static_cast<std::size_t>(op)];
}

void quote(std::string& out, std::string_view text) {
    out += '"';
    for (std::size_t i = 0; i < text.size() && i < k_max_value_shown; ++i) {
        char c = text[i];
        if (c == '"' || c == '\\') out += '\\';
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    }
    if (text.size() > k_max_value_shown) out += "...";
    out += '"';
}

// Names reach the model from the network too (a field filter's DevInf properties): only name characters pass.
void name(std::string& out, std::string_view text) {
    for (std::size_t i = 0; i < text.size() && i < k_max_value_shown; ++i) {
        char c = text[i];
        bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        out += plain ? c : '?';
    }
}

void describe_term(std::string& out, const comparison& t) {
    name(out, t.property.name);
    if (!t.property.sub_field.empty()) {
        out += '.';
        name(out, t.property.sub_field);
    }
    if (!t.property.param_name.empty()) {
        out += '[';
        name(out, t.property.param_name);
        if (!t.property.param_value.empty()) {
            out += "=";
            quote(out, t.property.param_value);
        }
        out += "]";
    }
    out += ' ';
    if (t.case_insensitive) out += 'i';
    out += op_name(t.op);
    out += ' ';
    if (t.null_value) {
        out += "NULL";
    } else {
        quote(out, t.value);
    }
}

// Stops descending once the text is long enough to be cut anyway, so the cost is bounded by `budget`.
void describe_node(std::string& out, const filter_expression& e, std::uint32_t index, int depth, std::size_t budget) {
    const filter_node& node = e.nodes[index];
    if (node.kind == node_kind::comparison) return describe_term(out, node.term);
    if (depth >= k_max_filter_depth) {
        out += "(...)";
        return;
    }
    out += '(';
    for (std::size_t i = 0; i < node.children.size() && out.size() <= budget; ++i) {
        if (i) out += node.kind == node_kind::all_of ? " & " : " | ";
        if (node.children[i] < index) {
            describe_node(out, e, node.children[i], depth + 1, budget);
        } else {
            out += "?";
        }
    }
    out += ')';
}

void describe_bound(std::string& out, const std::optional<window_bound>& bound) {
    if (!bound) return;
    if (bound->relative) {
        out += "now";
        if (bound->days >= 0) out += '+';
        out += std::to_string(bound->days) + "d";
    } else {
        out += format_date_time(from_epoch_seconds(bound->seconds, true, ""));
    }
}

}  // namespace

std::string describe(const item_filter& filter, std::size_t max_length) {
    const auto& r = filter.record;
    const auto& f = filter.fields;
    bool empty = r.where.empty() && r.windows.empty() && !r.max_items && !r.kind && f.empty();
    if (empty) return "none";
    std::string out = r.semantics == filter_semantics::inclusive ? "inclusive" : "exclusive";
    if (!r.where.empty() && r.where.root < r.where.nodes.size()) {
        out += " where=";
        describe_node(out, r.where, r.where.root, 0, max_length);
    }
    for (const auto& w : r.windows) {
        if (out.size() > max_length) break;
        out += w.field == window_field::span ? " span=[" : " modified=[";
        describe_bound(out, w.from);
        out += ',';
        describe_bound(out, w.to);
        out += ')';
    }
    if (r.max_items) out += " limit=" + std::to_string(*r.max_items);
    if (r.kind) out += " kind=" + std::string(common::datastore_name(*r.kind));
    for (std::size_t i = 0; i < f.exclude.size() && out.size() <= max_length; ++i) {
        out += i ? "," : " exclude=";
        name(out, f.exclude[i]);
    }
    for (std::size_t i = 0; i < f.include.size() && out.size() <= max_length; ++i) {
        out += i ? "," : " include=";
        name(out, f.include[i].property);
        if (f.include[i].max_size) out += ":" + std::to_string(*f.include[i].max_size);
    }
    if (f.max_value_size) out += " maxsize=" + std::to_string(*f.max_value_size);
    for (std::size_t i = 0; i < f.size_limits.size() && out.size() <= max_length; ++i) {
        out += i ? "," : " sizes=";
        name(out, f.size_limits[i].property);
        if (f.size_limits[i].max_size) out += ":" + std::to_string(*f.size_limits[i].max_size);
    }
    if (out.size() > max_length) {
        out.resize(max_length > 3 ? max_length - 3 : 0);
        out += "...";
    }
    return out;
}

}  // namespace syncml::matching
