#include "session/engine/field_filter_codec.hpp"

#include <string>

#include "session/codec/codec_model.hpp"
#include "session/codec/xml_reader.hpp"

namespace syncml::session {

std::optional<std::vector<ct_property>> field_filter_properties(std::string_view data) {
    // The Data was part of a message that passed the decoder's limits; these bound the second read of it.
    decode_limits limits;
    limits.max_depth = 8;
    limits.max_elements = 2'000;
    std::string document = "<Field>";
    document.append(data);
    document += "</Field>";
    auto parsed = read_xml(document, limits);
    if (parsed.error) return std::nullopt;
    std::vector<ct_property> out;
    std::vector<const codec_node*> pending{&parsed.root};
    while (!pending.empty()) {
        const auto* node = pending.back();
        pending.pop_back();
        for (const auto& c : node->children) {
            if (c.name == "Property") {
                auto property = property_of(c);
                if (!property.prop_name.empty()) out.push_back(std::move(property));
            } else {
                pending.push_back(&c);
            }
        }
    }
    if (out.empty()) return std::nullopt;
    return out;
}

}  // namespace syncml::session
