#include "matching/filter/item_filter.hpp"

#include <algorithm>
#include <charconv>

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/filter/filter_values.hpp"
#include "matching/filter/item_span.hpp"
#include "matching/match/normalize_text.hpp"

namespace syncml::matching {
namespace {

constexpr std::int64_t k_day = 86400;

std::int64_t seconds_of(std::chrono::system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

std::optional<long long> number_of(std::string_view text) {
    long long n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
}

template <class T>
bool ordered(compare_op op, const T& a, const T& b) {
    switch (op) {
        case compare_op::equal:
            return a == b;
        case compare_op::not_equal:
            return a != b;
        case compare_op::less:
            return a < b;
        case compare_op::greater:
            return a > b;
        case compare_op::less_equal:
            return a <= b;
        case compare_op::greater_equal:
            return a >= b;
        default:
            return false;
    }
}

// One value against a positive operator (equal, ordering, contains); the negative ones are handled as "no value
// satisfies the positive one" so that "CATEGORIES not equal Work" excludes a contact with Work among others.
bool satisfies(const comparison& t, compare_op op, const filter_value& v, value_kind kind) {
    std::string item_text = t.case_insensitive ? fold_text(v.text) : v.text;
    std::string wanted = t.case_insensitive ? fold_text(t.value) : t.value;
    if (op == compare_op::contains) return item_text.find(wanted) != std::string::npos;
    if (kind == value_kind::date) {
        auto filter_time = parse_date_time(t.value);
        if (!v.instant || !filter_time) return false;
        return ordered(op, *v.instant, instant_seconds(*filter_time, {}));
    }
    if (kind == value_kind::number) {
        auto a = number_of(v.text), b = number_of(t.value);
        return a && b && ordered(op, *a, *b);
    }
    return ordered(op, item_text, wanted);
}

bool holds(const comparison& t, const item& value) {
    auto values = values_of(value, t.property);
    if (t.null_value) {
        if (t.op == compare_op::equal) return values.empty();
        if (t.op == compare_op::not_equal) return !values.empty();
        return false;
    }
    bool negative = t.op == compare_op::not_equal || t.op == compare_op::not_contains;
    compare_op positive = t.op == compare_op::not_equal      ? compare_op::equal
                          : t.op == compare_op::not_contains ? compare_op::contains
                                                             : t.op;
    value_kind kind = kind_of_property(t.property.name);
    bool any = std::any_of(values.begin(), values.end(),
                           [&](const filter_value& v) { return satisfies(t, positive, v, kind); });
    return negative ? !any : any;
}

bool evaluate(const filter_expression& e, std::uint32_t index, const item& value, int depth) {
    const filter_node& node = e.nodes[index];
    if (node.kind == node_kind::comparison) return holds(node.term, value);
    if (depth >= k_max_filter_depth) return false;
    auto child_holds = [&](std::uint32_t child) { return child < index && evaluate(e, child, value, depth + 1); };
    if (node.kind == node_kind::all_of) return std::all_of(node.children.begin(), node.children.end(), child_holds);
    return std::any_of(node.children.begin(), node.children.end(), child_holds);
}

struct resolved_window {
    std::optional<std::int64_t> from, to;

    bool holds_point(std::int64_t at) const { return (!from || at >= *from) && (!to || at < *to); }
    bool holds(const time_span& s) const {
        if (s.begin == s.end) return holds_point(s.begin);
        return (!to || s.begin < *to) && (!from || s.end > *from);
    }
};

bool inside_span(const item& value, const resolved_window& w) {
    const auto* cal = std::get_if<calendar>(&value);
    if (!cal || cal->components.empty()) return true;
    return std::any_of(cal->components.begin(), cal->components.end(), [&](const calendar_component& c) {
        auto span = component_span(c, cal->timezones);
        return !span || w.holds(*span);
    });
}

bool inside_modified(const item& value, const resolved_window& w) {
    if (const auto* c = std::get_if<contact>(&value)) {
        auto rev = parse_date_time(c->revision);
        return !rev || w.holds_point(instant_seconds(*rev, {}));
    }
    if (const auto* m = std::get_if<memo>(&value))
        return !m->last_modified || w.holds_point(instant_seconds(*m->last_modified, {}));
    const auto& cal = std::get<calendar>(value);
    return std::all_of(cal.components.begin(), cal.components.end(),
                       [&](const calendar_component& c) { return !c.last_modified; }) ||
           std::any_of(cal.components.begin(), cal.components.end(), [&](const calendar_component& c) {
               return c.last_modified && w.holds_point(instant_seconds(*c.last_modified, cal.timezones));
           });
}

bool inside(const date_window& window, const item& value, std::chrono::system_clock::time_point now) {
    resolved_window w;
    if (window.from) w.from = resolve_bound(*window.from, now);
    if (window.to) w.to = resolve_bound(*window.to, now);
    return window.field == window_field::span ? inside_span(value, w) : inside_modified(value, w);
}

// `a` AND `b`: b's nodes appended after a's (their child indices shifted), under a new all_of root.
void and_expressions(filter_expression& a, const filter_expression& b) {
    if (a.empty()) {
        a = b;
        return;
    }
    if (b.empty()) return;
    auto offset = static_cast<std::uint32_t>(a.nodes.size());
    for (auto node : b.nodes) {
        for (auto& child : node.children) child += offset;
        a.nodes.push_back(std::move(node));
    }
    a.nodes.push_back(filter_node{.kind = node_kind::all_of, .term = {}, .children = {a.root, b.root + offset}});
    a.root = static_cast<std::uint32_t>(a.nodes.size() - 1);
}

// The smaller of two optional limits; none only when both are none.
std::optional<std::size_t> tighter(std::optional<std::size_t> a, std::optional<std::size_t> b) {
    if (!b) return a;
    return std::min(a.value_or(*b), *b);
}

void and_records(record_filter& into, const record_filter& other) {
    and_expressions(into.where, other.where);
    into.windows.insert(into.windows.end(), other.windows.begin(), other.windows.end());
    into.max_items = tighter(into.max_items, other.max_items);
    // Only the engine sets a kind, for the collection a device syncs: there is never a second one.
    if (!into.kind) into.kind = other.kind;
}

// Both include lists: the properties in both (either alone: that one).
void and_includes(std::vector<field_rule>& include, const std::vector<field_rule>& other) {
    if (include.empty()) {
        include = other;
    } else if (!other.empty()) {
        std::erase_if(include, [&](const field_rule& r) {
            return std::none_of(other.begin(), other.end(),
                                [&](const field_rule& o) { return o.property == r.property; });
        });
    }
}

void and_fields(field_filter& f, const field_filter& other) {
    for (const auto& name : other.exclude)
        if (std::find(f.exclude.begin(), f.exclude.end(), name) == f.exclude.end()) f.exclude.push_back(name);
    and_includes(f.include, other.include);
    for (const auto& limit : other.size_limits) {
        auto same = std::find_if(f.size_limits.begin(), f.size_limits.end(),
                                 [&](const field_rule& r) { return r.property == limit.property; });
        if (same == f.size_limits.end()) {
            f.size_limits.push_back(limit);
        } else {
            same->max_size = tighter(same->max_size, limit.max_size);
        }
    }
    f.max_value_size = tighter(f.max_value_size, other.max_value_size);
}

}  // namespace

std::optional<filter_semantics> parse_filter_type(std::string_view text) {
    const std::string type = common::to_upper(common::trim(text, common::k_white_space));
    if (type.empty() || type == "EXCLUSIVE") return filter_semantics::exclusive;
    if (type == "INCLUSIVE") return filter_semantics::inclusive;
    return std::nullopt;
}

std::int64_t resolve_bound(const window_bound& bound, std::chrono::system_clock::time_point now) {
    return bound.relative ? seconds_of(now) + bound.days * k_day : bound.seconds;
}

bool matches(const record_filter& filter, const item& value, std::chrono::system_clock::time_point now) {
    if (filter.kind && kind_of(value) != *filter.kind) return false;
    for (const auto& window : filter.windows)
        if (!inside(window, value, now)) return false;
    if (filter.where.empty()) return true;
    return filter.where.root < filter.where.nodes.size() && evaluate(filter.where, filter.where.root, value, 0);
}

void and_into(item_filter& into, const item_filter& other) {
    and_records(into.record, other.record);
    and_fields(into.fields, other.fields);
}

}  // namespace syncml::matching
