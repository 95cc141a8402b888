#pragma once
// The XML bodies of DAV requests (PROPFIND, REPORT, PROPPATCH), read with namespaces into a small tree. Hostile
// input is bounded: no DOCTYPE (so no entity expansion), at most k_max_depth levels and k_max_elements elements.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::dav {

inline constexpr std::string_view ns_dav = "DAV:";
inline constexpr std::string_view ns_carddav = "urn:ietf:params:xml:ns:carddav";
inline constexpr std::string_view ns_caldav = "urn:ietf:params:xml:ns:caldav";
inline constexpr std::string_view ns_calendarserver = "http://calendarserver.org/ns/";
inline constexpr std::string_view ns_apple = "http://apple.com/ns/ical/";

inline constexpr std::size_t k_max_depth = 32;
inline constexpr std::size_t k_max_elements = 20000;

struct xml_element {
    std::string ns;                                               // namespace URI ("" when none)
    std::string name;                                             // local name
    std::vector<std::pair<std::string, std::string>> attributes;  // local name -> value
    std::string text;                                             // character data directly inside
    std::vector<xml_element> children;

    bool is(std::string_view want_ns, std::string_view want_name) const { return ns == want_ns && name == want_name; }
    const xml_element* child(std::string_view want_ns, std::string_view want_name) const;
    std::string attribute(std::string_view local_name) const;  // "" when absent
    std::string trimmed_text() const;                          // text without surrounding white space
};

struct xml_parse_result {
    std::optional<xml_element> root;
    std::string error;  // set when root is not
};

xml_parse_result parse_xml(std::string_view body);

// Text with &, <, >, " escaped for element content and attribute values; control characters other than tab, CR
// and LF (which XML cannot carry) left out.
std::string xml_escape(std::string_view text);

}  // namespace syncml::dav
