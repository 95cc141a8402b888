#pragma once
// XML documents read into a small tree with namespaces (expat), for the XML that arrives inside requests and items:
// DAV request bodies (dav/) and SIF items of Funambol clients (matching/sif/). Hostile input is bounded: no DOCTYPE
// (so no entity expansion), and each caller caps the depth and the number of elements for what it reads.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace syncml::common {

struct xml_limits {
    std::size_t max_depth = 32;  // levels of elements, the root counting as one
    std::size_t max_elements = 20000;
};

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

// Text is UTF-8 whatever the document's declared encoding (expat converts ISO-8859-1, UTF-16 and US-ASCII).
xml_parse_result parse_xml(std::string_view body, const xml_limits& limits);

}  // namespace syncml::common
