// libFuzzer target: vCard parsing and re-serialization must never crash, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "matching/convert/item_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace syncml::matching;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = parse_item(text, item_dialect::vcard21);
    if (!parsed) return 0;
    for (auto target : {item_dialect::vcard21, item_dialect::vcard30, item_dialect::vcard40}) {
        auto out = serialize_item(*parsed, target);
        if (out) (void)parse_item(*out, target);
    }
    return 0;
}
