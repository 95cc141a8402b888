// Tree -> message model. Tolerant: unknown elements are skipped, numbers that do not parse are
// dropped, missing optional parts stay empty. Only what the engine cannot do without (SyncHdr with
// VerDTD, SessionID and MsgID; one SyncBody) is required. The parts and commands are read in
// codec_items_in.cpp and codec_commands_in.cpp.
#include <string>

#include "session/codec/codec_model_reader.hpp"

namespace syncml::session {

namespace {

// VerDTD is there and says something (whitespace says nothing).
bool ver_dtd_given(const codec_node& header) {
    const auto* v = header.child("VerDTD");
    return v && v->text.find_first_not_of(" \t\r\n") != std::string::npos;
}

std::optional<syncml_version> version_of(const codec_node& header, std::optional<syncml_version> hint) {
    if (!ver_dtd_given(header)) return hint;
    // The namespace or public id stands in for a missing VerDTD, never against one.
    return version_from_ver_dtd(header.child("VerDTD")->text);
}

}  // namespace

std::variant<sync_hdr, decode_error> header_from_tree(const codec_node& node) {
    const decode_limits limits{};  // the reader keeps a reference: not to a temporary
    model_reader r(limits);
    sync_hdr out;
    // VerDTD may be missing when the namespace or public id gives the version (checked by the caller).
    const char* required[] = {"SessionID", "MsgID"};
    for (const char* name : required) {
        if (!r.single(node, name) && !r.error_) r.fail(node, std::string("<") + name + "> in <SyncHdr>");
    }
    if (r.error_) return *r.error_;
    out.ver_dtd = text_of(node.child("VerDTD"));
    out.ver_proto = text_of(node.child("VerProto"));
    out.session_id = text_of(node.child("SessionID"));
    out.msg_id = text_of(node.child("MsgID"));
    if (auto t = r.loc(node.child("Target"))) out.target = std::move(*t);
    if (auto s = r.loc(node.child("Source"))) out.source = std::move(*s);
    out.resp_uri = optional_text(node.child("RespURI"));
    out.no_resp = node.child("NoResp") != nullptr;
    out.cred = r.cred(node);
    out.meta = r.meta(node);
    return out;
}

std::variant<message, decode_error> message_from_tree(const codec_node& root, const decode_limits& limits,
                                                      std::optional<syncml_version> version_hint) {
    model_reader r(limits);
    if (root.name != "SyncML") return decode_error{root.offset, "<SyncML> root element", {}, {}, {}};
    const auto* hdr = r.single(root, "SyncHdr");
    if (r.error_) return *r.error_;
    if (!hdr) return decode_error{root.offset, "<SyncHdr> in <SyncML>", {}, {}, {}};
    auto header = header_from_tree(*hdr);
    if (auto* err = std::get_if<decode_error>(&header)) return std::move(*err);
    message msg;
    msg.header = std::move(std::get<sync_hdr>(header));
    auto version = version_of(*hdr, version_hint);
    if (!version) {
        decode_error err{hdr->offset, "<VerDTD> 1.0, 1.1 or 1.2", {}, msg.header, {}};
        err.unsupported_version = ver_dtd_given(*hdr);
        return err;
    }
    msg.version = *version;
    const auto* body = r.single(root, "SyncBody");
    if (!body && !r.error_) r.fail(root, "<SyncBody> in <SyncML>");
    if (body) r.commands(*body, msg.body.commands, 1);
    if (r.error_) {
        r.error_->header = std::move(msg.header);
        r.error_->version = msg.version;
        return *r.error_;
    }
    msg.body.final = body->child("Final") != nullptr;
    return msg;
}

}  // namespace syncml::session
