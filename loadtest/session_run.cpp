#include "loadtest/session_run.hpp"

#include <algorithm>
#include <chrono>

#include "loadtest/messages.hpp"
#include "session/codec/codec.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::loadtest {
namespace {

using namespace syncml::session;

constexpr int max_continuations = 10000;  // bounds a server that never sends Final

location loc(const std::string& uri) { return location{uri, std::nullopt, std::nullopt}; }

std::string cmd_id_of(const command& cmd) {
    return std::visit([](const auto& c) { return c.cmd_id; }, cmd.value);
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

session_run::session_run(phone& owner, http_client& http, run_stats& stats)
    : phone_(owner), http_(http), stats_(stats), slow_(!owner.synced_) {
    session_id_ = std::to_string(++phone_.session_counter_);
    target_uri_ = phone_.settings_.base_url + "/" + phone_.identity_.tenant;
    url_ = parse_loopback_url(target_uri_).value_or(url_parts{});
    next_anchor = std::to_string(now_ms()) + "-" + session_id_;
    fresh_account_ = phone_.fresh_account_;
}

bool session_run::execute() {
    changes_ = phone_.plan_changes(slow_);
    if (!package1() || !package3() || !package4_rest() || !package5()) return false;
    for (const auto& e : expected_) {
        if (!e.seen) error("missing-status:" + e.cmd);
    }
    // A phone whose user has no other device must get nothing back: its own changes are never echoed,
    // and a first slow sync into an empty account has nothing to send.
    const bool must_be_silent = !slow_ || fresh_account_;
    if (phone_.settings_.exclusive_user && must_be_silent && items_down > 0) error("unexpected-server-items");
    return !failed_;
}

void session_run::error(const std::string& key) {
    failed_ = true;
    stats_.error(key);
}

message session_run::begin_message() {
    header_fields fields{session_id_,           std::to_string(++msg_id_),    target_uri_, phone_.identity_.device_id,
                         phone_.identity_.user, phone_.settings_.max_msg_size};
    cmd_id_ = 0;
    return new_message(fields, phone_.settings_.encoding);
}

void session_run::expect(const std::string& msg_id, const std::string& cmd_id, const std::string& cmd,
                         std::vector<int> allowed) {
    expected_.push_back(expectation{msg_id, cmd_id, cmd, std::move(allowed), false});
}

bool session_run::package1() {
    const auto& settings = phone_.settings_;
    for (int attempt = 0; attempt < 2; ++attempt) {
        message out = begin_message();
        const bool md5 = settings.auth == auth_kind::md5;
        out.header.cred = md5 ? md5_credentials(phone_.identity_.user, phone_.identity_.password, phone_.nonce_)
                              : basic_credentials(phone_.identity_.user, phone_.identity_.password);
        const std::string msg = out.header.msg_id;
        out.body.commands.push_back(devinf_put(next_cmd_id(), phone_.identity_.device_id, settings.encoding));
        expect(msg, std::to_string(cmd_id_), "Put", {200});
        if (settings.get_devinf) {
            out.body.commands.push_back(devinf_get(next_cmd_id(), settings.encoding));
            expect(msg, std::to_string(cmd_id_), "Get", {200});
        }
        alert a;
        a.cmd_id = next_cmd_id();
        a.data = slow_ ? "201" : "200";
        item it;
        it.target = loc("contacts");
        it.source = loc("./contacts");
        it.meta = meta_info{};
        it.meta->anchor = sync_anchor{
            phone_.last_anchor_.empty() ? std::nullopt : std::optional<std::string>(phone_.last_anchor_), next_anchor};
        a.items.push_back(std::move(it));
        expect(msg, a.cmd_id, "Alert", {200});
        out.body.commands.push_back(command{std::move(a)});
        out.body.final = true;
        // The first md5 message of a phone has no nonce yet: the server's 401 carries one, then we retry.
        const bool may_fail = md5 && attempt == 0;
        auto reply = exchange(out, msg_kind::init, may_fail);
        if (!reply) return false;
        const status* hdr = find_status(*reply, msg, "0");
        if (may_fail && hdr && (hdr->data == "401" || hdr->data == "407")) {
            expected_.clear();
            continue;
        }
        server_max_msg_size_ = reply->header.meta ? reply->header.meta->max_msg_size.value_or(0) : 0;
        last_reply_ = std::move(*reply);
        return check_server_alert(*last_reply_);
    }
    return false;
}

bool session_run::check_server_alert(const message& reply) {
    const std::string wanted = slow_ ? "201" : "200";
    bool has_results = false;
    bool alerted = false;
    for (const auto& cmd : reply.body.commands) {
        if (std::holds_alternative<results>(cmd.value)) has_results = true;
        const auto* a = std::get_if<alert>(&cmd.value);
        if (!a) continue;
        alerted = true;
        if (a->data.value_or("") != wanted) error("server-alert:" + a->data.value_or("none"));
    }
    if (!alerted) error("missing-server-alert");
    if (phone_.settings_.get_devinf && !has_results) error("missing-devinf-results");
    if (!reply.body.final) error("init-reply-not-final");
    return !failed_;
}

command session_run::change_command(const local_change& change) {
    item it;
    it.source = loc(change.luid);
    item_command c;
    c.cmd_id = next_cmd_id();
    if (change.op != change_op::remove) {
        it.meta = meta_info{};
        it.meta->type = "text/vcard";
        it.data = item_data{change.data, std::nullopt, std::nullopt};
    }
    c.items.push_back(std::move(it));
    if (change.op == change_op::add) return command{add{c}};
    if (change.op == change_op::replace) return command{replace{c}};
    delete_ d;
    static_cast<item_command&>(d) = c;
    return command{std::move(d)};
}

bool session_run::package3() {
    const auto encoding = phone_.settings_.encoding;
    std::size_t limit = phone_.settings_.max_msg_size;
    if (server_max_msg_size_ > 0) limit = std::min(limit, server_max_msg_size_);
    std::size_t next = 0;
    do {
        message out = begin_message();
        answer(*last_reply_, out);
        sync s;
        s.cmd_id = next_cmd_id();
        s.target = loc("contacts");
        s.source = loc("./contacts");
        if (next == 0) s.number_of_changes = changes_.size();
        std::size_t used = encoded_size(out, encoding) + encoded_size(command{s}, syncml_version::v1_2, encoding);
        while (next < changes_.size()) {
            command c = change_command(changes_[next]);
            const std::size_t size = encoded_size(c, syncml_version::v1_2, encoding);
            if (!s.commands.empty() && used + size > limit * 9 / 10) break;
            const bool is_delete = changes_[next].op == change_op::remove;
            expect(out.header.msg_id, cmd_id_of(c), command_name(c),
                   is_delete ? std::vector<int>{200} : std::vector<int>{200, 201});
            s.commands.push_back(std::move(c));
            used += size;
            ++next;
            ++items_up;
        }
        expect(out.header.msg_id, s.cmd_id, "Sync", {200});
        out.body.commands.push_back(command{std::move(s)});
        out.body.final = next == changes_.size();
        auto reply = exchange(out, msg_kind::changes);
        if (!reply) return false;
        last_reply_ = std::move(*reply);
    } while (next < changes_.size());
    return true;
}

bool session_run::package4_rest() {
    for (int round = 0; !last_reply_->body.final; ++round) {
        if (round == max_continuations) {
            error("no-final");
            return false;
        }
        message out = begin_message();
        answer(*last_reply_, out);
        alert more;
        more.cmd_id = next_cmd_id();
        more.data = "222";
        item it;
        it.target = loc(target_uri_);
        it.source = loc(phone_.identity_.device_id);
        more.items.push_back(std::move(it));
        expect(out.header.msg_id, more.cmd_id, "Alert", {200});
        out.body.commands.push_back(command{std::move(more)});
        out.body.final = false;
        auto reply = exchange(out, msg_kind::more);
        if (!reply) return false;
        last_reply_ = std::move(*reply);
    }
    return true;
}

bool session_run::package5() {
    message out = begin_message();
    answer(*last_reply_, out);
    if (!mappings_.empty()) {
        map m;
        m.cmd_id = next_cmd_id();
        m.target = loc("contacts");
        m.source = loc("./contacts");
        m.items = mappings_;
        expect(out.header.msg_id, m.cmd_id, "Map", {200});
        out.body.commands.push_back(command{std::move(m)});
    }
    out.body.final = true;
    auto reply = exchange(out, msg_kind::map);
    if (!reply) return false;
    if (!reply->body.final) error("map-reply-not-final");
    return true;
}

}  // namespace syncml::loadtest
