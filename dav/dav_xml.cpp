#include "dav/dav_xml.hpp"

#include "common/text/xml_escape.hpp"

namespace syncml::dav {

xml_parse_result parse_xml(std::string_view body) {
    return common::parse_xml(body, {.max_depth = k_max_depth, .max_elements = k_max_elements});
}

std::string xml_escape(std::string_view text) {
    // XML 1.0 cannot carry control characters, escaped or not: one stored item must not make every listing of its
    // collection unreadable.
    return common::xml_escaped(text, {.quote = true, .drop_controls = true});
}

}  // namespace syncml::dav
