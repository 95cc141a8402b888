#pragma once
// "Did you mean ...?" for a mistyped name (a setting, an environment variable, a subcommand): the candidate fewest
// edits away, where swapping two neighbouring letters counts as one edit, like inserting, deleting or replacing one.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::common {

// Edits (insert, delete, replace one character, or swap two neighbouring ones) between a and b; optimal string
// alignment distance, case-sensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to word, compared in ASCII lower case, when it is near enough to be a typo of it: at most
// one edit for words of up to 4 characters, two up to 8, three beyond (a word in another case is 0 edits away). The
// first of equally close ones; none when the word is one of the candidates.
std::optional<std::string> closest_word(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace syncml::common
