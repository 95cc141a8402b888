#pragma once
// Content lines as text, for callers that check, compare or split vCard and iCalendar text without decoding it
// (the DAV structure check and property lookups, comparison digests, export files). read_content_lines is the
// decoding reader; here a line ends at LF, a CR before the LF goes, and nothing else is changed.

#include <string>
#include <string_view>
#include <vector>

namespace syncml::matching {

struct text_line_options {
    bool unfold = true;      // a line starting with space or tab continues the one before, without that character
    bool keep_empty = true;  // empty lines stay (a fold line after one continues it)
};

std::vector<std::string> text_lines(std::string_view text, text_line_options options);

// The property name of a content line, without group and parameters, upper case ("TEL" for "item1.TEL;HOME:1").
std::string text_line_name(std::string_view line);
// What follows the first ':' of a content line; empty when there is none.
std::string text_line_value(std::string_view line);

}  // namespace syncml::matching
