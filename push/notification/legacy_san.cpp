#include "push/notification/legacy_san.hpp"

#include "common/crypto/base64.hpp"
#include "common/crypto/digest.hpp"
#include "session/codec/codec.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::push {
namespace {

using session::location;

std::optional<session::credentials> server_credentials(const notification& n, const server_secret& secret) {
    if (secret.password.empty()) return std::nullopt;
    const auto server_secret = common::base64_encode(common::md5(n.server_id + ":" + secret.password));
    session::credentials cred;
    cred.meta = session::meta_info{};
    cred.meta->type = "syncml:auth-md5";
    cred.meta->format = "b64";
    cred.data = session::md5_digest(server_secret, secret.nonce);
    return cred;
}

session::alert alert_for(const alerted_datastore& ds, int cmd_id) {
    session::alert a;
    a.cmd_id = std::to_string(cmd_id);
    a.data = std::to_string(ds.mode.server_alerted_code());
    session::item it;
    if (!ds.client_uri.empty()) it.target = location{ds.client_uri, std::nullopt, std::nullopt};
    it.source = location{ds.server_uri, std::nullopt, std::nullopt};
    if (!ds.mime_type.empty()) {
        it.meta = session::meta_info{};
        it.meta->type = ds.mime_type;
    }
    a.items.push_back(std::move(it));
    return a;
}

}  // namespace

const char* describe(legacy_san_error e) {
    switch (e) {
        case legacy_san_error::no_datastores:
            return "the SyncML 1.1 notification names each datastore";
        case legacy_san_error::not_legacy:
            return "SyncML 1.2 phones take the binary notification";
    }
    return "unknown";
}

session::message legacy_san_message(const notification& n, const server_secret& secret,
                                    const legacy_san_request& request) {
    session::message m;
    m.version = request.version;
    m.encoding = session::wire_encoding::wbxml;
    m.header.ver_dtd = session::ver_dtd_string(request.version);
    m.header.ver_proto = session::ver_proto_string(request.version);
    m.header.session_id = std::to_string(n.session_id);
    m.header.msg_id = "1";
    m.header.target.loc_uri = request.device_id.empty() ? "/" : request.device_id;
    m.header.source.loc_uri = n.server_id;
    m.header.cred = server_credentials(n, secret);
    int cmd_id = 0;
    for (const auto& ds : n.datastores) m.body.commands.push_back(session::command{alert_for(ds, ++cmd_id)});
    m.body.final = true;
    return m;
}

legacy_san_result encode_legacy_san(const notification& n, const server_secret& secret,
                                    const legacy_san_request& request) {
    if (request.version == session::syncml_version::v1_2) return {{}, legacy_san_error::not_legacy};
    if (n.datastores.empty()) return {{}, legacy_san_error::no_datastores};
    return {session::encode_wbxml(legacy_san_message(n, secret, request)), std::nullopt};
}

}  // namespace syncml::push
