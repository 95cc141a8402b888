#pragma once
// A tolerant XML reader for SyncML traffic: BOM, XML declaration, DOCTYPE (with internal subset),
// comments, PIs, CDATA, predefined and numeric entities, namespace prefixes. It keeps character
// data byte-exact (no newline normalisation, control bytes accepted) because phones put raw item
// data there. Unknown entities and stray '<' are kept as text instead of failing the message.

#include <optional>
#include <string_view>

#include "session/codec/codec.hpp"
#include "session/codec/codec_tree.hpp"

namespace syncml::session {

struct xml_document {
    codec_node root;  // after an error: what was read so far (see codec_node::complete)
    std::optional<decode_error> error;
    std::optional<syncml_version> ns_version;  // from xmlns="SYNCML:SYNCML1.x", if declared
    std::size_t text_used = 0;                 // of the decoded-text budget (codec_budget.hpp)
    std::size_t text_left = 0;
};

xml_document read_xml(std::string_view bytes, const decode_limits& limits, std::size_t depth_used = 0);

}  // namespace syncml::session
