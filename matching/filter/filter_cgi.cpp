#include "matching/filter/filter_cgi.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string>

#include "common/text/ascii_case.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/filter/filter_values.hpp"
#include "matching/filter/item_span.hpp"

namespace syncml::matching {
namespace {

bool is_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Each operator in its OMA entity spelling and its Synthesis short form; two-character short forms come before
// their one-character prefixes so the first match is the longest.
struct op_spelling {
    std::string_view entity;
    std::string_view short_form;
    compare_op op;
};
constexpr std::array<op_spelling, 8> k_operators = {{{"NE", "<>", compare_op::not_equal},
                                                     {"LE", "<=", compare_op::less_equal},
                                                     {"GE", ">=", compare_op::greater_equal},
                                                     {"EQ", "=", compare_op::equal},
                                                     {"LT", "<", compare_op::less},
                                                     {"GT", ">", compare_op::greater},
                                                     {"CON", "%", compare_op::contains},
                                                     {"NCON", "$", compare_op::not_contains}}};

// Recursive descent over the grammar in filter_cgi.hpp. Recursion only happens at '(' and is bounded by
// max_depth; every other loop advances `pos_`, so the cost is linear in the input.
class cgi_parser {
  public:
    cgi_parser(std::string_view text, const filter_limits& limits, bool prefix)
        : text_(text), limits_(limits), prefix_(prefix) {}

    result<cgi_prefix> run() {
        if (text_.size() > limits_.max_length)
            return fail(item_errc::invalid_value,
                        "filter longer than " + std::to_string(limits_.max_length) + " bytes");
        skip_space();
        std::optional<std::uint32_t> root;
        if (pos_ < text_.size() && !at(')')) root = chain(node_kind::any_of);
        if (error_) return *error_;
        if (pos_ < text_.size() && !(prefix_ && at(')')))
            return fail(item_errc::malformed, at(')') ? "unbalanced ')'" : "expected &AND;, &OR; or the end");
        if (error_) return *error_;
        if (root) out_.record.where.root = *root;
        return cgi_prefix{std::move(out_), pos_};
    }

  private:
    // One level of the grammar: an OR of ANDs (any_of) or an AND of primaries (all_of).
    std::optional<std::uint32_t> chain(node_kind kind) {
        bool is_or = kind == node_kind::any_of;
        std::vector<std::uint32_t> parts;
        do {
            auto part = is_or ? chain(node_kind::all_of) : primary();
            if (error_) return std::nullopt;
            if (part) parts.push_back(*part);
        } while (is_or ? take_or() : take_and());
        return group(kind, std::move(parts));
    }

    std::optional<std::uint32_t> primary() {
        skip_space();
        if (!at('(')) return term();
        if (++depth_ > limits_.max_depth) {
            fail(item_errc::invalid_value, "parentheses nested deeper than " + std::to_string(limits_.max_depth));
            return std::nullopt;
        }
        ++pos_;
        auto inner = chain(node_kind::any_of);
        if (error_) return std::nullopt;
        skip_space();
        if (!at(')')) {
            fail(item_errc::malformed, "missing ')'");
            return std::nullopt;
        }
        ++pos_;
        --depth_;
        return inner;
    }

    std::optional<std::uint32_t> group(node_kind kind, std::vector<std::uint32_t> parts) {
        if (parts.empty()) return std::nullopt;  // only keywords: nothing left to compare
        if (parts.size() == 1) return parts.front();
        return push(filter_node{.kind = kind, .term = {}, .children = std::move(parts)});
    }

    std::uint32_t push(filter_node node) {
        out_.record.where.nodes.push_back(std::move(node));
        return static_cast<std::uint32_t>(out_.record.where.nodes.size() - 1);
    }

    std::optional<std::uint32_t> term() {
        if (++terms_ > limits_.max_terms) {
            fail(item_errc::invalid_value, "more than " + std::to_string(limits_.max_terms) + " terms");
            return std::nullopt;
        }
        comparison t;
        if (!property(t.property) || !comparison_operator(t) || !value(t)) return std::nullopt;
        if (keyword(t)) return std::nullopt;
        if (!check_value(t)) return std::nullopt;
        return push(filter_node{.kind = node_kind::comparison, .term = std::move(t), .children = {}});
    }

    bool property(property_ref& ref) {
        if (take_ci("&LUID;")) {
            fail(item_errc::unsupported, "&LUID; filters are not supported");
            return false;
        }
        std::string_view name = name_at();
        if (name.empty()) return fail_bool(item_errc::malformed, "expected a property name");
        ref.name = canonical_property_name(name);
        while (at('.') || at('[')) {
            if (at('.') && ref.sub_field.empty()) {
                ++pos_;
                ref.sub_field = common::to_upper(name_at());
                if (ref.sub_field.empty() || !sub_field_index(ref.name, ref.sub_field))
                    return fail_bool(item_errc::invalid_value, ref.name + " has no part '" + ref.sub_field + "'");
            } else if (at('[') && ref.param_name.empty()) {
                ++pos_;
                ref.param_name = common::to_upper(name_at());
                if (at('=')) {
                    ++pos_;
                    std::size_t end = text_.find(']', pos_);
                    if (end == std::string_view::npos) end = pos_;
                    ref.param_value = std::string(text_.substr(pos_, end - pos_));
                    pos_ = end;
                }
                bool control = std::any_of(ref.param_value.begin(), ref.param_value.end(),
                                           [](char c) { return static_cast<unsigned char>(c) < 0x20; });
                if (ref.param_name.empty() || !at(']') || control)
                    return fail_bool(item_errc::malformed, "bad [parameter]");
                ++pos_;
            } else {
                return fail_bool(item_errc::malformed, "property part given twice");
            }
        }
        return true;
    }

    bool comparison_operator(comparison& t) {
        skip_space();
        if (at('&')) {
            // Entities are short: looking further for the ';' would make "A&A&A&..." quadratic.
            std::size_t end = text_.substr(pos_, 8).find(';');
            std::string entity =
                end == std::string_view::npos ? std::string() : common::to_upper(text_.substr(pos_ + 1, end - 1));
            end += pos_;
            if (entity.size() > 1 && entity[0] == 'I') {  // no operator itself starts with I
                t.case_insensitive = true;
                entity.erase(0, 1);
            }
            for (const auto& e : k_operators) {
                if (e.entity == entity) {
                    t.op = e.op;
                    pos_ = end + 1;
                    return true;
                }
            }
            return fail_bool(item_errc::malformed, "unknown comparison operator");
        }
        if (at(':') || at('*'))
            return fail_bool(item_errc::unsupported, "filter modifiers ':' and '*' are not supported");
        if (at('^')) {
            t.case_insensitive = true;
            ++pos_;
        }
        for (const auto& e : k_operators) {
            if (text_.substr(pos_).starts_with(e.short_form)) {
                t.op = e.op;
                pos_ += e.short_form.size();
                return true;
            }
        }
        return fail_bool(item_errc::malformed, "expected a comparison operator");
    }

    // Leading and trailing unescaped blanks are layout, not value (XML pretty-printers add them); %20 keeps one.
    bool value(comparison& t) {
        skip_space();
        if (take_ci("&NULL;")) {
            t.null_value = true;
            return true;
        }
        std::size_t keep = 0;
        while (pos_ < text_.size() && !at('&') && !at('|') && !at(')')) {
            char c = text_[pos_];
            int hi = c == '%' && pos_ + 2 < text_.size() ? hex_digit(text_[pos_ + 1]) : -1;
            int lo = hi >= 0 ? hex_digit(text_[pos_ + 2]) : -1;
            if (lo >= 0) {
                t.value += static_cast<char>(hi * 16 + lo);
                pos_ += 3;
            } else {
                t.value += c;
                ++pos_;
                if (is_space(c)) continue;
            }
            keep = t.value.size();
        }
        t.value.resize(keep);
        if (t.value.empty()) t.null_value = true;
        return true;
    }

    bool check_value(const comparison& t) {
        if (t.null_value || t.op == compare_op::contains || t.op == compare_op::not_contains) return true;
        value_kind kind = kind_of_property(t.property.name);
        if (kind == value_kind::date && !parse_date_time(t.value))
            return fail_bool(item_errc::invalid_value, t.property.name + " needs an ISO 8601 date or date-time");
        long long n = 0;
        auto [end, ec] = std::from_chars(t.value.data(), t.value.data() + t.value.size(), n);
        if (kind == value_kind::number && (ec != std::errc() || end != t.value.data() + t.value.size()))
            return fail_bool(item_errc::invalid_value, t.property.name + " needs a number");
        return true;
    }

    // Keywords become settings of the filter; returns true when `t` was one (even when it failed as one).
    bool keyword(const comparison& t) {
        const std::string& name = t.property.name;
        bool known = name == "SINCE" || name == "BEFORE" || name == "LIMIT" || name == "MAXCOUNT" ||
                     name == "MAXSIZE" || name == "NOATT";
        if (!known || !t.property.sub_field.empty() || !t.property.param_name.empty()) return false;
        if (t.op != compare_op::equal || t.null_value) {
            fail(item_errc::invalid_value, name + " takes &EQ; and a value");
        } else if (name == "SINCE" || name == "BEFORE") {
            date_keyword(name == "SINCE", t.value);
        } else if (name == "NOATT") {
            std::string v = common::to_upper(t.value);
            if (v != "0" && v != "FALSE" && v != "NO") add_exclusion("ATTACH");
        } else {
            count_keyword(name, t.value);
        }
        return true;
    }

    void count_keyword(const std::string& name, const std::string& text) {
        std::size_t n = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec != std::errc() || end != text.data() + text.size()) {
            fail(item_errc::invalid_value, name + " needs a number");
        } else if (name == "MAXSIZE") {
            out_.fields.max_value_size = n;
        } else if (n > 0) {
            out_.record.max_items = n;
        }
    }

    void date_keyword(bool since, const std::string& text) {
        auto when = parse_date_time(text);
        if (!when) {
            fail(item_errc::invalid_value, std::string(since ? "SINCE" : "BEFORE") + " needs an ISO 8601 date-time");
            return;
        }
        auto& windows = out_.record.windows;
        if (windows.empty()) windows.push_back(date_window{});
        window_bound bound{.seconds = instant_seconds(*when, {})};
        auto& slot = since ? windows.front().from : windows.front().to;
        if (!slot || (since ? bound.seconds > slot->seconds : bound.seconds < slot->seconds)) slot = bound;
    }

    void add_exclusion(const std::string& name) {
        auto& ex = out_.fields.exclude;
        if (std::find(ex.begin(), ex.end(), name) == ex.end()) ex.push_back(name);
    }

    bool take_and() {
        skip_space();
        if (take_ci("&AND;") || take_ci("&amp;")) return true;
        if (at('&') && !take_ci("&OR;", false)) {
            ++pos_;
            return true;
        }
        return false;
    }

    bool take_or() {
        skip_space();
        if (take_ci("&OR;")) return true;
        if (at('|')) {
            ++pos_;
            return true;
        }
        return false;
    }

    bool take_ci(std::string_view token, bool consume = true) {
        if (text_.size() - pos_ < token.size()) return false;
        for (std::size_t i = 0; i < token.size(); ++i) {
            char a = text_[pos_ + i], b = token[i];
            bool letters = ((a | 0x20) >= 'a' && (a | 0x20) <= 'z') && ((b | 0x20) >= 'a' && (b | 0x20) <= 'z');
            if (a != b && !(letters && (a | 0x20) == (b | 0x20))) return false;
        }
        if (consume) pos_ += token.size();
        return true;
    }

    std::string_view name_at() {
        std::size_t start = pos_;
        while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
        return text_.substr(start, pos_ - start);
    }

    bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
    void skip_space() {
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
    }

    item_error fail(item_errc code, const std::string& what) {
        if (!error_) error_ = item_error{code, "filter: " + what + " at offset " + std::to_string(pos_), 0};
        return *error_;
    }
    bool fail_bool(item_errc code, const std::string& what) {
        fail(code, what);
        return false;
    }

    std::string_view text_;
    const filter_limits& limits_;
    bool prefix_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    std::size_t terms_ = 0;
    item_filter out_;
    std::optional<item_error> error_;
};

}  // namespace

result<item_filter> parse_filter_cgi(std::string_view text, filter_semantics semantics, const filter_limits& limits) {
    auto parsed = cgi_parser(text, limits, false).run();
    if (!parsed) return parsed.error();
    parsed->filter.record.semantics = semantics;
    return std::move(parsed->filter);
}

result<cgi_prefix> parse_filter_cgi_prefix(std::string_view text, const filter_limits& limits) {
    return cgi_parser(text, limits, true).run();
}

}  // namespace syncml::matching
