#pragma once
// Phone number normalization: devices store "+49 30 1234567", "0049301234567", "030/123 45 67" and
// "(030) 1234567" for the same line. Comparing the last significant digits matches national against
// international forms without knowing every country's numbering plan.

#include <string>
#include <string_view>

namespace syncml::matching {

struct phone_options {
    // Country calling code (digits, no "+") of a number written in national form (leading trunk "0"). Empty
    // (the default) leaves national numbers without their trunk prefix, which is enough for phone_key();
    // set it per tenant to get full international forms from canonical_phone().
    std::string default_country_code;
    // How many trailing digits identify a line: 9 covers subscriber number plus area code in most plans
    // while ignoring country code and trunk prefix differences.
    std::size_t significant_digits = 9;
    // Numbers shorter than this (service numbers such as "112") give no key: too many people share them.
    std::size_t min_digits = 5;
};

// Digits only, without extension or dialling pauses ("x12", ",", ";", "p", "w" and what follows), and with the
// international prefix ("+" or "00") or national trunk prefix ("0", replaced by default_country_code) removed.
std::string canonical_phone(std::string_view raw, const phone_options& options = {});

// The last `significant_digits` digits of canonical_phone(); empty for numbers with fewer than min_digits.
std::string phone_key(std::string_view raw, const phone_options& options = {});

}  // namespace syncml::matching
