#pragma once
// The XML layer of SIF, Funambol's item formats: one root element (contact, appointment, task, note) whose children
// are the fields, named as Outlook names its properties, and a few nested groups (Exceptions, Timezone). Fields are
// read by name in any order; unknown ones are ignored. The writer produces the flat UTF-8 documents Funambol clients
// parse, every mapped field present: an empty element tells a client to clear the field, an absent one to keep it.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/text/xml_tree.hpp"
#include "matching/content/content_line.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

// The document's root element; an item_error (malformed) for data that is no well-formed XML, or that breaks the
// limits: at most limits.max_lines elements (one per field as a content line is one per property) nested at most
// limits.max_depth deep.
result<common::xml_element> read_sif_document(std::string_view data, const parse_limits& limits);

// The fields of one element by name (case-insensitive; the first of a repeated name wins). Refers to `element`,
// which must outlive it.
class sif_fields {
  public:
    explicit sif_fields(const common::xml_element& element);

    const common::xml_element* find(std::string_view name) const;
    // The field's text as sent ("" when absent); line breaks are LF.
    std::string text(std::string_view name) const;
    // The text without surrounding white space.
    std::string trimmed(std::string_view name) const;
    // A decimal number; nullopt when absent, empty or no number.
    std::optional<int> number(std::string_view name) const;
    // "1" or "true" (Outlook booleans); false otherwise.
    bool flag(std::string_view name) const;

  private:
    // Orders names ignoring ASCII case without copying them: a document is read with about 150 lookups.
    struct ascii_case_less {
        using is_transparent = void;
        bool operator()(std::string_view a, std::string_view b) const;
    };
    std::map<std::string_view, const common::xml_element*, ascii_case_less> by_name_;
};

class sif_writer {
  public:
    // Starts the document: XML declaration, root and the SIFVersion field Funambol clients check.
    explicit sif_writer(std::string_view root);

    // <name>value</name>, or <name/> for an empty value.
    void field(std::string_view name, std::string_view value);
    void field(std::string_view name, int value) { field(name, std::to_string(value)); }
    void flag(std::string_view name, bool value) { field(name, value ? "1" : "0"); }
    // <name attribute="attribute_value">value</name>
    void field(std::string_view name, std::string_view attribute, std::string_view attribute_value,
               std::string_view value);
    void open(std::string_view name);
    void close(std::string_view name);
    // Closes the root and returns the document.
    std::string finish();

  private:
    std::string root_;
    std::string out_;
};

}  // namespace syncml::matching
