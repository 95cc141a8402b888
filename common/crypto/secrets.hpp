#pragma once
// Secrets made and compared: nonces and per-process keys from the system's random source, and a comparison of
// secrets whose time tells nothing.

#include <string>
#include <string_view>

namespace syncml::common {

// 16 random letters and digits. Throws std::runtime_error when the random source fails.
std::string random_nonce();
// Comparison whose time does not depend on where the strings differ.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace syncml::common
