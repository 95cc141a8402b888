#pragma once
// Error values of the item codecs: parsing untrusted device data fails often and is not exceptional.

#include <string>
#include <utility>
#include <variant>

namespace syncml::matching {

enum class item_errc {
    unknown_format,  // the data matches no supported dialect
    malformed,       // structure broken beyond recovery (no BEGIN, bad content line, ...)
    invalid_value,   // a property value the dialect does not allow where the model needs it
    unsupported,     // the conversion asked for makes no sense (a contact to iCalendar, ...)
};

struct item_error {
    item_errc code = item_errc::malformed;
    std::string message;
    int line = 0;  // 1-based physical line of the input, 0 when not tied to a line

    // "line 12: <message>" so operators can find the spot in the device's item.
    std::string to_string() const;
};

// Minimal expected<T, item_error>: std::expected is C++23 and g++ 12 lacks it in C++20 mode.
template <class T>
class result {
  public:
    result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    result(item_error error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool has_value() const { return v_.index() == 0; }
    explicit operator bool() const { return has_value(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const item_error& error() const { return std::get<1>(v_); }

  private:
    std::variant<T, item_error> v_;
};

}  // namespace syncml::matching
