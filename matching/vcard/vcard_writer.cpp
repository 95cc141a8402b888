// Writing the contact model as vCard 2.1, 3.0 or 4.0.
#include "matching/content/content_line.hpp"
#include "matching/content/text_codec.hpp"
#include "matching/vcard/vcard_codec.hpp"

namespace syncml::matching {

namespace {

// Structured components keep commas literal: in 3.0 a comma inside a component separates list values, which
// is how the reader found it.
std::string escape_component(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\\\";
        else if (c == ';')
            out += "\\;";
        else if (c == '\n')
            out += "\\n";
        else if (c != '\r')
            out += c;
    }
    return out;
}

std::string join_components(const std::vector<std::string>& parts) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) out += ';';
        out += escape_component(parts[i]);
    }
    return out;
}

std::string lower(std::string text) {
    for (auto& c : text) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return text;
}

class vcard_writer {
  public:
    explicit vcard_writer(vcard_version version)
        : version_(version),
          out_(version == vcard_version::v21 ? line_syntax::legacy : line_syntax::modern, type_params::bare) {}

    std::string write(const contact& c);

  private:
    std::vector<param> type_params(const std::vector<std::string>& types, bool preferred,
                                   const std::vector<param>& extra) const {
        std::vector<param> params;
        param type{"TYPE", {}};
        for (const auto& t : types) type.values.push_back(version_ == vcard_version::v40 ? lower(t) : t);
        if (preferred && version_ != vcard_version::v40) type.values.push_back("PREF");
        if (!type.values.empty()) params.push_back(std::move(type));
        if (preferred && version_ == vcard_version::v40) params.push_back(param{"PREF", {"1"}});
        params.insert(params.end(), extra.begin(), extra.end());
        return params;
    }

    void write_typed(std::string_view name, const std::vector<typed_value>& values) {
        for (const auto& v : values) {
            out_.write(v.group, name, type_params(v.types, v.preferred, v.extra_params), text(v.value));
        }
    }

    std::string text(std::string_view value) const { return escape_text(value, version_ != vcard_version::v21); }

    void write_text(std::string_view name, const std::string& value) {
        if (!value.empty()) out_.write(name, text(value));
    }

    void write_names(const contact& c);
    void write_addresses(const contact& c);
    void write_photo(const photo& p);
    void write_extra(const property& p);

    vcard_version version_;
    content_writer out_;
};

void vcard_writer::write_names(const contact& c) {
    structured_name n = c.name.value_or(structured_name{});
    out_.write("N", join_components({n.family, n.given, n.additional, n.prefix, n.suffix}));
    if (!c.formatted_name.empty() || version_ != vcard_version::v21) out_.write("FN", text(c.formatted_name));
    write_text("NICKNAME", c.nickname);
}

void vcard_writer::write_addresses(const contact& c) {
    for (const auto& a : c.addresses) {
        out_.write(a.group, "ADR", type_params(a.types, a.preferred, a.extra_params),
                   join_components({a.po_box, a.extended, a.street, a.locality, a.region, a.postal_code, a.country}));
    }
}

void vcard_writer::write_photo(const photo& p) {
    if (!p.uri.empty()) {
        std::vector<param> params;
        if (version_ != vcard_version::v40)
            params.push_back(param{"VALUE", {version_ == vcard_version::v21 ? "URL" : "URI"}});
        if (!p.media_type.empty()) params.push_back(param{"TYPE", {p.media_type}});
        out_.write({}, "PHOTO", params, p.uri);
        return;
    }
    if (version_ == vcard_version::v40) {
        std::string mime = p.media_type.empty() ? "application/octet-stream" : "image/" + lower(p.media_type);
        out_.write("PHOTO", "data:" + mime + ";base64," + encode_base64(p.data));
        return;
    }
    std::vector<param> params;
    if (!p.media_type.empty()) params.push_back(param{"TYPE", {p.media_type}});
    out_.write_base64({}, "PHOTO", params, encode_base64(p.data));
}

void vcard_writer::write_extra(const property& p) {
    const param* enc = find_param(p.params, "ENCODING");
    if (enc != nullptr && !enc->values.empty() && enc->values[0] == "BASE64") {
        out_.write_base64(p.group, p.name, p.params, p.value);
        return;
    }
    out_.write(p.group, p.name, p.params, p.value);
}

std::string vcard_writer::write(const contact& c) {
    out_.write("BEGIN", "VCARD");
    out_.write("VERSION", version_ == vcard_version::v21 ? "2.1" : version_ == vcard_version::v30 ? "3.0" : "4.0");
    write_names(c);
    write_text("UID", c.uid);
    write_typed("TEL", c.phones);
    write_typed("EMAIL", c.emails);
    write_typed("URL", c.urls);
    write_addresses(c);
    if (!c.organization.empty()) out_.write("ORG", join_components(c.organization));
    write_text("TITLE", c.title);
    write_text("ROLE", c.role);
    write_text("BDAY", c.birthday);
    if (!c.categories.empty()) {
        std::string value;
        for (const auto& cat : c.categories) {
            if (!value.empty()) value += ',';
            value += escape_text(cat);
        }
        out_.write("CATEGORIES", value);
    }
    write_text("NOTE", c.note);
    if (c.picture) write_photo(*c.picture);
    write_text("REV", c.revision);
    for (const auto& p : c.extra) write_extra(p);
    out_.write("END", "VCARD");
    return out_.take();
}

}  // namespace

std::string write_vcard(const contact& value, vcard_version version) { return vcard_writer(version).write(value); }

}  // namespace syncml::matching
