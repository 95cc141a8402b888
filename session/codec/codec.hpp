#pragma once
// Bytes <-> message model, for XML and WBXML. Decoding is tolerant (sloppy phones) and bounded
// (limits below); encoding is exact and deterministic. No I/O, no exceptions for bad input.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "session/protocol/message.hpp"

namespace syncml::session {

struct decode_limits {
    std::size_t max_input_bytes = 8u << 20;
    std::size_t max_depth = 64;  // element nesting, nested DevInf documents included
    // Elements over the whole message: ~150 bytes of tree each, so 100,000 is ~15 MB. A message of 20,000
    // MapItems (5 elements each, the densest real content) has 100,000; phones send a few hundred.
    std::size_t max_elements = 100'000;
    // Decoded text of one document (character data, names, raw <Data> copies) is at most
    // text_per_input_byte * input size + text_slack, and that of one element at most
    // element_text_per_input_byte * input size + text_slack (an 8-bit charset turns one input byte into
    // up to 3 UTF-8 bytes; WBXML string-table references are the amplifier this bounds). Over it the
    // message is malformed.
    std::size_t text_per_input_byte = 8;
    std::size_t element_text_per_input_byte = 4;
    std::size_t text_slack = 64 << 10;
    std::size_t max_text_bytes = static_cast<std::size_t>(-1);  // nested documents: what the outer one left
    // The message model built from the tree (commands, items, DevInf parts; text counted above), nested
    // DevInf documents included. A command or an item takes ~4 KB, a 6-byte <Add/> included: without
    // this, 1.2 MB of <Add/> took 1 GB. 24 MB holds 3,000 Adds of one item each (1 MB of 330-byte
    // vCards); clients send 10 to 150 KB per message.
    std::size_t max_model_bytes = 24u << 20;
};

struct decode_error {
    std::size_t offset = 0;                 // byte offset into the input where decoding stopped
    std::string expected;                   // what the decoder expected there, e.g. "</LocURI>", "MsgID in SyncHdr"
    std::optional<wire_encoding> encoding;  // set once the encoding was recognised
    // Set when SyncHdr decoded but the body did not, so the engine can still answer a SyncML error
    // (Status 400/500 on the header) to the right session and MsgID.
    std::optional<sync_hdr> header;
    std::optional<syncml_version> version;
    // VerDTD names a version other than 1.0, 1.1 and 1.2 (the engine answers 505).
    bool unsupported_version = false;

    std::string describe() const;  // "offset 123: expected </LocURI>"
};

class decode_result {
  public:
    decode_result(message msg) : value_(std::move(msg)) {}
    decode_result(decode_error err) : value_(std::move(err)) {}

    bool ok() const { return std::holds_alternative<message>(value_); }
    explicit operator bool() const { return ok(); }
    message& value() { return std::get<message>(value_); }
    const message& value() const { return std::get<message>(value_); }
    const decode_error& error() const { return std::get<decode_error>(value_); }

  private:
    std::variant<message, decode_error> value_;
};

class devinf_result {
  public:
    devinf_result(dev_inf info) : value_(std::move(info)) {}
    devinf_result(decode_error err) : value_(std::move(err)) {}

    bool ok() const { return std::holds_alternative<dev_inf>(value_); }
    explicit operator bool() const { return ok(); }
    dev_inf& value() { return std::get<dev_inf>(value_); }
    const dev_inf& value() const { return std::get<dev_inf>(value_); }
    const decode_error& error() const { return std::get<decode_error>(value_); }

  private:
    std::variant<dev_inf, decode_error> value_;
};

// WBXML starts with a version byte 0x00..0x03; XML with '<', a BOM or whitespace. nullopt: neither.
std::optional<wire_encoding> detect_encoding(std::string_view bytes);

// Auto-detects the encoding; message::encoding records which one it was.
decode_result decode(std::string_view bytes, const decode_limits& limits = {});
decode_result decode(std::string_view bytes, wire_encoding encoding, const decode_limits& limits = {});

// A standalone DevInf document (XML or WBXML, auto-detected), e.g. a stored device capability.
devinf_result decode_devinf(std::string_view bytes, const decode_limits& limits = {});

// Namespaces, DOCTYPE-free XML declaration and public ids follow msg.version; msg.encoding is ignored.
std::string encode_xml(const message& msg);
std::string encode_wbxml(const message& msg);
std::string encode(const message& msg, wire_encoding encoding);

// Indented XML for people reading captured traffic (syncml-msg); not for the wire.
std::string encode_xml_pretty(const message& msg);
std::string encode_devinf_xml_pretty(const dev_inf& info);

std::string encode_devinf_xml(const dev_inf& info);
std::string encode_devinf_wbxml(const dev_inf& info);

// Exact size of encode(msg, encoding).
std::size_t encoded_size(const message& msg, wire_encoding encoding);
// Upper bound on what one more command adds to a message of `version` in `encoding`, for filling a
// reply up to the peer's MaxMsgSize without re-encoding the whole message per command.
std::size_t encoded_size(const command& cmd, syncml_version version, wire_encoding encoding);

// "application/vnd.syncml+xml" / "application/vnd.syncml+wbxml".
const char* content_type(wire_encoding encoding);
const char* devinf_content_type(wire_encoding encoding);

}  // namespace syncml::session
