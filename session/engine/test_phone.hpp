#pragma once
// Test helper shared by the engine tests: a simulated phone talking to the engine at the model level,
// with its session state kept in the fake store's session rows as sync_service keeps it in PostgreSQL.

#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/crypto/base64.hpp"
#include "common/text/ascii_case.hpp"
#include "session/engine/engine.hpp"
#include "session/engine/fake_sync_store.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::session::testing {

inline std::string vcard(const std::string& name) {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:" + name + "\r\nN:;" + name + ";;;\r\nEND:VCARD\r\n";
}

// b64(md5("u1:pw")), as the accounts repository stores it.
inline std::string md5_digest_secret() { return "svUovaeQ6WT9T0Bet7dSMg=="; }

// One change the phone sends in its Sync.
struct change {
    std::string luid;
    std::string data;  // empty: Delete
    bool replace = false;
};

inline std::vector<change> in_luid_order(const std::map<std::string, std::string>& changes, bool as_replace) {
    std::vector<change> list;
    for (const auto& [luid, data] : changes) list.push_back(change{luid, data, as_replace});
    return list;
}

// One simulated phone talking to the engine at the model level. Session state goes through
// encode_state/decode_state between messages, as it does through the database.
class phone {
  public:
    phone(fake_sync_store& store, std::string device, std::string content_type = "text/vcard")
        : store_(store), device_(std::move(device)), content_type_(std::move(content_type)) {}

    std::map<std::string, std::string> items;  // luid -> data, as the phone holds them
    std::string last_anchor;
    std::optional<dev_inf> devinf;                  // sent with Put beside the Alert of the first session
    message package4;                               // the server's reply to the phone's Sync in the last sync()
    syncml_version version = syncml_version::v1_2;  // of every message it sends
    // Its max_obj_size, max_items_per_datastore, max_user_bytes and metrics apply to every message.
    engine_context limits;
    std::string datastore = "contacts";  // the server datastore its Alerts, Syncs and Maps address
    std::string client_store;            // its own datastore's LocURI (empty: "./" + datastore)
    std::string item_format;             // Meta Format of the items it sends ("b64": their data base64-encoded)
    std::map<std::string, meta_info> received_meta;  // luid -> Meta of the last Add or Replace it received
    std::optional<std::int64_t> clock_ms;  // the server's clock in its sessions (default: one second per session)
    // Added to its SessionIDs: two phones that stand for two datastores of one device keep their sessions apart.
    int session_offset = 0;

    message start(int mode) {
        ++session_;
        msg_id_ = 0;
        message m = blank();
        m.header.cred = credentials{meta_info{}, common::base64_encode("u1:pw")};
        m.header.cred->meta->type = "syncml:auth-basic";
        if (devinf && session_ == 1) m.body.commands.push_back(command{devinf_put()});
        alert a;
        a.cmd_id = "1";
        a.data = std::to_string(mode);
        item it;
        it.target = location{datastore, std::nullopt, std::nullopt};
        it.source = location{own_store(), std::nullopt, std::nullopt};
        it.meta = meta_info{};
        next_anchor_ = "anchor-" + std::to_string(session_);
        it.meta->anchor = sync_anchor{last_anchor, next_anchor_};
        a.items.push_back(it);
        m.body.commands.push_back(command{a});
        return m;
    }

    message blank() {
        message m;
        m.version = version;
        m.header.ver_dtd = ver_dtd_string(version);
        m.header.session_id = std::to_string(session_ + session_offset);
        m.header.msg_id = std::to_string(++msg_id_);
        m.header.target.loc_uri = "http://server/sync";
        m.header.source.loc_uri = device_;
        m.body.final = true;
        return m;
    }

    // A Sync carrying `changes` (luid -> data; empty data = Delete), in luid order.
    message changes(const std::map<std::string, std::string>& changes, bool as_replace = false) {
        return changes_message(in_luid_order(changes, as_replace));
    }

    // A Sync carrying `list` in its order; `items` takes the changes, as the phone holds its own edits.
    message changes_message(const std::vector<change>& list) {
        message m = blank();
        session::sync s;
        s.cmd_id = "1";
        s.target = location{datastore, std::nullopt, std::nullopt};
        s.source = location{own_store(), std::nullopt, std::nullopt};
        int id = 2;
        for (const auto& c : list) s.commands.push_back(item_change(c, std::to_string(id++)));
        m.body.commands.push_back(command{s});
        return m;
    }

    // Like sync_service: the state lives in the session row of (device, SessionID) between messages.
    engine_outcome send(const message& m) {
        auto rec = store_.lock_session(1, device_, m.header.session_id);
        if (!rec) {
            rec = persistence::session_record{};
            rec->id = store_.create_session(1, device_, m.header.session_id);
            rec->session_id = m.header.session_id;
            rec->device_uri = device_;
        }
        auto state = decode_state(rec->state).value();
        engine_context ctx;
        ctx.tenant_id = 1;
        ctx.account = account_info{7, "u1", true, {}};
        ctx.now_ms = clock_ms.value_or(1000 * session_);
        ctx.max_obj_size = limits.max_obj_size;
        ctx.max_items_per_datastore = limits.max_items_per_datastore;
        ctx.max_user_bytes = limits.max_user_bytes;
        ctx.metrics = limits.metrics;
        auto device = store_.device(1, 7, device_);
        auto outcome = process_message(m, state, device, ctx, store_);
        rec->user_id = state.user_id;
        rec->state = encode_state(state);
        store_.save_session(1, *rec);
        return outcome;
    }

    // The client asks for the next message of package 4 (Alert 222), not ending its own package.
    message more() {
        auto next = blank();
        next.body.final = false;
        alert a;
        a.cmd_id = "1";
        a.data = "222";
        next.body.commands.push_back(command{a});
        return next;
    }

    // Applies the server's Sync commands like a client and answers with a Map for the Adds.
    message apply_server_changes(const message& reply) {
        message m = blank();
        map mp;
        mp.cmd_id = "1";
        mp.target = location{datastore, std::nullopt, std::nullopt};
        mp.source = location{own_store(), std::nullopt, std::nullopt};
        for (const auto& cmd : reply.body.commands) {
            auto* s = std::get_if<session::sync>(&cmd.value);
            if (!s) continue;
            for (const auto& inner : s->commands) apply(inner, mp);
        }
        if (!mp.items.empty()) m.body.commands.push_back(command{mp});
        return m;
    }

    void finish() { last_anchor = next_anchor_; }

    // Receives package 4 from `reply` on, asking for each further message (Alert 222), and answers its end with the
    // Map; true when that completed the session (false also after 50 messages without an end).
    bool receive_package4(message reply) {
        for (int messages = 0; !reply.body.final; ++messages) {
            if (messages == 50) return false;
            apply_server_changes(reply);
            reply = send(more()).reply;
        }
        return send(apply_server_changes(reply)).session_done;
    }

    // One whole session: Alert `mode`, `list`, the server's changes applied, Map. Returns the statuses of the
    // phone's item commands in order.
    std::vector<std::string> sync(int mode, const std::vector<change>& list) {
        auto first = send(start(mode));
        EXPECT_TRUE(first.reply.body.final);
        package4 = send(changes_message(list)).reply;
        EXPECT_TRUE(package4.body.final);
        std::vector<std::string> codes;
        for (const auto& c : package4.body.commands) {
            auto* s = std::get_if<status>(&c.value);
            if (s && (s->cmd == "Add" || s->cmd == "Replace" || s->cmd == "Delete")) codes.push_back(s->data);
        }
        EXPECT_TRUE(send(apply_server_changes(package4)).session_done);
        finish();
        return codes;
    }

    // How many `kind` commands (Add, Replace, Delete) the server sent in the last sync().
    std::size_t sent(std::string_view kind) const {
        std::size_t n = 0;
        for (const auto& c : package4.body.commands) {
            auto* s = std::get_if<session::sync>(&c.value);
            if (!s) continue;
            for (const auto& inner : s->commands) n += std::string_view(command_name(inner)) == kind;
        }
        return n;
    }

  private:
    put devinf_put() const {
        put p;
        p.cmd_id = "9";
        item it;
        it.source = location{"./devinf12", std::nullopt, std::nullopt};
        it.data = item_data{{}, *devinf, std::nullopt};
        p.items.push_back(it);
        return p;
    }

    command item_change(const change& c, std::string cmd_id) {
        item it;
        it.source = location{c.luid, std::nullopt, std::nullopt};
        item_command cmd;
        cmd.cmd_id = std::move(cmd_id);
        if (c.data.empty()) {
            items.erase(c.luid);
            cmd.items.push_back(it);
            return command{delete_{cmd}};
        }
        items[c.luid] = c.data;
        it.meta = meta_info{};
        it.meta->type = content_type_;
        if (!item_format.empty()) it.meta->format = item_format;
        const bool b64 = common::iequals(item_format, "b64");
        it.data = item_data{b64 ? common::base64_encode(c.data) : c.data, std::nullopt, std::nullopt};
        cmd.items.push_back(it);
        return c.replace ? command{replace{cmd}} : command{add{cmd}};
    }

    std::string own_store() const { return client_store.empty() ? "./" + datastore : client_store; }

    // The item's data as the phone keeps it: decoded when the server sent it base64-encoded.
    std::string received(const std::string& luid, const item& it) {
        received_meta[luid] = it.meta.value_or(meta_info{});
        const auto& bytes = it.data->bytes;
        if (it.meta && it.meta->format == "b64") return common::base64_decode_ignoring_whitespace(bytes).value_or("");
        return bytes;
    }

    void apply(const command& inner, map& mp) {
        if (auto* a = std::get_if<add>(&inner.value)) {
            auto luid = "srv-" + std::to_string(++next_luid_);
            items[luid] = received(luid, a->items[0]);
            mp.items.push_back(map_item{a->items[0].source->loc_uri, luid});
        } else if (auto* r = std::get_if<replace>(&inner.value)) {
            items[r->items[0].target->loc_uri] = received(r->items[0].target->loc_uri, r->items[0]);
        } else if (auto* d = std::get_if<delete_>(&inner.value)) {
            items.erase(d->items[0].target->loc_uri);
        }
    }

    fake_sync_store& store_;
    std::string device_;
    std::string content_type_;
    std::string next_anchor_;
    int session_ = 0;
    int msg_id_ = 0;
    int next_luid_ = 0;
};

inline std::vector<const status*> statuses_of(const message& m, const std::string& cmd) {
    std::vector<const status*> out;
    for (const auto& c : m.body.commands) {
        if (auto* s = std::get_if<status>(&c.value); s && s->cmd == cmd) out.push_back(s);
    }
    return out;
}

inline const sync* sync_of(const message& m) {
    for (const auto& c : m.body.commands) {
        if (auto* s = std::get_if<sync>(&c.value)) return s;
    }
    return nullptr;
}

inline const alert* alert_of(const message& m) {
    for (const auto& c : m.body.commands) {
        if (auto* a = std::get_if<alert>(&c.value)) return a;
    }
    return nullptr;
}

// `count` contacts of ~250 bytes each by LUID ("0", "1", ...): enough to fill several 4000-byte messages.
inline std::map<std::string, std::string> padded_contacts(int count) {
    std::map<std::string, std::string> out;
    for (int i = 0; i < count; ++i)
        out[std::to_string(i)] = vcard("Person " + std::to_string(i) + std::string(200, 'x'));
    return out;
}

// `m` with the header's MaxMsgSize set, so that the server splits its reply.
// A client that takes large objects says so with a MaxObjSize (or SupportLargeObjs in its DevInf): without one, an
// item larger than a message is not sent to it at all.
inline message with_max_msg_size(message m, std::uint64_t size, std::uint64_t max_obj_size = 4 * 1024 * 1024) {
    m.header.meta = meta_info{};
    m.header.meta->max_msg_size = size;
    if (max_obj_size > 0) m.header.meta->max_obj_size = max_obj_size;
    return m;
}

// Runs a whole session: alert, the client's changes, the server's changes, map.
// A 1.2 DevInf of phone `dev_id` whose contacts datastore takes `ct_type`/`version` and whose CTCap lists only these
// properties: the merge then takes the phone's copy as the truth for them.
inline dev_inf devinf_storing(const std::string& ct_type, const std::string& version,
                              std::initializer_list<const char*> names, const std::string& dev_id = "phone-b") {
    dev_inf info;
    info.ver_dtd = "1.2";
    info.dev_id = dev_id;
    info.dev_typ = "phone";
    datastore ds;
    ds.source_ref = "./contacts";
    ds.rx_pref = content_type_ref{ct_type, version};
    ds.tx_pref = content_type_ref{ct_type, version};
    ct_cap cap;
    cap.ct_type = ct_type;
    cap.ver_ct = version;
    for (const char* name : names) {
        ct_property p;
        p.prop_name = name;
        cap.properties.push_back(p);
    }
    ds.ct_caps.push_back(cap);
    info.datastores.push_back(ds);
    return info;
}

inline message full_sync(phone& p, int mode, const std::map<std::string, std::string>& changes,
                         bool as_replace = false) {
    p.sync(mode, in_luid_order(changes, as_replace));
    return p.package4;
}

}  // namespace syncml::session::testing
