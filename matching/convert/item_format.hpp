#pragma once
// Public entry points of the item codecs, used by the protocol engine: map SyncML Meta Types to dialects,
// parse, serialize and convert items between the dialects devices speak.

#include <optional>
#include <string>
#include <string_view>

#include "matching/content/content_line.hpp"
#include "matching/model/item.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

// sifc, sife, sift, sifn: Funambol's SIF-C contacts, SIF-E events, SIF-T tasks and SIF-N notes (sif/sif_codec.hpp).
enum class item_dialect { vcard21, vcard30, vcard40, vcal10, ical20, plain_text, vnote11, sifc, sife, sift, sifn };

// text/x-vcard -> vcard21, text/vcard -> vcard30 (vcard40 with version "4.0"), text/x-vcalendar -> vcal10,
// text/calendar -> ical20, text/plain -> plain_text, text/x-vnote -> vnote11, text/x-s4j-sifc (-sife, -sift, -sifn)
// -> sifc (sife, sift, sifn). Case-insensitive; parameters
// after ';' ignored. A version ("2.1", "3.0", "1.0", "2.0", "1.1") overrides the type's default where the
// type is ambiguous, as devices send text/x-vcard with 3.0 in their CTCap.
std::optional<item_dialect> dialect_from_mime(std::string_view mime_type, std::string_view version = {});
std::string_view mime_of(item_dialect dialect);
std::string_view version_of(item_dialect dialect);  // "2.1", "3.0", "4.0", "1.0", "2.0", "" (plain), "1.1"
std::string_view name_of(item_dialect dialect);     // "vcard21", ... as the syncml-item tool spells them
std::optional<item_dialect> dialect_from_name(std::string_view name);

// Sniffs BEGIN/VERSION lines, or a SIF root element; data with neither is plain_text.
std::optional<item_dialect> detect_dialect(std::string_view data);

// Parses leniently: the data's own VERSION wins over `dialect` within the same family (a "vcard21" item that
// says VERSION:3.0 is read as 3.0), and SIF data is read as SIF whatever `dialect` says. Errors carry a message and
// the input line. Items over `limits` are malformed.
result<item> parse_item(std::string_view data, item_dialect dialect, const parse_limits& limits = {});

// Strictly valid output for `dialect` (CRLF, escaping, folding at 75 octets). UTF-8, except that vCard 2.1 and
// vCalendar 1.0 mark non-ASCII values with CHARSET=UTF-8 and multi-line values with QUOTED-PRINTABLE.
// Fails with item_errc::unsupported when the item's kind has no representation in `dialect`.
result<std::string> serialize_item(const item& value, item_dialect dialect);

// parse_item + serialize_item. Fields `to` cannot express travel as X- properties and come back on the
// reverse conversion.
result<std::string> convert_item(std::string_view data, item_dialect from, item_dialect to);

}  // namespace syncml::matching
