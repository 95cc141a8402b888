#include "matching/match/normalize_phone.hpp"

#include <cctype>

namespace syncml::matching {

namespace {

bool ends_number(char c) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return l == 'x' || l == ',' || l == ';' || l == 'p' || l == 'w' || l == 'e' || l == '#';
}

}  // namespace

std::string canonical_phone(std::string_view raw, const phone_options& options) {
    std::string digits;
    bool international = false;
    for (char c : raw) {
        if (ends_number(c)) break;
        if (c == '+' && digits.empty()) international = true;
        if (std::isdigit(static_cast<unsigned char>(c))) digits.push_back(c);
    }
    if (international) return digits;
    if (digits.rfind("00", 0) == 0) return digits.substr(2);
    if (digits.size() > 1 && digits[0] == '0') return options.default_country_code + digits.substr(1);
    return digits;
}

std::string phone_key(std::string_view raw, const phone_options& options) {
    std::string digits = canonical_phone(raw, options);
    if (digits.size() < options.min_digits) return {};
    if (digits.size() > options.significant_digits) digits.erase(0, digits.size() - options.significant_digits);
    return digits;
}

}  // namespace syncml::matching
