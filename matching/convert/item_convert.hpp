#pragma once
// Items between the device's format and the canonical stored form, and the key that pairs equal items
// in slow syncs.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matching/convert/item_format.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

// The format items of a datastore kind are stored in: vCard 3.0 (contact), plain text (memo), iCalendar 2.0.
item_dialect canonical_dialect(item_kind kind);

// Converts device data (of `mime`/`version`, sniffed when unknown) to the canonical form of `kind`.
// Data the item codecs cannot read is stored as sent rather than lost.
std::string to_canonical(const std::string& data, std::string_view mime, std::string_view version, item_kind kind);
// The same, but an error for data no other device could use as sent: SIF (declared or sniffed) that does not
// read, or holds another kind of item than `kind`.
result<std::string> canonical_content(const std::string& data, std::string_view mime, std::string_view version,
                                      item_kind kind);
// Converts canonical content to the device's format; unchanged when no conversion applies.
std::string to_device(const std::string& content, std::string_view mime, std::string_view version, item_kind kind);

// Equal for items that differ only in what engines rewrite on every sync (REV, PRODID, DTSTAMP, line
// order, folding), so a repeated slow sync pairs items instead of duplicating them.
std::string comparable_form(std::string_view content);

// Canonical content as an item; nullopt for content the item codecs cannot read (stored as sent).
std::optional<item> parse_canonical(std::string_view content);
// The canonical form of a merged item; nullopt when it cannot be written in that form.
std::optional<std::string> write_canonical(const item& value, std::string_view content_like);
// What the item index stores for one item: every match_keys_of key ("kind:value") and the
// exact-content key ("content:" + comparable_form), which pairs byte-identical resends even of items without
// a name, phone or UID. Sorted, without duplicates.
std::vector<std::string> index_keys(std::string_view content, const item* parsed);
std::string content_key(std::string_view content);

}  // namespace syncml::matching
