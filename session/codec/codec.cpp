#include "session/codec/codec.hpp"

#include "common/text/trim.hpp"
#include "session/codec/codec_budget.hpp"
#include "session/codec/codec_model.hpp"
#include "session/codec/wbxml_reader.hpp"
#include "session/codec/wbxml_writer.hpp"
#include "session/codec/xml_reader.hpp"
#include "session/codec/xml_writer.hpp"

namespace syncml::session {

namespace {

constexpr std::string_view k_xml_declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

// After a reader error the partial tree may still hold a complete SyncHdr: decode it so the engine
// can answer the right session and MsgID with a SyncML status.
decode_error with_salvaged_header(decode_error err, const codec_node& root, wire_encoding encoding) {
    err.encoding = encoding;
    if (root.name != "SyncML") return err;
    const auto* hdr = root.child("SyncHdr");
    if (!hdr || !hdr->complete) return err;
    auto header = header_from_tree(*hdr);
    if (auto* ok = std::get_if<sync_hdr>(&header)) {
        err.version = version_from_ver_dtd(ok->ver_dtd);
        err.header = std::move(*ok);
    }
    return err;
}

decode_result from_tree(const codec_node& root, wire_encoding encoding, const decode_limits& limits,
                        std::optional<syncml_version> hint) {
    auto result = message_from_tree(root, limits, hint);
    if (auto* err = std::get_if<decode_error>(&result)) {
        err->encoding = encoding;
        return std::move(*err);
    }
    auto& msg = std::get<message>(result);
    msg.encoding = encoding;
    return std::move(msg);
}

// DevInf documents nested in item data share what the message's own text left of its budget: each
// with a budget of its own, many small ones could multiply the amplification the budget bounds.
decode_limits nested_limits(const decode_limits& limits, std::size_t text_left) {
    auto out = limits;
    out.max_text_bytes = text_left;
    return out;
}

decode_result decode_xml(std::string_view bytes, const decode_limits& limits) {
    auto doc = read_xml(bytes, limits);
    if (doc.error) return with_salvaged_header(std::move(*doc.error), doc.root, wire_encoding::xml);
    return from_tree(doc.root, wire_encoding::xml, nested_limits(limits, doc.text_left), doc.ns_version);
}

decode_result decode_wbxml(std::string_view bytes, const decode_limits& limits) {
    auto doc = read_wbxml(bytes, limits);
    if (doc.error) return with_salvaged_header(std::move(*doc.error), doc.root, wire_encoding::wbxml);
    if (doc.doc != wbxml_doc::syncml)
        return decode_error{0, "SyncML public identifier", wire_encoding::wbxml, std::nullopt, std::nullopt};
    return from_tree(doc.root, wire_encoding::wbxml, nested_limits(limits, doc.text_left), doc.version);
}

devinf_result devinf_from(std::variant<dev_inf, decode_error> result, wire_encoding encoding) {
    if (auto* err = std::get_if<decode_error>(&result)) {
        err->encoding = encoding;
        return std::move(*err);
    }
    return std::move(std::get<dev_inf>(result));
}

// The DevInf model of a decoded tree, when it fits decode_limits::max_model_bytes.
devinf_result devinf_within_limits(const codec_node& root, wire_encoding encoding, const decode_limits& limits,
                                   std::size_t& model_used) {
    model_used = devinf_model_cost(root);
    if (model_used > limits.max_model_bytes)
        return decode_error{root.offset, std::string(k_model_limit_expected), encoding, std::nullopt, std::nullopt};
    return devinf_from(devinf_from_tree(root), encoding);
}

// `used` receives how much of its text and model budgets the document took.
devinf_result decode_devinf_at(std::string_view bytes, const decode_limits& limits, std::size_t depth,
                               nested_devinf& used) {
    const auto encoding = detect_encoding(bytes);
    if (!encoding) return decode_error{0, "XML or WBXML document", std::nullopt, std::nullopt, std::nullopt};
    if (*encoding == wire_encoding::xml) {
        auto doc = read_xml(bytes, limits, depth);
        used.text_used = doc.text_used;
        if (doc.error) return std::move(*doc.error);
        return devinf_within_limits(doc.root, wire_encoding::xml, limits, used.model_used);
    }
    auto doc = read_wbxml(bytes, limits, depth);
    used.text_used = doc.text_used;
    if (doc.error) return std::move(*doc.error);
    if (doc.doc != wbxml_doc::devinf)
        return decode_error{0, "DevInf public identifier", wire_encoding::wbxml, std::nullopt, std::nullopt};
    return devinf_within_limits(doc.root, wire_encoding::wbxml, limits, used.model_used);
}

// Version byte, public id, charset 106 and an empty string table's length.
std::size_t wbxml_header_size(wbxml_doc doc, syncml_version version) {
    return 3 + (public_id_number(doc, version) < 0x80 ? 1 : 2);
}

}  // namespace

std::string decode_error::describe() const {
    std::string out = "offset " + std::to_string(offset) + ": expected " + expected;
    if (encoding) out += *encoding == wire_encoding::xml ? " (XML)" : " (WBXML)";
    return out;
}

std::optional<wire_encoding> detect_encoding(std::string_view bytes) {
    if (bytes.empty()) return std::nullopt;
    const auto first = static_cast<unsigned char>(bytes[0]);
    if (first <= 0x03) return wire_encoding::wbxml;
    if (first == '<' || first == 0xEF || first == ' ' || first == '\t' || first == '\r' || first == '\n')
        return wire_encoding::xml;
    return std::nullopt;
}

decode_result decode(std::string_view bytes, const decode_limits& limits) {
    const auto encoding = detect_encoding(bytes);
    if (!encoding) return decode_error{0, "XML or WBXML document", std::nullopt, std::nullopt, std::nullopt};
    return decode(bytes, *encoding, limits);
}

decode_result decode(std::string_view bytes, wire_encoding encoding, const decode_limits& limits) {
    return encoding == wire_encoding::xml ? decode_xml(bytes, limits) : decode_wbxml(bytes, limits);
}

devinf_result decode_devinf(std::string_view bytes, const decode_limits& limits) {
    nested_devinf used;
    return decode_devinf_at(bytes, limits, 0, used);
}

nested_devinf devinf_from_bytes(std::string_view bytes, const decode_limits& limits, std::size_t depth) {
    const auto first = bytes.empty() ? 0xFF : static_cast<unsigned char>(bytes[0]);
    const bool wbxml = first <= 0x03;
    const auto text = common::trim(bytes, common::k_white_space);
    nested_devinf out;
    if (!wbxml && text.find("<DevInf") == std::string_view::npos) return out;
    auto result = decode_devinf_at(wbxml ? bytes : text, limits, depth, out);
    if (result)
        out.info = std::move(result.value());
    else
        out.over_budget =
            result.error().expected == k_text_limit_expected || result.error().expected == k_model_limit_expected;
    return out;
}

std::string encode_xml(const message& msg) {
    std::string out(k_xml_declaration);
    write_xml(tree_from_message(msg), msg.version, out);
    return out;
}

std::string encode_xml_pretty(const message& msg) {
    std::string out(k_xml_declaration);
    write_xml(tree_from_message(msg), msg.version, out, 0);
    out += '\n';
    return out;
}

std::string encode_devinf_xml_pretty(const dev_inf& info) {
    std::string out(k_xml_declaration);
    write_xml(tree_from_devinf(info), syncml_version::v1_2, out, 0);
    out += '\n';
    return out;
}

std::string encode_wbxml(const message& msg) {
    return write_wbxml(tree_from_message(msg), wbxml_doc::syncml, msg.version);
}

std::string encode(const message& msg, wire_encoding encoding) {
    return encoding == wire_encoding::xml ? encode_xml(msg) : encode_wbxml(msg);
}

std::string encode_devinf_xml(const dev_inf& info) {
    std::string out(k_xml_declaration);
    write_xml(tree_from_devinf(info), syncml_version::v1_2, out);
    return out;
}

std::string encode_devinf_wbxml(const dev_inf& info) {
    const auto version = version_from_ver_dtd(info.ver_dtd).value_or(syncml_version::v1_2);
    return write_wbxml(tree_from_devinf(info), wbxml_doc::devinf, version);
}

std::size_t encoded_size(const message& msg, wire_encoding encoding) { return encode(msg, encoding).size(); }

std::size_t encoded_size(const command& cmd, syncml_version version, wire_encoding encoding) {
    const auto tree = tree_from_command(cmd);
    if (encoding == wire_encoding::xml) {
        std::string out;
        write_xml(tree, version, out);
        return out.size();
    }
    // Without a string table every string is inline: an upper bound on the table-using encoding,
    // plus room for one SWITCH_PAGE back to the SyncML page.
    constexpr std::size_t k_switch_back = 2;
    return write_wbxml(tree, wbxml_doc::syncml, version, {false}).size() -
           wbxml_header_size(wbxml_doc::syncml, version) + k_switch_back;
}

const char* content_type(wire_encoding encoding) {
    return encoding == wire_encoding::xml ? "application/vnd.syncml+xml" : "application/vnd.syncml+wbxml";
}

const char* devinf_content_type(wire_encoding encoding) {
    return encoding == wire_encoding::xml ? "application/vnd.syncml-devinf+xml" : "application/vnd.syncml-devinf+wbxml";
}

}  // namespace syncml::session
