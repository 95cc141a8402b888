// libFuzzer target: the XML decoder must never crash, hang or allocate without bound, and whatever it
// accepts must survive re-encoding in both encodings with an equal model (roundtrip_check.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "session/codec/codec.hpp"
#include "session/fuzz/roundtrip_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace syncml::session;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    decode_limits limits;
    limits.max_input_bytes = 1 << 20;
    if (auto info = decode_devinf(bytes, limits)) fuzz::check_devinf_roundtrip(info.value(), limits);
    auto result = decode(bytes, wire_encoding::xml, limits);
    if (result) fuzz::check_roundtrip(result.value(), limits);
    return 0;
}
