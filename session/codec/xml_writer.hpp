#pragma once
// Writes a codec_node tree as compact XML: no whitespace between elements, xmlns only where a
// node starts a namespace, character data escaped so strict parsers read back the same bytes.

#include <string>

#include "session/codec/codec_tree.hpp"
#include "session/protocol/message.hpp"

namespace syncml::session {

// `version` picks the SyncML namespace URI for nodes whose ns is codec_ns::syncml.
// `indent` >= 0 pretty-prints for people (syncml-msg); -1 writes the compact wire form.
void write_xml(const codec_node& node, syncml_version version, std::string& out, int indent = -1);

const char* syncml_namespace(syncml_version version);

}  // namespace syncml::session
