#pragma once
// Small pieces of HTTP header parsing shared by routing, client address and content-coding decisions.

#include <algorithm>
#include <cctype>
#include <string_view>

namespace syncml::server {

// Without the optional white space (spaces, tabs) around a header element (RFC 9110 5.6.3).
inline std::string_view trim_ows(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// ASCII case-insensitive equality, as tokens, media types and field names compare.
inline bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
               return std::tolower(x) == std::tolower(y);
           });
}

}  // namespace syncml::server
