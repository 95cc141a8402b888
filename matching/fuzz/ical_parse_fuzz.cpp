// libFuzzer target: iCalendar/vCalendar parsing and conversion both ways must never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "matching/convert/item_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace syncml::matching;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    for (auto from : {item_dialect::ical20, item_dialect::vcal10}) {
        auto parsed = parse_item(text, from);
        if (!parsed) continue;
        for (auto target : {item_dialect::ical20, item_dialect::vcal10}) {
            auto out = serialize_item(*parsed, target);
            if (out) (void)parse_item(*out, target);
        }
    }
    return 0;
}
