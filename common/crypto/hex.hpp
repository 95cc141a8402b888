#pragma once
// Bytes as lower-case hex: digests in logs and columns, random tokens and passwords.

#include <string>
#include <string_view>

namespace syncml::common {

// Two lower-case hex digits per byte.
std::string hex_of(std::string_view bytes);

}  // namespace syncml::common
