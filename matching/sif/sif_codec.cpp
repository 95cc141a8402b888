#include "matching/sif/sif_codec.hpp"

#include <array>
#include <utility>

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "matching/memo/memo_codec.hpp"
#include "matching/sif/sif_document.hpp"
#include "matching/sif/sif_items.hpp"

namespace syncml::matching {
namespace {

constexpr std::array<std::pair<std::string_view, item_kind>, 4> k_roots{{
    {"contact", item_kind::contact},
    {"appointment", item_kind::event},
    {"task", item_kind::task},
    {"note", item_kind::memo},
}};

// Sniffing looks this far: a declaration and a comment or two come before the root.
constexpr std::size_t k_sniff_window = 4096;

std::string_view skip_blanks(std::string_view s) {
    while (!s.empty() && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n')) s.remove_prefix(1);
    return s;
}

// Past a leading "<?...?>" or "<!--...-->"; `s` unchanged when it starts with neither, empty when one is unclosed.
std::string_view skip_prolog_part(std::string_view s) {
    for (auto [open, close] : {std::pair<std::string_view, std::string_view>{"<?", "?>"}, {"<!--", "-->"}}) {
        if (!s.starts_with(open)) continue;
        auto end = s.find(close);
        return end == std::string_view::npos ? std::string_view() : s.substr(end + close.size());
    }
    return s;
}

std::optional<item_kind> kind_of_root(std::string_view name) {
    for (auto [root, kind] : k_roots) {
        if (common::iequals(name, root)) return kind;
    }
    return std::nullopt;
}

std::string_view root_of(item_kind kind) {
    for (auto [root, k] : k_roots) {
        if (k == kind) return root;
    }
    return "note";
}

item_error unsupported(item_kind kind) {
    return item_error{item_errc::unsupported,
                      "the item is no " + std::string(root_of(kind)) + " and cannot be written as its SIF document", 0};
}

}  // namespace

std::optional<item_kind> sniff_sif(std::string_view data) {
    std::string_view head = data.substr(0, k_sniff_window);
    if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
    for (;;) {
        head = skip_blanks(head);
        auto rest = skip_prolog_part(head);
        if (rest.size() == head.size()) break;
        head = rest;
    }
    if (!head.starts_with('<')) return std::nullopt;
    auto end = head.find_first_of(" \t\r\n/>", 1);
    if (end == std::string_view::npos) return std::nullopt;
    auto name = head.substr(1, end - 1);
    // A text memo may start with "<note>" too; a document ends with its root's end tag (or is one empty element).
    auto tail = common::trim(data, {}, common::k_white_space);
    const bool closed = tail.ends_with("/>") ||
                        (tail.size() > name.size() + 3 && tail.ends_with('>') &&
                         common::iequals(tail.substr(tail.size() - name.size() - 3), "</" + std::string(name) + ">"));
    return closed ? kind_of_root(name) : std::nullopt;
}

result<item> parse_sif(std::string_view data, const parse_limits& limits) {
    auto root = read_sif_document(data, limits);
    if (!root) return root.error();
    auto kind = kind_of_root(root->name);
    if (!kind || !root->ns.empty()) {
        return item_error{item_errc::unknown_format,
                          "SIF root element <" + root->name +
                              "> is none of contact, "
                              "appointment, task, note",
                          0};
    }
    const sif_fields fields(*root);
    switch (*kind) {
        case item_kind::contact:
            return item{read_sif_contact(fields)};
        case item_kind::event: {
            auto cal = read_sif_event(fields);
            if (!cal) return cal.error();
            return item{std::move(*cal)};
        }
        case item_kind::task:
            return item{read_sif_task(fields)};
        default:
            return item{read_sif_note(fields)};
    }
}

result<std::string> write_sif(const item& value, item_kind kind) {
    if (const auto* c = std::get_if<contact>(&value)) {
        if (kind != item_kind::contact) return unsupported(kind);
        return write_sif_contact(*c);
    }
    if (const auto* m = std::get_if<memo>(&value)) {
        if (kind != item_kind::memo) return unsupported(kind);
        return write_sif_note(*m);
    }
    const auto& cal = std::get<calendar>(value);
    if (kind == item_kind::memo) {
        auto note = journal_to_memo(cal);
        if (!note) return unsupported(kind);
        return write_sif_note(*note);
    }
    // The master (or only) component of the kind: SIF has no detached occurrences.
    for (const auto& component : cal.components) {
        if (component.kind != kind || component.recurrence_id) continue;
        if (kind == item_kind::event) return write_sif_event(cal, component);
        if (kind == item_kind::task) return write_sif_task(cal, component);
    }
    return unsupported(kind);
}

}  // namespace syncml::matching
