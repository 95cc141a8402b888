#pragma once
// The element tree both wire decoders produce and both wire encoders consume. The model mapping
// (codec_model_in/out) works on this tree only, so XML and WBXML share every SyncML rule.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::session {

// Namespace (XML) or code page / document type (WBXML) an element starts; `inherit` elsewhere.
enum class codec_ns : std::uint8_t { inherit, syncml, metinf, devinf };

struct codec_node {
    std::string name;  // local name, prefix stripped
    std::string text;  // character data directly inside the element, entities/strings resolved
    std::vector<codec_node> children;
    // XML only: the undecoded source between the tags of a <Data> with child elements, so unknown
    // embedded markup stays byte-exact.
    std::optional<std::string> raw;
    codec_ns ns = codec_ns::inherit;
    bool opaque = false;     // WBXML: text came as (or must be written as) OPAQUE
    bool complete = false;   // decoders: the end tag / END was read (partial trees after errors)
    std::size_t offset = 0;  // byte offset of the start tag in the input

    const codec_node* child(std::string_view child_name) const {
        for (const auto& c : children)
            if (c.name == child_name) return &c;
        return nullptr;
    }
    codec_node& add(std::string child_name) {
        children.emplace_back();
        children.back().name = std::move(child_name);
        return children.back();
    }
    codec_node& add(std::string child_name, std::string child_text) {
        auto& c = add(std::move(child_name));
        c.text = std::move(child_text);
        return c;
    }
};

}  // namespace syncml::session
