#include "dav/dav_items.hpp"

#include <algorithm>
#include <cctype>

#include "common/text/ascii_case.hpp"
#include "matching/content/text_lines.hpp"
#include "matching/convert/item_convert.hpp"
#include "matching/convert/item_format.hpp"

namespace syncml::dav {
namespace {

using matching::text_line_name, matching::text_line_value;

// Inserts "UID:<guid>" into the first component (VCARD, VEVENT, VTODO, VJOURNAL) that has none.
std::string with_uid(const std::string& text, const std::string& guid) {
    std::size_t depth_component = 0;
    bool in_component = false, has_uid = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string line(text.substr(pos, end - pos));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto name = text_line_name(line);
        const auto value = common::to_upper(text_line_value(line));
        const bool component = value == "VCARD" || value == "VEVENT" || value == "VTODO" || value == "VJOURNAL";
        if (name == "BEGIN" && component && !in_component) {
            in_component = true;
            depth_component = 1;
            has_uid = false;
        } else if (in_component && name == "BEGIN") {
            ++depth_component;
        } else if (in_component && name == "UID" && depth_component == 1) {
            has_uid = true;
        } else if (in_component && name == "END") {
            if (--depth_component == 0) {
                if (has_uid) return text;
                return text.substr(0, pos) + "UID:" + guid + "\r\n" + text.substr(pos);
            }
        }
        pos = end + 1;
    }
    return text;
}

constexpr std::size_t k_max_lines = 20000;  // physical lines of an item a client PUTs

// What a body must be before its lines are looked at: UTF-8 text of a bounded number of lines.
std::string text_error(std::string_view body) {
    if (!valid_utf8(body)) return "not UTF-8";
    for (char c : body) {
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r' && c != '\n')
            return "control characters are not allowed";
    }
    if (std::count(body.begin(), body.end(), '\n') > static_cast<std::ptrdiff_t>(k_max_lines))
        return "more than " + std::to_string(k_max_lines) + " lines";
    return {};
}

// The colon that ends a content line's name and parameters: the first outside double quotes.
std::size_t value_colon(const std::string& line) {
    bool quoted = false;
    for (std::size_t k = 0; k < line.size(); ++k) {
        if (line[k] == '"') quoted = !quoted;
        if (line[k] == ':' && !quoted) return k;
    }
    return std::string::npos;
}

// Line `number` as a content line: a property name of letters, digits, '-', '.' and '_', then a value after `colon`.
std::string content_line_error(const std::string& line, std::size_t colon, std::size_t number) {
    const auto name_end = line.find_first_of(";:");
    if (colon == std::string::npos || name_end == 0) return "line " + std::to_string(number) + " is no content line";
    for (std::size_t k = 0; k < name_end; ++k) {
        const char ch = line[k];
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '.' && ch != '_')
            return "line " + std::to_string(number) + " has no valid property name";
    }
    return {};
}

// Line `i` of `count` against the components `open` so far: one object, BEGIN and END balanced, nothing around it.
std::string nesting_error(std::vector<std::string>& open, const std::string& name, const std::string& value,
                          std::size_t i, std::size_t count) {
    if (name == "BEGIN") {
        if (open.empty() && i != 0) return "data after the end of the object";
        open.push_back(value);
    } else if (name == "END") {
        if (open.empty() || open.back() != value) return "END:" + value + " does not close what is open";
        open.pop_back();
        if (open.empty() && i + 1 != count) return "data after the end of the object";
    } else if (open.empty()) {
        return "a property outside BEGIN/END";
    }
    return {};
}

// The structure RFC 6350 / RFC 5545 require of a whole object, which the lenient item codecs (made for what phones
// send) do not insist on: every line a content line (name, parameters, ':' outside quotes), BEGIN and END balanced
// from the first line to the last. A DAV client that sends less than that sent something else.
std::string structure_error(std::string_view body) {
    if (auto error = text_error(body); !error.empty()) return error;
    auto lines = matching::text_lines(body, {});
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    if (lines.empty()) return "empty body";
    std::vector<std::string> open;
    bool soft_break = false;  // a quoted-printable value continued on the next line (vCard 2.1)
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& line = lines[i];
        if (soft_break) {
            soft_break = !line.empty() && line.back() == '=';
            continue;
        }
        if (line.empty()) continue;
        const auto colon = value_colon(line);
        if (auto error = content_line_error(line, colon, i + 1); !error.empty()) return error;
        const auto value = common::to_upper(line.substr(colon + 1));
        if (auto error = nesting_error(open, text_line_name(line), value, i, lines.size()); !error.empty())
            return error;
        soft_break =
            line.back() == '=' && common::to_upper(line.substr(0, colon)).find("QUOTED-PRINTABLE") != std::string::npos;
    }
    if (!open.empty()) return "END:" + open.back() + " is missing";
    return {};
}

// The component a calendar must take for an item of `kind`; "" for a contact.
std::string_view component_for(matching::item_kind kind) {
    switch (kind) {
        case matching::item_kind::event:
            return "VEVENT";
        case matching::item_kind::task:
            return "VTODO";
        case matching::item_kind::memo:
            return "VJOURNAL";
        case matching::item_kind::contact:
            break;
    }
    return {};
}

bool takes(const collection_info& c, matching::item_kind kind) {
    return c.address_book ? kind == matching::item_kind::contact
                          : kind != matching::item_kind::contact && c.takes(component_for(kind));
}

std::string what_it_takes(const collection_info& c) {
    if (c.address_book) return "VCARD";
    std::string out;
    for (const auto& component : c.components) out += (out.empty() ? "" : ", ") + component;
    return out;
}

}  // namespace

std::string client_body(const collection_info& c, const std::string& canonical, const std::string& guid) {
    std::string body = canonical;
    // A memo a phone sent as text: a calendar's clients get it as a VJOURNAL.
    if (!c.address_book && component_of(canonical).empty())
        body = matching::to_device(canonical, "text/calendar", "2.0", matching::item_kind::memo);
    return with_uid(body, guid);
}

std::string content_type_of(const collection_info& c, const std::string& canonical) {
    if (c.address_book || c.components.size() < 2) return c.content_type;
    const auto component = component_of(canonical);
    return "text/calendar; charset=utf-8; component=" + (component.empty() ? std::string("VJOURNAL") : component);
}

incoming_item read_client_body(const collection_info& c, const std::string& body) {
    incoming_item out;
    auto dialect = matching::detect_dialect(body);
    const bool vcard =
        dialect && (*dialect == matching::item_dialect::vcard21 || *dialect == matching::item_dialect::vcard30 ||
                    *dialect == matching::item_dialect::vcard40);
    const bool icalendar =
        dialect && (*dialect == matching::item_dialect::ical20 || *dialect == matching::item_dialect::vcal10);
    if (c.address_book ? !vcard : !icalendar) {
        out.error = c.address_book ? "not a vCard" : "not an iCalendar object";
        return out;
    }
    if (auto broken = structure_error(body); !broken.empty()) {
        out.error = broken;
        return out;
    }
    auto parsed = matching::parse_item(body, *dialect);
    if (!parsed) {
        out.error = "unreadable: " + parsed.error().to_string();
        return out;
    }
    const auto kind = matching::kind_of(*parsed);
    if (!takes(c, kind)) {
        out.error = "this collection holds only " + what_it_takes(c);
        return out;
    }
    out.canonical = matching::to_canonical(body, "", "", kind);
    auto reparsed = matching::parse_canonical(out.canonical);
    out.keys = matching::index_keys(out.canonical, reparsed ? &*reparsed : nullptr);
    return out;
}

std::optional<std::string> first_property(std::string_view text, std::string_view name) {
    for (const auto& line : matching::text_lines(text, {})) {
        if (text_line_name(line) == name) return text_line_value(line);
    }
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> properties_of(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& line : matching::text_lines(text, {})) {
        if (!line.empty()) out.emplace_back(text_line_name(line), text_line_value(line));
    }
    return out;
}

std::vector<std::string> property_values(std::string_view text, std::string_view name) {
    std::vector<std::string> out;
    for (const auto& line : matching::text_lines(text, {})) {
        if (text_line_name(line) == name) out.push_back(text_line_value(line));
    }
    return out;
}

}  // namespace syncml::dav
