#pragma once
// A small, strict JSON (RFC 8259) reader for admin API request bodies: objects, arrays, strings, numbers, true,
// false and null; valid UTF-8 only; no duplicate member names, no trailing commas, no comments, nothing after the
// value. Bounded in size and nesting, so a hostile body costs little. (Boost.JSON came with Boost 1.75; Debian 12
// has 1.74.)

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace syncml::server {

struct json_value {
    enum class kind { null, boolean, number, string, array, object };
    kind type = kind::null;
    bool boolean = false;
    std::string text;  // a string's value, or a number's literal as written
    std::vector<json_value> items;
    std::vector<std::pair<std::string, json_value>> members;  // in document order

    // The member named `key` of an object; null for other kinds or a missing member.
    const json_value* find(std::string_view key) const;
    // A number without fraction or exponent that fits in 64 bits.
    std::optional<std::int64_t> integer() const;
};

// What the kinds are called in error messages: "null", "a boolean", "a number", ...
const char* json_kind_name(json_value::kind type);

struct json_limits {
    std::size_t max_bytes = 64 * 1024;
    int max_depth = 16;  // nested objects and arrays
};

struct json_parse_result {
    std::optional<json_value> value;
    std::string error;       // empty when value is set
    std::size_t offset = 0;  // where the error was found, in bytes from the start
};

json_parse_result parse_json(std::string_view text, const json_limits& limits = {});

}  // namespace syncml::server
