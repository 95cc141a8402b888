#pragma once
// Items between the device's format and the canonical stored form, and the key that pairs equal items
// in slow syncs.

#include <string>
#include <string_view>

namespace syncml::session {

// Converts device data (of `mime`/`version`, sniffed when unknown) to the canonical form of `kind`.
// Data the item codecs cannot read is stored as sent rather than lost.
std::string to_canonical(const std::string& data, std::string_view mime, std::string_view version,
                         std::string_view kind);
// Converts canonical content to the device's format; unchanged when no conversion applies.
std::string to_device(const std::string& content, std::string_view mime, std::string_view version,
                      std::string_view kind);

// Equal for items that differ only in what engines rewrite on every sync (REV, PRODID, DTSTAMP, line
// order, folding), so a repeated slow sync pairs items instead of duplicating them.
std::string match_key(std::string_view content);

}  // namespace syncml::session
