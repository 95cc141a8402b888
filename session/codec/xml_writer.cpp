#include "session/codec/xml_writer.hpp"

namespace syncml::session {

const char* syncml_namespace(syncml_version version) {
    switch (version) {
        case syncml_version::v1_0:
            return "SYNCML:SYNCML1.0";
        case syncml_version::v1_1:
            return "SYNCML:SYNCML1.1";
        case syncml_version::v1_2:
            break;
    }
    return "SYNCML:SYNCML1.2";
}

void append_xml_escaped(std::string_view text, std::string& out) {
    std::size_t pos = 0;
    for (;;) {
        const auto next = text.find_first_of("&<>\r", pos);
        if (next == std::string_view::npos) {
            out.append(text.substr(pos));
            return;
        }
        out.append(text.substr(pos, next - pos));
        switch (text[next]) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            default:
                out += "&#13;";
                break;
        }
        pos = next + 1;
    }
}

namespace {

const char* namespace_uri(codec_ns ns, syncml_version version) {
    switch (ns) {
        case codec_ns::syncml:
            return syncml_namespace(version);
        case codec_ns::metinf:
            return "syncml:metinf";
        case codec_ns::devinf:
            return "syncml:devinf";
        case codec_ns::inherit:
            break;
    }
    return nullptr;
}

}  // namespace

void write_xml(const codec_node& node, syncml_version version, std::string& out, int indent) {
    if (indent >= 0) {
        if (!out.empty()) out += '\n';
        out.append(static_cast<std::size_t>(indent) * 2, ' ');
    }
    out += '<';
    out += node.name;
    if (const char* uri = namespace_uri(node.ns, version)) {
        out += " xmlns=\"";
        out += uri;
        out += '"';
    }
    if (node.text.empty() && node.children.empty()) {
        out += "/>";
        return;
    }
    out += '>';
    append_xml_escaped(node.text, out);
    for (const auto& c : node.children) write_xml(c, version, out, indent >= 0 ? indent + 1 : -1);
    if (indent >= 0 && !node.children.empty()) {
        out += '\n';
        out.append(static_cast<std::size_t>(indent) * 2, ' ');
    }
    out += "</";
    out += node.name;
    out += '>';
}

}  // namespace syncml::session
