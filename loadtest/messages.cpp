#include "loadtest/messages.hpp"

#include "common/crypto/base64.hpp"
#include "common/crypto/digest.hpp"
#include "session/codec/codec.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::loadtest {
namespace {

using namespace syncml::session;

std::string md5_b64(const std::string& text) { return common::base64_encode(common::md5(text)); }

ct_property property(const char* name, std::vector<std::string> types = {}) {
    ct_property p;
    p.prop_name = name;
    if (!types.empty()) {
        prop_param type;
        type.param_name = "TYPE";
        type.val_enums = std::move(types);
        p.params.push_back(std::move(type));
    }
    return p;
}

ct_cap vcard30_cap() {
    ct_cap cap;
    cap.ct_type = "text/vcard";
    cap.ver_ct = "3.0";
    for (const char* name : {"BEGIN", "END", "VERSION", "N", "FN", "NICKNAME", "ORG", "TITLE", "NOTE", "BDAY", "URL",
                             "CATEGORIES", "PHOTO", "UID", "REV"}) {
        cap.properties.push_back(property(name));
    }
    cap.properties.push_back(property("TEL", {"HOME", "WORK", "CELL", "FAX", "VOICE", "PREF"}));
    cap.properties.push_back(property("EMAIL", {"HOME", "WORK", "INTERNET", "PREF"}));
    cap.properties.push_back(property("ADR", {"HOME", "WORK", "OTHER"}));
    return cap;
}

}  // namespace

message new_message(const header_fields& fields, wire_encoding encoding) {
    message m;
    m.version = syncml_version::v1_2;
    m.encoding = encoding;
    m.header.ver_dtd = "1.2";
    m.header.ver_proto = "SyncML/1.2";
    m.header.session_id = fields.session_id;
    m.header.msg_id = fields.msg_id;
    m.header.target.loc_uri = fields.target_uri;
    m.header.source.loc_uri = fields.device_id;
    m.header.source.loc_name = fields.user;
    meta_info meta;
    meta.max_msg_size = fields.max_msg_size;
    meta.max_obj_size = 4000000;
    m.header.meta = meta;
    return m;
}

dev_inf phone_devinf(const std::string& device_id) {
    dev_inf info;
    info.ver_dtd = "1.2";
    info.man = "syncml-load";
    info.mod = "simulated phone";
    info.sw_v = "1.0";
    info.dev_id = device_id;
    info.dev_typ = "phone";
    info.utc = true;
    info.support_large_objs = true;
    info.support_number_of_changes = true;
    datastore store;
    store.source_ref = "./contacts";
    store.display_name = "contacts";
    store.max_guid_size = 64;
    store.rx_pref = content_type_ref{"text/vcard", "3.0"};
    store.tx_pref = content_type_ref{"text/vcard", "3.0"};
    store.ct_caps.push_back(vcard30_cap());
    store.sync_cap = std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7"};
    info.datastores.push_back(std::move(store));
    return info;
}

command devinf_put(const std::string& cmd_id, const std::string& device_id, wire_encoding encoding) {
    put p;
    p.cmd_id = cmd_id;
    p.meta = meta_info{};
    p.meta->type = devinf_content_type(encoding);
    item it;
    it.source = location{"./devinf12", std::nullopt, std::nullopt};
    it.data = item_data{{}, phone_devinf(device_id), std::nullopt};
    p.items.push_back(std::move(it));
    return command{std::move(p)};
}

command devinf_get(const std::string& cmd_id, wire_encoding encoding) {
    get g;
    g.cmd_id = cmd_id;
    g.meta = meta_info{};
    g.meta->type = devinf_content_type(encoding);
    item it;
    it.target = location{"./devinf12", std::nullopt, std::nullopt};
    g.items.push_back(std::move(it));
    return command{std::move(g)};
}

credentials basic_credentials(const std::string& user, const std::string& password) {
    credentials cred;
    cred.meta = meta_info{};
    cred.meta->format = "b64";
    cred.meta->type = "syncml:auth-basic";
    cred.data = common::base64_encode(user + ":" + password);
    return cred;
}

credentials md5_credentials(const std::string& user, const std::string& password, const std::string& nonce) {
    credentials cred;
    cred.meta = meta_info{};
    cred.meta->format = "b64";
    cred.meta->type = "syncml:auth-md5";
    cred.data = md5_digest(md5_b64(user + ":" + password), nonce);
    return cred;
}

status make_status(const std::string& cmd_id, const std::string& msg_ref, const std::string& cmd_ref,
                   const std::string& cmd, int code) {
    status s;
    s.cmd_id = cmd_id;
    s.msg_ref = msg_ref;
    s.cmd_ref = cmd_ref;
    s.cmd = cmd;
    s.data = std::to_string(code);
    return s;
}

const status* find_status(const message& reply, const std::string& msg_ref, const std::string& cmd_ref) {
    for (const auto& cmd : reply.body.commands) {
        const auto* s = std::get_if<status>(&cmd.value);
        if (s && s->cmd_ref == cmd_ref && (s->msg_ref == msg_ref || s->msg_ref.empty())) return s;
    }
    return nullptr;
}

}  // namespace syncml::loadtest
