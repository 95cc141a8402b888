#pragma once
// Text normalizers for slow-sync matching: two devices write the same person, event or memo with different
// case, accents, spacing and name order, and matching must see through that without a fuzzy search.

#include <string>
#include <string_view>
#include <vector>

#include "matching/model/item.hpp"

namespace syncml::matching {

// Lower case; Latin-1 Supplement and Latin Extended-A letters folded to ASCII ("É" -> "e", "ß" -> "ss",
// "Ø" -> "o"); other code points kept as they are; runs of whitespace and control characters become one space;
// trimmed. Invalid UTF-8 bytes are kept, so the result is deterministic for any input.
std::string fold_text(std::string_view text);

// Name tokens: folded, split on spaces, commas, dots, hyphens and quotes, without titles ("dr", "mr", ...)
// and without one-letter initials, with "ae", "oe", "ue" reduced to their first letter (German transliterations
// of umlauts: "Mueller" == "Müller" == "Muller"), sorted. Sorting makes "Smith John", "John Smith" and "Smith, John"
// equal.
std::vector<std::string> name_tokens(std::string_view text);

// The canonical name of a contact: tokens of the structured name (given, additional, family) when it has
// any, else of the formatted name, else of the organisation, joined by one space. Empty when none is set.
std::string normalized_name(const contact& value);
// The same without additional (middle) names; equals normalized_name() when there are none.
std::string normalized_short_name(const contact& value);

// Emails compare case-insensitively as a whole (mail servers treat local parts that way in practice).
std::string normalized_email(std::string_view email);

// Summaries and locations: fold_text().
std::string normalized_summary(std::string_view summary);

// Memo text: fold_text(), which also turns line breaks into single spaces, so a memo that went through a
// device that rewrites line breaks or trims trailing blanks still compares equal.
std::string normalized_memo_text(std::string_view text);

// 16 hex digits of a 64-bit FNV-1a hash: bounded index keys for long values such as whole memo texts.
std::string hash_key(std::string_view text);

}  // namespace syncml::matching
