#pragma once
// ASCII case for protocol words (property names, media types, charsets, namespace URIs, header tokens): bytes
// outside A-Z and a-z, UTF-8 included, are never changed and compare only with themselves, whatever the locale.

#include <string>
#include <string_view>

namespace syncml::common {

std::string to_upper(std::string_view text);
std::string to_lower(std::string_view text);
bool iequals(std::string_view a, std::string_view b);
bool istarts_with(std::string_view text, std::string_view prefix);

}  // namespace syncml::common
