#pragma once
// Trimming with the set of characters named by each caller. The sets differ on purpose (an HTTP header's optional
// white space is space and tab, XML's white space four characters, a config file's line may end in a CR), so there
// is no default: a caller that trims a different set keeps doing so, visibly.

#include <string_view>

namespace syncml::common {

inline constexpr std::string_view k_blanks = " \t";           // space and tab: HTTP OWS, vCard parameter padding
inline constexpr std::string_view k_blanks_and_cr = " \t\r";  // ... and the CR left by splitting CRLF lines at LF
inline constexpr std::string_view k_white_space = " \t\r\n";  // XML white space; what a text file's line may carry

// `text` without the leading and trailing characters that are in `chars`; a view into `text`.
std::string_view trim(std::string_view text, std::string_view chars);
// For callers whose two ends differ: a leading character of `right` that is not in `left` is data.
std::string_view trim(std::string_view text, std::string_view left, std::string_view right);
std::string_view trim_left(std::string_view text, std::string_view chars);
std::string_view trim_right(std::string_view text, std::string_view chars);

}  // namespace syncml::common
