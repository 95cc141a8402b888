#pragma once
// Writes a codec_node tree as WBXML 1.2: numeric public id, UTF-8, a string table for strings that
// repeat often enough to pay for it, OPAQUE for nodes marked opaque (item data), SWITCH_PAGE only
// when the code page changes, and DevInf subtrees as nested WBXML documents in OPAQUE.

#include <string>

#include "session/codec/codec_tree.hpp"
#include "session/codec/wbxml_tokens.hpp"

namespace syncml::session {

struct wbxml_write_options {
    bool use_string_table = true;
};

std::string write_wbxml(const codec_node& root, wbxml_doc doc, syncml_version version,
                        const wbxml_write_options& options = {});

}  // namespace syncml::session
