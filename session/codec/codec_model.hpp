#pragma once
// Mapping between the element tree (codec_tree.hpp) and the message model, shared by both wire
// encodings. Internal to the codec; the public API is codec.hpp.

#include <optional>
#include <string_view>
#include <variant>

#include "session/codec/codec.hpp"
#include "session/codec/codec_tree.hpp"

namespace syncml::session {

// Tree -> model. `depth` is the nesting already used (nested DevInf documents count against the
// limit). `version_hint` comes from the XML namespace or WBXML public id when VerDTD is unusable.
std::variant<message, decode_error> message_from_tree(const codec_node& root, const decode_limits& limits,
                                                      std::optional<syncml_version> version_hint);
std::variant<sync_hdr, decode_error> header_from_tree(const codec_node& header);
std::variant<dev_inf, decode_error> devinf_from_tree(const codec_node& root);
// Upper bound on the bytes devinf_from_tree(root) allocates for its parts (text is bounded by the readers),
// checked against decode_limits::max_model_bytes before it runs.
std::size_t devinf_model_cost(const codec_node& root);
meta_info meta_from_tree(const codec_node& meta);
// A DevInf <Property> element (CTCap, or an OMA field filter).
ct_property property_of(const codec_node& node);

// A DevInf document carried as item data bytes (WBXML opaque, or XML escaped as text); no `info` when
// the bytes are not a DevInf document. limits.max_text_bytes is what the enclosing message left of its
// decoded-text budget and limits.max_model_bytes what it left of its model budget; `text_used` and
// `model_used` what this document took of them, `over_budget` when it needed more than was left.
struct nested_devinf {
    std::optional<dev_inf> info;
    std::size_t text_used = 0;
    std::size_t model_used = 0;
    bool over_budget = false;
};
nested_devinf devinf_from_bytes(std::string_view bytes, const decode_limits& limits, std::size_t depth);

// Model -> tree (namespaces and opaque flags set for the writers).
codec_node tree_from_message(const message& msg);
codec_node tree_from_command(const command& cmd);
codec_node tree_from_devinf(const dev_inf& info);
void add_meta(codec_node& parent, const meta_info& meta);

// Text helpers shared by the mapping files.
std::string_view trimmed(std::string_view text);
std::optional<std::uint64_t> parse_number(std::string_view text);
// An element's trimmed text: empty, or nullopt, when the element is missing.
std::string text_of(const codec_node* node);
std::optional<std::string> optional_text(const codec_node* node);

}  // namespace syncml::session
