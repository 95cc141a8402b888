#pragma once
// The files PIM programs exchange, split into items and joined again: a .vcf file into its vCards, an iCalendar
// object into items (the components of one UID together, each with the time zones it names) and back into one
// object with every time zone once. Text only: no conversion, no database.

#include <string>
#include <vector>

namespace syncml::server {

// The vCards of a .vcf text, each with CRLF line ends; text outside BEGIN:VCARD ... END:VCARD is ignored.
std::vector<std::string> split_vcards(const std::string& text);
// The items of an iCalendar text (components with one UID together, each with the time zones it names, wrapped in a
// VCALENDAR).
std::vector<std::string> split_icalendar(const std::string& text);
// One iCalendar object of the components of `items` (each an iCalendar object), time zones once by TZID.
std::string join_icalendar(const std::vector<std::string>& items);

}  // namespace syncml::server
