#include "common/text/trim.hpp"

namespace syncml::common {

std::string_view trim_left(std::string_view text, std::string_view chars) {
    const auto first = text.find_first_not_of(chars);
    return first == std::string_view::npos ? std::string_view() : text.substr(first);
}

std::string_view trim_right(std::string_view text, std::string_view chars) {
    const auto last = text.find_last_not_of(chars);
    return last == std::string_view::npos ? std::string_view() : text.substr(0, last + 1);
}

std::string_view trim(std::string_view text, std::string_view chars) {
    return trim_right(trim_left(text, chars), chars);
}

std::string_view trim(std::string_view text, std::string_view left, std::string_view right) {
    return trim_right(trim_left(text, left), right);
}

}  // namespace syncml::common
