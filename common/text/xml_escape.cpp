#include "common/text/xml_escape.hpp"

namespace syncml::common {
namespace {

bool forbidden_control(char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r'; }

bool escaped(char c, const xml_escape_rules& rules) {
    switch (c) {
        case '&':
        case '<':
        case '>':
            return true;
        case '"':
            return rules.quote;
        case '\r':
            return rules.carriage_return;
        default:
            return rules.drop_controls && forbidden_control(c);
    }
}

// What stands for an escaped character; empty for a dropped control.
std::string_view replacement(char c) {
    switch (c) {
        case '&':
            return "&amp;";
        case '<':
            return "&lt;";
        case '>':
            return "&gt;";
        case '"':
            return "&quot;";
        case '\r':
            return "&#13;";
        default:
            return {};
    }
}

}  // namespace

void append_xml_escaped(std::string_view text, std::string& out, xml_escape_rules rules) {
    std::size_t run = 0;  // start of the characters not yet appended
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!escaped(text[i], rules)) continue;
        out.append(text.substr(run, i - run));
        out.append(replacement(text[i]));
        run = i + 1;
    }
    out.append(text.substr(run));
}

std::string xml_escaped(std::string_view text, xml_escape_rules rules) {
    std::string out;
    out.reserve(text.size());
    append_xml_escaped(text, out, rules);
    return out;
}

}  // namespace syncml::common
