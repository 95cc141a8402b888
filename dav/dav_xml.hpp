#pragma once
// The XML bodies of DAV requests (PROPFIND, REPORT, PROPPATCH), read with namespaces into a small tree. Hostile
// input is bounded: no DOCTYPE (so no entity expansion), at most k_max_depth levels and k_max_elements elements.

#include <cstddef>
#include <string>
#include <string_view>

#include "common/text/xml_tree.hpp"

namespace syncml::dav {

inline constexpr std::string_view ns_dav = "DAV:";
inline constexpr std::string_view ns_carddav = "urn:ietf:params:xml:ns:carddav";
inline constexpr std::string_view ns_caldav = "urn:ietf:params:xml:ns:caldav";
inline constexpr std::string_view ns_calendarserver = "http://calendarserver.org/ns/";
inline constexpr std::string_view ns_apple = "http://apple.com/ns/ical/";

inline constexpr std::size_t k_max_depth = 32;
inline constexpr std::size_t k_max_elements = 20000;

using common::xml_element;
using common::xml_parse_result;

// common::parse_xml with the limits above.
xml_parse_result parse_xml(std::string_view body);

// Text with &, <, >, " escaped for element content and attribute values; control characters other than tab, CR
// and LF (which XML cannot carry) left out.
std::string xml_escape(std::string_view text);

}  // namespace syncml::dav
