// libFuzzer target: SIF parsing and conversion to the other dialects and back must never crash, and whatever the SIF
// codec writes must read back (a device would otherwise get an item it cannot parse).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "matching/convert/item_format.hpp"
#include "matching/sif/sif_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace syncml::matching;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = parse_sif(text);
    if (!parsed) return 0;
    const item_kind kind = kind_of(*parsed);
    auto sif = write_sif(*parsed, kind);
    if (!sif || !parse_sif(*sif)) std::abort();
    for (auto other : {item_dialect::vcard21, item_dialect::vcard30, item_dialect::vcal10, item_dialect::ical20,
                       item_dialect::plain_text}) {
        auto out = serialize_item(*parsed, other);
        if (!out) continue;
        auto back = parse_item(*out, other);
        if (!back) continue;
        auto again = write_sif(*back, kind);
        if (again && !parse_sif(*again)) std::abort();
    }
    return 0;
}
