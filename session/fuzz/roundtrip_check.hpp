#pragma once
// The round-trip property both codec fuzzers assert: whatever decodes re-encodes, in either encoding,
// to bytes that decode to the same model. A difference aborts, so libFuzzer keeps the input.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "session/codec/codec.hpp"

namespace syncml::session::fuzz {

// fwrite, not printf: item data may hold NUL bytes.
inline void print(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fputc('\n', stderr);
}

// The limits guard against hostile input, the round trip checks the model: a re-encoding may hold more
// decoded text per input byte (our writer puts repeated strings into the string table), be larger
// (escaping), or spell nested DevInf documents as elements, so it is decoded with room to spare.
inline decode_limits roundtrip_limits(decode_limits limits) {
    limits.max_input_bytes *= 64;
    limits.max_elements *= 4;
    limits.max_model_bytes *= 4;
    limits.text_per_input_byte = limits.element_text_per_input_byte = 1u << 16;
    return limits;
}

inline void check_roundtrip(const message& decoded, const decode_limits& original_limits) {
    const auto limits = roundtrip_limits(original_limits);
    for (auto e : {wire_encoding::xml, wire_encoding::wbxml}) {
        const auto bytes = encode(decoded, e);
        auto again = decode(bytes, e, limits);
        if (!again) {
            std::fprintf(stderr, "re-encoded message does not decode: %s\n", again.error().describe().c_str());
            std::abort();
        }
        auto expected = decoded;
        expected.encoding = e;
        if (!(again.value() == expected)) {
            std::fprintf(stderr, "model changed in the round trip through %s:\n",
                         e == wire_encoding::xml ? "XML" : "WBXML");
            print(encode_xml_pretty(expected));
            std::fprintf(stderr, "----\n");
            print(encode_xml_pretty(again.value()));
            std::abort();
        }
    }
}

inline void check_devinf_roundtrip(const dev_inf& decoded, const decode_limits& original_limits) {
    const auto limits = roundtrip_limits(original_limits);
    for (const auto& bytes : {encode_devinf_xml(decoded), encode_devinf_wbxml(decoded)}) {
        auto again = decode_devinf(bytes, limits);
        if (!again || !(again.value() == decoded)) {
            std::fprintf(stderr, "DevInf changed in the round trip:\n");
            print(encode_devinf_xml_pretty(decoded));
            std::fprintf(stderr, "----\n");
            print(again ? encode_devinf_xml_pretty(again.value()) : again.error().describe());
            std::abort();
        }
    }
}

}  // namespace syncml::session::fuzz
