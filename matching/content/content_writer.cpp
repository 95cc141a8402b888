// content_writer and the escaping helpers of content_line.hpp.
#include "common/text/ascii_case.hpp"
#include "matching/content/content_line.hpp"
#include "matching/content/text_codec.hpp"

#include <algorithm>

namespace syncml::matching {

namespace {

// Legacy has no quoting, but an unquoted ':' or ';' would break the line for every reader.
bool needs_quotes(std::string_view value) { return value.find_first_of(":;,") != std::string_view::npos; }

// Legacy values have no \n escape: line breaks become real ones (and so quoted-printable).
std::string modern_to_legacy_text(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (value[i] != '\\' || i + 1 == value.size()) {
            out += value[i];
            continue;
        }
        char next = value[++i];
        if (next == 'n' || next == 'N')
            out += "\r\n";
        else
            out += '\\', out += next;
    }
    return out;
}

bool needs_quoted_printable(std::string_view text, std::size_t header_size) {
    for (unsigned char c : text) {
        if (c < 0x20 || c == 0x7F) return true;
    }
    return header_size + 1 + text.size() > 75;
}

}  // namespace

const param* find_param(const std::vector<param>& params, std::string_view name) {
    for (const auto& p : params) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

bool has_type(const std::vector<param>& params, std::string_view type) {
    for (const auto& p : params) {
        if (p.name != "TYPE") continue;
        for (const auto& v : p.values) {
            if (common::iequals(v, type)) return true;
        }
    }
    return false;
}

std::string legacy_to_modern_escapes(std::string_view value) {
    // Legacy writers escape inconsistently; pairs are kept as they came so that writing them back reproduces
    // the input. Only a dangling backslash needs doubling to stay a literal.
    std::string out(value);
    std::size_t run = 0;
    while (run < out.size() && out[out.size() - 1 - run] == '\\') ++run;
    if (run % 2 == 1) out += '\\';
    return out;
}

std::string escape_text(std::string_view text, bool escape_commas) {
    std::string out;
    out.reserve(text.size() + 8);
    for (char c : text) {
        switch (c) {
            case '\\':
                out += "\\\\";
                break;
            case ';':
                out += "\\;";
                break;
            case ',':
                out += escape_commas ? "\\," : ",";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string unescape_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        char next = text[++i];
        if (next == 'n' || next == 'N')
            out += '\n';
        else if (next == ',' || next == ';' || next == '\\' || next == ':' || next == '"')
            out += next;
        else
            out += '\\', out += next;
    }
    return out;
}

std::vector<std::string> split_escaped(std::string_view value, char sep, std::size_t max_parts) {
    std::vector<std::string> parts(1);
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (value[i] == '\\' && i + 1 < value.size()) {
            parts.back() += value[i];
            parts.back() += value[++i];
        } else if (value[i] == sep && parts.size() < max_parts) {
            parts.emplace_back();
        } else {
            parts.back() += value[i];
        }
    }
    return parts;
}

void content_writer::write_params(std::string& line, const std::vector<param>& params, type_params types) const {
    for (const auto& p : params) {
        if (types == type_params::bare && syntax_ == line_syntax::legacy && p.name == "TYPE") {
            for (const auto& v : p.values) line += ";" + v;
            continue;
        }
        line += ';';
        line += p.name;
        line += '=';
        for (std::size_t i = 0; i < p.values.size(); ++i) {
            if (i > 0) line += ',';
            std::string v = p.values[i];
            std::erase(v, '"');
            std::erase_if(v, [](char c) { return c == '\r' || c == '\n'; });
            if (needs_quotes(v)) v = '"' + v + '"';
            line += v;
        }
    }
}

void content_writer::write(std::string_view group, std::string_view name, const std::vector<param>& params,
                           std::string_view value, type_params types) {
    std::string line;
    if (!group.empty()) line.append(group).append(".");
    line += name;
    write_params(line, params, types);
    if (syntax_ == line_syntax::modern) {
        std::string clean(value);
        std::erase_if(clean, [](char c) { return c == '\r' || c == '\n'; });
        fold(line + ":" + clean);
        return;
    }
    if (find_param(params, "ENCODING") != nullptr) {
        fold(line + ":" + std::string(value));  // base64 text: folding is harmless, QP would corrupt it
        return;
    }
    std::string text = modern_to_legacy_text(value);
    if (!is_ascii(text)) line += ";CHARSET=UTF-8";
    if (!needs_quoted_printable(text, line.size())) {
        fold(line + ":" + text);
        return;
    }
    line += ";ENCODING=QUOTED-PRINTABLE:";
    out_ += line;
    out_ += encode_quoted_printable(text, line.size());
    out_ += "\r\n";
}

void content_writer::write_base64(std::string_view group, std::string_view name, std::vector<param> params,
                                  std::string_view base64) {
    param encoding{"ENCODING", {syntax_ == line_syntax::legacy ? "BASE64" : "b"}};
    auto it = std::find_if(params.begin(), params.end(), [](const param& p) { return p.name == "ENCODING"; });
    if (it != params.end())
        *it = encoding;
    else
        params.insert(params.begin(), encoding);
    std::string line;
    if (!group.empty()) line.append(group).append(".");
    line += name;
    // Binary properties keep TYPE=JPEG even in vCard 2.1: peers such as the Synthesis engine read a bare JPEG
    // on PHOTO as an unknown type and store the picture as TYPE=UNKNOWN.
    write_params(line, params, type_params::named);
    fold(line + ":" + std::string(base64));
    if (syntax_ == line_syntax::legacy) out_ += "\r\n";
}

void content_writer::fold(std::string_view line) {
    std::size_t limit = 75;
    while (line.size() > limit) {
        std::size_t cut = limit;
        while (cut > 1 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
        out_.append(line.substr(0, cut));
        out_ += "\r\n ";
        line.remove_prefix(cut);
        limit = 74;
    }
    out_.append(line);
    out_ += "\r\n";
}

}  // namespace syncml::matching
