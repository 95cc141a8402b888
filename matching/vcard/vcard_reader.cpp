// Reading vCards into the contact model.
#include "common/text/ascii_case.hpp"
#include "matching/content/content_line.hpp"
#include "matching/content/text_codec.hpp"
#include "matching/vcard/vcard_codec.hpp"

namespace syncml::matching {

namespace {

struct reader_state {
    contact& out;
    bool legacy;
    bool seen_fn = false, seen_n = false, seen_photo = false;
};

std::vector<std::string> components(const std::string& value, std::size_t count) {
    auto parts = split_escaped(value, ';');
    for (auto& p : parts) p = unescape_text(p);
    if (parts.size() < count) parts.resize(count);
    return parts;
}

// TYPE values without PREF; PREF (2.1/3.0 TYPE=PREF or 4.0 PREF=n) sets `preferred`.
void take_types(std::vector<param> params, std::vector<std::string>& types, bool& preferred,
                std::vector<param>& extra) {
    for (auto& p : params) {
        if (p.name == "TYPE") {
            for (auto& v : p.values) {
                if (v == "PREF")
                    preferred = true;
                else
                    types.push_back(v);
            }
        } else if (p.name == "PREF") {
            preferred = true;
        } else {
            extra.push_back(std::move(p));
        }
    }
}

typed_value read_typed(const content_line& line) {
    typed_value v;
    v.group = line.group;
    v.value = unescape_text(line.value);
    take_types(line.params, v.types, v.preferred, v.extra_params);
    return v;
}

address read_address(const content_line& line) {
    address a;
    a.group = line.group;
    take_types(line.params, a.types, a.preferred, a.extra_params);
    auto parts = components(line.value, 7);
    a.po_box = parts[0];
    a.extended = parts[1];
    a.street = parts[2];
    a.locality = parts[3];
    a.region = parts[4];
    a.postal_code = parts[5];
    // Extra components (broken peers) are joined into the country so nothing is dropped.
    a.country = parts[6];
    for (std::size_t i = 7; i < parts.size(); ++i) a.country += ";" + parts[i];
    return a;
}

std::optional<photo> read_photo(const content_line& line) {
    photo p;
    const param* type = find_param(line.params, "TYPE");
    const param* value = find_param(line.params, "VALUE");
    for (const auto& q : line.params) {
        if (q.name != "TYPE" && q.name != "ENCODING" && q.name != "VALUE") return std::nullopt;
    }
    if (type != nullptr && type->values.size() == 1)
        p.media_type = type->values[0];
    else if (type != nullptr)
        return std::nullopt;
    if (find_param(line.params, "ENCODING") != nullptr) {
        auto bytes = decode_base64(line.value);
        if (!bytes) return std::nullopt;
        p.data = std::move(*bytes);
        return p;
    }
    if (value != nullptr && (value->values[0] == "URI" || value->values[0] == "URL")) {
        p.uri = line.value;
        return p;
    }
    std::string_view v = line.value;
    if (v.starts_with("data:") && v.find(";base64,") != std::string_view::npos && type == nullptr) {
        auto comma = v.find(";base64,");
        std::string mime = common::to_upper(v.substr(5, comma - 5));
        p.media_type = mime.starts_with("IMAGE/") ? mime.substr(6) : mime;
        auto bytes = decode_base64(v.substr(comma + 8));
        if (!bytes) return std::nullopt;
        p.data = std::move(*bytes);
        return p;
    }
    return std::nullopt;
}

bool only_params(const content_line& line) { return line.params.empty(); }

std::vector<std::string> split_list(const std::string& value, bool legacy) {
    std::vector<std::string> out;
    for (auto& part : split_escaped(value, ',')) {
        if (!legacy) {
            out.push_back(unescape_text(part));
            continue;
        }
        for (auto& sub : split_escaped(part, ';')) out.push_back(unescape_text(sub));
    }
    return out;
}

// The contact's field that a property with one text value fills; null for other properties.
std::string* text_field(contact& c, std::string_view name) {
    if (name == "NICKNAME") return &c.nickname;
    if (name == "TITLE") return &c.title;
    if (name == "ROLE") return &c.role;
    if (name == "NOTE") return &c.note;
    if (name == "UID") return &c.uid;
    if (name == "REV") return &c.revision;
    if (name == "BDAY") return &c.birthday;
    return nullptr;
}

// Fills an empty field; false when it holds a value already or the property has none.
bool take_text(std::string& field, const content_line& line) {
    if (!field.empty()) return false;
    field = unescape_text(line.value);
    return !field.empty();
}

bool read_name(reader_state& s, const content_line& line) {
    auto parts = components(line.value, 5);
    if (parts.size() > 5) return false;
    structured_name name{parts[0], parts[1], parts[2], parts[3], parts[4]};
    if (name != structured_name{}) s.out.name = name;
    s.seen_n = true;
    return true;
}

bool read_organization(contact& c, const content_line& line) {
    auto org = components(line.value, 1);
    if (org == std::vector<std::string>{""}) return false;
    c.organization = std::move(org);
    return true;
}

// Typed fields take a property only when nothing of it would be lost; otherwise it stays in `extra`.
bool read_singleton(reader_state& s, content_line& line) {
    contact& c = s.out;
    const std::string& n = line.name;
    if (!only_params(line) && n != "PHOTO") return false;
    if (n == "FN" && !s.seen_fn) {
        s.seen_fn = true;
        c.formatted_name = unescape_text(line.value);
        return true;
    }
    if (n == "N" && !s.seen_n) return read_name(s, line);
    if (auto* field = text_field(c, n)) return take_text(*field, line);
    if (n == "ORG" && c.organization.empty()) return read_organization(c, line);
    if (n == "CATEGORIES" && c.categories.empty()) {
        c.categories = split_list(line.value, s.legacy);
        return true;
    }
    if (n == "PHOTO" && !s.seen_photo) {
        c.picture = read_photo(line);
        s.seen_photo = c.picture.has_value();
        return s.seen_photo;
    }
    return false;
}

void read_property(reader_state& s, content_line& line) {
    bool base64 = find_param(line.params, "ENCODING") != nullptr;
    if (s.legacy && !base64) line.value = legacy_to_modern_escapes(line.value);
    const std::string& n = line.name;
    if (n == "TEL") return s.out.phones.push_back(read_typed(line));
    if (n == "EMAIL") return s.out.emails.push_back(read_typed(line));
    if (n == "URL") return s.out.urls.push_back(read_typed(line));
    if (n == "ADR") return s.out.addresses.push_back(read_address(line));
    if (line.group.empty() && read_singleton(s, line)) return;
    s.out.extra.push_back(property{line.group, line.name, std::move(line.params), std::move(line.value)});
}

bool is_legacy(std::string_view version, vcard_version fallback) {
    if (version.empty()) return fallback == vcard_version::v21;
    return version.starts_with("2.") || version.starts_with("1.");
}

std::string version_in(const std::vector<content_line>& lines, std::size_t begin) {
    for (std::size_t i = begin; i < lines.size(); ++i) {
        if (lines[i].name == "END" || (i > begin && lines[i].name == "BEGIN")) break;
        if (lines[i].name == "VERSION") return lines[i].value;
    }
    return {};
}

}  // namespace

result<std::vector<contact>> parse_vcards(std::string_view data, vcard_version fallback, const parse_limits& limits) {
    auto lines = read_content_lines(data, limits);
    if (!lines) return lines.error();
    std::vector<contact> out;
    std::optional<reader_state> state;
    int depth = 0;
    for (std::size_t i = 0; i < lines->size(); ++i) {
        auto& line = (*lines)[i];
        bool is_vcard =
            (line.name == "BEGIN" || line.name == "END") && common::iequals(unescape_text(line.value), "VCARD");
        if (!state) {
            if (line.name == "BEGIN" && is_vcard) {
                out.emplace_back();
                state.emplace(reader_state{out.back(), is_legacy(version_in(*lines, i), fallback)});
                depth = 1;
                continue;
            }
            return item_error{item_errc::malformed, "expected BEGIN:VCARD, got " + line.name, line.line};
        }
        if (line.name == "BEGIN" && is_vcard && ++depth > static_cast<int>(limits.max_depth)) {
            return item_error{item_errc::malformed, "vCards nested deeper than " + std::to_string(limits.max_depth),
                              line.line};
        }
        if (line.name == "END" && is_vcard && --depth == 0) {
            state.reset();
            continue;
        }
        if (line.name == "VERSION" && depth == 1) continue;
        if (depth > 1) {
            state->out.extra.push_back(property{line.group, line.name, std::move(line.params), line.value});
            continue;
        }
        read_property(*state, line);
    }
    if (out.empty()) return item_error{item_errc::malformed, "no BEGIN:VCARD found", 1};
    return out;
}

}  // namespace syncml::matching
