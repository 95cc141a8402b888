#pragma once
// SIF (Sync4j Interchange Format), the XML item formats of Funambol's clients (Outlook plug-in, Android, BlackBerry,
// iPhone, Windows Mobile): SIF-C contacts (text/x-s4j-sifc), SIF-E events (text/x-s4j-sife), SIF-T tasks
// (text/x-s4j-sift) and SIF-N notes (text/x-s4j-sifn). They are read into and written from the item model the vCard
// and iCalendar codecs use, so matching and merge see the same fields whatever the format. Fields are Outlook's;
// where vCard or iCalendar has no property for one, it travels as the X- property Funambol's own vCard and
// vCalendar use for it (X-FUNAMBOL-CHILDREN, X-ANNIVERSARY, ...), so a Funambol client that syncs once in SIF and
// once in vCard sees the same item.

#include <optional>
#include <string>
#include <string_view>

#include "matching/content/content_line.hpp"
#include "matching/model/item.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

// The kind a SIF document's root element names (contact, appointment, task, note), from the start of `data`
// (after a BOM, white space, the XML declaration and comments); nullopt when `data` does not start like one.
std::optional<item_kind> sniff_sif(std::string_view data);

// A SIF-C, SIF-E, SIF-T or SIF-N document. Unknown fields are ignored; data that is no well-formed XML, breaks
// `limits` or has another root is an error, and so is an appointment without a readable Start.
result<item> parse_sif(std::string_view data, const parse_limits& limits = {});

// The SIF document of `kind` for `value`; item_errc::unsupported when the item is of another kind (a task as
// SIF-E). Times go out in UTC where the item's zone is known, all-day events as dates.
result<std::string> write_sif(const item& value, item_kind kind);

}  // namespace syncml::matching
