#pragma once
// How much decoded text one document may produce, shared by the XML and WBXML readers. Without it a
// WBXML body of 2-byte string-table references copies the whole table per reference (82 KB of input
// took 300 MB), and nested <Data> elements each copy their whole content as raw source.

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "session/codec/codec.hpp"

namespace syncml::session {

// decode_error::expected when a document would decode to more text than text_budget allows; a nested
// DevInf document failing this way fails the enclosing message (not a silent fallback to bytes).
inline constexpr std::string_view k_text_limit_expected = "decoded text within limit";
inline constexpr std::string_view k_model_limit_expected = "message model within size limit";

class text_budget {
  public:
    text_budget(std::size_t input_size, const decode_limits& limits)
        : total_(std::min(limits.max_text_bytes, scaled(input_size, limits.text_per_input_byte, limits.text_slack))),
          element_(std::min(total_, scaled(input_size, limits.element_text_per_input_byte, limits.text_slack))) {}

    // Takes `more` bytes for an element (or name) already holding `held`; false when a cap would be passed.
    bool take(std::size_t held, std::size_t more) {
        if (held > element_ || more > element_ - held || more > total_ - used_) return false;
        used_ += more;
        return true;
    }

    std::size_t left() const { return total_ - used_; }
    std::size_t used() const { return used_; }

  private:
    static std::size_t scaled(std::size_t size, std::size_t factor, std::size_t slack) {
        constexpr auto k_max = static_cast<std::size_t>(-1);
        if (factor != 0 && size > (k_max - slack) / factor) return k_max;
        return size * factor + slack;
    }

    std::size_t total_;
    std::size_t element_;
    std::size_t used_ = 0;
};

}  // namespace syncml::session
