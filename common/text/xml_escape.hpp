#pragma once
// Escaping text for XML. Every writer escapes &, < and >; the rest depends on what its reader must get back, so
// each caller states its rules (session/codec: the exact bytes of SyncML item data; dav/: listings that stay
// parseable whatever a stored item holds).

#include <string>
#include <string_view>

namespace syncml::common {

struct xml_escape_rules {
    bool quote = false;            // '"' as &quot;, for attribute values in double quotes
    bool carriage_return = false;  // CR as &#13;: a parser would turn a literal CR into LF
    bool drop_controls = false;    // leave out the controls XML 1.0 cannot carry (below 0x20 but tab, LF and CR)
};

void append_xml_escaped(std::string_view text, std::string& out, xml_escape_rules rules);
std::string xml_escaped(std::string_view text, xml_escape_rules rules);

}  // namespace syncml::common
