// The wire side of session_run: one HTTP round trip with the checks every reply gets, and the Status
// (plus Results and applied items) a client owes for the server's commands.

#include "loadtest/session_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "common/crypto/base64.hpp"
#include "loadtest/messages.hpp"
#include "session/codec/codec.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::loadtest {
namespace {

using namespace syncml::session;

bool is_auth_failure(const status* s) { return s && (s->data == "401" || s->data == "407"); }

// SYNCML_LOAD_TRACE=1 prints every message as indented XML on stderr (use with one phone).
bool tracing() {
    static const bool on = std::getenv("SYNCML_LOAD_TRACE") != nullptr;
    return on;
}

void trace(const char* direction, const message& m) {
    if (tracing()) std::fprintf(stderr, "----- %s\n%s\n", direction, encode_xml_pretty(m).c_str());
}

}  // namespace

std::optional<message> session_run::exchange(const message& out, msg_kind kind, bool auth_may_fail) {
    const auto encoding = phone_.settings_.encoding;
    const std::string body = encode(out, encoding);
    trace("request", out);
    const auto start = std::chrono::steady_clock::now();
    http_reply reply = http_.post(url_, content_type(encoding), body);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stats_.message(kind, seconds, body.size(), reply.body.size());
    if (!reply.error.empty()) {
        error("transport:" + reply.error);
        return std::nullopt;
    }
    if (reply.status != 200) {
        error("http:" + std::to_string(reply.status));
        return std::nullopt;
    }
    auto decoded = decode(reply.body);
    if (!decoded) {
        error("decode");
        return std::nullopt;
    }
    message in = std::move(decoded.value());
    trace("reply", in);
    if (in.encoding != encoding) error("reply-encoding");
    if (in.header.session_id != session_id_) error("reply-session-id");
    read_nonce(in);
    const status* hdr = find_status(in, out.header.msg_id, "0");
    if (auth_may_fail && is_auth_failure(hdr)) return in;
    if (!hdr || (hdr->data != "200" && hdr->data != "212")) {
        error("SyncHdr:" + (hdr ? hdr->data : std::string("missing")));
        return std::nullopt;
    }
    check_statuses(in);
    follow_resp_uri(in);
    return in;
}

void session_run::check_statuses(const message& reply) {
    for (const auto& cmd : reply.body.commands) {
        const auto* s = std::get_if<status>(&cmd.value);
        if (!s || s->cmd_ref == "0") continue;
        for (auto& e : expected_) {
            if (e.seen || e.cmd_id != s->cmd_ref || e.msg_id != s->msg_ref) continue;
            e.seen = true;
            const int code = status_code(*s).value_or(0);
            if (std::find(e.allowed.begin(), e.allowed.end(), code) == e.allowed.end()) error(e.cmd + ":" + s->data);
            break;
        }
    }
}

void session_run::follow_resp_uri(const message& reply) {
    if (!reply.header.resp_uri || reply.header.resp_uri->empty()) return;
    auto parsed = parse_loopback_url(*reply.header.resp_uri);
    if (!parsed) {
        // Only loopback targets are allowed; a RespURI elsewhere is a server bug (or a proxy rewrite gone wrong).
        error("resp-uri-not-loopback");
        return;
    }
    url_ = *parsed;
    target_uri_ = *reply.header.resp_uri;
}

void session_run::read_nonce(const message& reply) {
    for (const auto& cmd : reply.body.commands) {
        const auto* s = std::get_if<status>(&cmd.value);
        if (!s || s->cmd_ref != "0" || !s->chal || !s->chal->meta || !s->chal->meta->next_nonce) continue;
        const auto& meta = *s->chal->meta;
        auto nonce = meta.format == "b64" ? common::base64_decode_ignoring_whitespace(*meta.next_nonce)
                                          : std::optional(*meta.next_nonce);
        if (nonce) phone_.nonce_ = *nonce;
    }
}

void session_run::answer(const message& reply, message& out) {
    status hdr = make_status(next_cmd_id(), reply.header.msg_id, "0", "SyncHdr", 200);
    hdr.target_refs = {reply.header.target.loc_uri};
    hdr.source_refs = {reply.header.source.loc_uri};
    out.body.commands.push_back(command{std::move(hdr)});
    for (const auto& cmd : reply.body.commands) {
        if (std::holds_alternative<status>(cmd.value)) continue;
        if (const auto* s = std::get_if<sync>(&cmd.value)) {
            apply_sync(reply, *s, out);
            continue;
        }
        const std::string id = std::visit([](const auto& c) { return c.cmd_id; }, cmd.value);
        status st = make_status(next_cmd_id(), reply.header.msg_id, id, command_name(cmd), 200);
        if (const auto* a = std::get_if<alert>(&cmd.value); a && !a->items.empty()) {
            const item& it = a->items.front();
            if (it.target) st.target_refs = {it.target->loc_uri};
            if (it.source) st.source_refs = {it.source->loc_uri};
            if (it.meta && it.meta->anchor) {
                item echo;
                echo.data = item_data{{}, std::nullopt, sync_anchor{std::nullopt, it.meta->anchor->next}};
                st.items.push_back(std::move(echo));
            }
        }
        out.body.commands.push_back(command{std::move(st)});
        if (std::holds_alternative<get>(cmd.value)) {
            results r;
            r.cmd_id = next_cmd_id();
            r.msg_ref = reply.header.msg_id;
            r.cmd_ref = id;
            r.meta = meta_info{};
            r.meta->type = devinf_content_type(phone_.settings_.encoding);
            item it;
            it.source = location{"./devinf12", std::nullopt, std::nullopt};
            it.data = item_data{{}, phone_devinf(phone_.identity_.device_id), std::nullopt};
            r.items.push_back(std::move(it));
            out.body.commands.push_back(command{std::move(r)});
        }
    }
}

void session_run::apply_sync(const message& reply, const sync& s, message& out) {
    status st = make_status(next_cmd_id(), reply.header.msg_id, s.cmd_id, "Sync", 200);
    if (s.target) st.target_refs = {s.target->loc_uri};
    if (s.source) st.source_refs = {s.source->loc_uri};
    out.body.commands.push_back(command{std::move(st)});
    for (const auto& inner : s.commands) {
        std::string ref;
        const int code = apply_server_command(inner, ref);
        const std::string id = std::visit([](const auto& c) { return c.cmd_id; }, inner.value);
        status item_status = make_status(next_cmd_id(), reply.header.msg_id, id, command_name(inner), code);
        if (!ref.empty()) item_status.source_refs = {ref};
        out.body.commands.push_back(command{std::move(item_status)});
    }
}

int session_run::apply_server_command(const command& cmd, std::string& ref) {
    const auto* c = std::visit(
        [](const auto& v) -> const item_command* {
            if constexpr (std::is_base_of_v<item_command, std::decay_t<decltype(v)>>) return &v;
            return nullptr;
        },
        cmd.value);
    if (!c || c->items.empty()) {
        error("unexpected-server-command:" + std::string(command_name(cmd)));
        return 406;
    }
    int code = 200;
    for (const auto& it : c->items) {
        ++items_down;
        const std::string guid = it.source ? it.source->loc_uri : "";
        const std::string luid = it.target ? it.target->loc_uri : "";
        const std::string data = it.data ? it.data->bytes : "";
        ref = guid.empty() ? luid : guid;
        if (std::holds_alternative<delete_>(cmd.value)) {
            code = phone_.items_.erase(luid) ? 200 : 211;
        } else if (std::holds_alternative<replace>(cmd.value) && phone_.items_.count(luid)) {
            phone_.items_[luid] = data;
        } else if (std::holds_alternative<add>(cmd.value) || std::holds_alternative<replace>(cmd.value)) {
            mappings_.push_back(map_item{guid, phone_.store_server_item(data)});
            code = 201;
        } else {
            error("unexpected-server-command:" + std::string(command_name(cmd)));
            code = 406;
        }
    }
    return code;
}

}  // namespace syncml::loadtest
