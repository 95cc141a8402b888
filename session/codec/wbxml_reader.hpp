#pragma once
// WBXML 1.0-1.3 reader for SyncML and DevInf documents: multi-byte integers, string table,
// inline and table strings, entities, opaque data, SWITCH_PAGE, attributes (skipped), public ids
// as numbers or strings, UTF-8 and the 8-bit charsets phones declare, ISO-8859-x and Windows-125x
// (strings converted to UTF-8; opaque data stays as is).

#include <optional>
#include <string_view>

#include "session/codec/codec.hpp"
#include "session/codec/codec_tree.hpp"
#include "session/codec/wbxml_tokens.hpp"

namespace syncml::session {

struct wbxml_document {
    codec_node root;
    wbxml_doc doc = wbxml_doc::syncml;
    std::optional<syncml_version> version;  // from the public id, when it says
    std::optional<decode_error> error;      // root then holds what was read so far
    std::size_t text_used = 0;              // of the decoded-text budget (codec_budget.hpp)
    std::size_t text_left = 0;
};

wbxml_document read_wbxml(std::string_view bytes, const decode_limits& limits, std::size_t depth_used = 0);

}  // namespace syncml::session
