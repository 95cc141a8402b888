#include "session/codec/xml_writer.hpp"

#include "common/text/xml_escape.hpp"

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

namespace {

// Element text: item data must read back byte for byte, and a literal CR would reach the peer's parser as LF.
// Quotes need no escape outside attribute values.
constexpr common::xml_escape_rules k_item_text{.carriage_return = true};

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
    common::append_xml_escaped(node.text, out, k_item_text);
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
