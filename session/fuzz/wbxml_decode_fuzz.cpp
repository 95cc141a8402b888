// libFuzzer target: the WBXML decoder must never crash, hang or allocate without bound, and
// whatever it accepts must re-encode to something it accepts again with the same model.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "session/codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace syncml::session;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    decode_limits limits;
    limits.max_input_bytes = 1 << 20;
    auto result = decode(bytes, wire_encoding::wbxml, limits);
    (void)decode_devinf(bytes, limits);
    if (!result) return 0;
    for (auto e : {wire_encoding::xml, wire_encoding::wbxml}) {
        auto again = decode(encode(result.value(), e), e);
        if (!again) std::abort();
        auto expected = result.value();
        expected.encoding = e;
        if (!(again.value() == expected)) std::abort();
    }
    return 0;
}
