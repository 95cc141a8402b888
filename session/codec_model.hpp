#pragma once
// Mapping between the element tree (codec_tree.hpp) and the message model, shared by both wire
// encodings. Internal to the codec; the public API is codec.hpp.

#include <optional>
#include <string_view>
#include <variant>

#include "session/codec.hpp"
#include "session/codec_tree.hpp"

namespace syncml::session {

// Tree -> model. `depth` is the nesting already used (nested DevInf documents count against the
// limit). `version_hint` comes from the XML namespace or WBXML public id when VerDTD is unusable.
std::variant<message, decode_error> message_from_tree(const codec_node& root, const decode_limits& limits,
                                                      std::optional<syncml_version> version_hint);
std::variant<sync_hdr, decode_error> header_from_tree(const codec_node& header);
std::variant<dev_inf, decode_error> devinf_from_tree(const codec_node& root);
meta_info meta_from_tree(const codec_node& meta);

// A DevInf document carried as item data bytes (WBXML opaque, or XML escaped as text); nullopt when
// the bytes are not a DevInf document.
std::optional<dev_inf> devinf_from_bytes(std::string_view bytes, const decode_limits& limits, std::size_t depth);

// Model -> tree (namespaces and opaque flags set for the writers).
codec_node tree_from_message(const message& msg);
codec_node tree_from_command(const command& cmd);
codec_node tree_from_devinf(const dev_inf& info);
void add_meta(codec_node& parent, const meta_info& meta);

// Text helpers shared by the mapping files.
std::string_view trimmed(std::string_view text);
std::optional<std::uint64_t> parse_number(std::string_view text);

}  // namespace syncml::session
