#include "session/engine/engine.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "common/log/log_event.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/engine_run.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session {
namespace detail {

std::string code_text(int code) { return std::to_string(code); }

status& run::add_status(const std::string& cmd_ref, const std::string& cmd, int code) {
    status s;
    s.msg_ref = in.header.msg_id;
    s.cmd_ref = cmd_ref;
    s.cmd = cmd;
    s.data = code_text(code);
    statuses.push_back(std::move(s));
    return statuses.back();
}

namespace {

void number_commands(std::vector<command>& commands, int& next_id);

struct numberer {
    int& next_id;
    void operator()(sync& cmd) {
        cmd.cmd_id = std::to_string(next_id++);
        number_commands(cmd.commands, next_id);
    }
    void operator()(results& cmd) { cmd.cmd_id = std::to_string(next_id++); }
    void operator()(status& cmd) { cmd.cmd_id = std::to_string(next_id++); }
    void operator()(map& cmd) { cmd.cmd_id = std::to_string(next_id++); }
    template <class T>
    void operator()(T& cmd) {
        cmd.cmd_id = std::to_string(next_id++);
    }
};

void number_commands(std::vector<command>& commands, int& next_id) {
    for (auto& cmd : commands) std::visit(numberer{next_id}, cmd.value);
}

void absorb_header_meta(session_state& st, const message& in) {
    st.version = ver_dtd_string(in.version);
    if (!in.header.meta) return;
    // Up to 2^64-1 as sent: clamped so that no value turns negative (a negative limit would mean none).
    constexpr std::uint64_t most = std::numeric_limits<std::int64_t>::max();
    if (auto v = in.header.meta->max_msg_size) st.max_msg_size = static_cast<std::int64_t>(std::min(*v, most));
    if (auto v = in.header.meta->max_obj_size) st.max_obj_size = static_cast<std::int64_t>(std::min(*v, most));
}

// A command out of phase is refused with 403 (understood, not carried out), the commands inside it too.
void refuse_out_of_phase(run& r, const command& cmd) {
    common::log_event(spdlog::level::info, "sync: command refused out of phase",
                      {{"command", command_name(cmd)},
                       {"phase", phase_name(r.st.current)},
                       {"device", r.in.header.source.loc_uri},
                       {"session", r.in.header.session_id}});
    refuse_with_everything_inside(r, cmd, status_codes::forbidden);
}

const std::vector<command>* commands_inside(const command& cmd) {
    if (const auto* s = std::get_if<sync>(&cmd.value)) return &s->commands;
    if (const auto* a = std::get_if<atomic>(&cmd.value)) return &a->commands;
    if (const auto* q = std::get_if<sequence>(&cmd.value)) return &q->commands;
    return nullptr;
}

void dispatch(run& r, const command& cmd) {
    if (!accepted_in_phase(r.st, cmd)) {
        refuse_out_of_phase(r, cmd);
        return;
    }
    std::visit(
        [&r](const auto& c) {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, alert>) {
                handle_alert(r, c);
            } else if constexpr (std::is_same_v<T, sync>) {
                handle_sync(r, c);
            } else if constexpr (std::is_same_v<T, map>) {
                handle_map(r, c);
            } else if constexpr (std::is_same_v<T, put>) {
                handle_put(r, c);
            } else if constexpr (std::is_same_v<T, get>) {
                handle_get(r, c);
            } else if constexpr (std::is_same_v<T, results>) {
                handle_results(r, c);
            } else if constexpr (std::is_same_v<T, status>) {
                handle_status(r, c);
            } else if constexpr (std::is_same_v<T, sequence>) {
                // Carried out in order, as a message's commands are anyway.
                if (!c.no_resp) r.add_status(c.cmd_id, "Sequence", status_codes::ok);
                for (const auto& inner : c.commands) dispatch(r, inner);
            } else if constexpr (std::is_same_v<T, atomic>) {
                // All or nothing would need a transaction of its own: not supported, and nothing in it carried out.
                refuse_with_everything_inside(r, command{c}, status_codes::optional_feature_not_supported);
            } else {
                if (!c.no_resp)
                    r.add_status(c.cmd_id, command_name(command{c}), status_codes::optional_feature_not_supported);
            }
        },
        cmd.value);
}

// True when `in` carries nothing but statuses and Alert 222 (next message).
bool only_asks_for_next_message(const message& in) {
    bool asks = false;
    for (const auto& cmd : in.body.commands) {
        if (std::holds_alternative<status>(cmd.value)) continue;
        const auto* a = std::get_if<alert>(&cmd.value);
        if (!a || alert_code(*a) != alert_codes::next_message) return false;
        asks = true;
    }
    return asks;
}

// What a message with Final means depends on where the session is (engine_phase.cpp).
void advance(run& r) {
    if (r.suspended) {
        // Suspend (Alert 224) ends the session where it stands: the package's end is not applied (a refresh from
        // the client deletes no item it did not send yet, no anchor moves), and the kept state lets the client
        // continue with Alert 225 (engine_alert.cpp).
        r.final = true;
        return;
    }
    // A client asks for the rest of our reply with Alert 222, and marks the message Final when its own package is
    // complete: that Final was already counted with the package's last message.
    if (r.asking_for_rest) return;
    if (r.in.body.final) end_client_package(r);
}

message build_reply(run& r, std::vector<status> statuses, std::vector<command> commands) {
    message out;
    out.version = r.in.version;
    out.encoding = r.in.encoding;
    out.header.ver_dtd = ver_dtd_string(r.in.version);
    out.header.ver_proto = ver_proto_string(r.in.version);
    out.header.session_id = r.in.header.session_id;
    out.header.msg_id = std::to_string(r.st.next_msg_id);
    out.header.target.loc_uri = r.in.header.source.loc_uri;
    out.header.source.loc_uri = r.in.header.target.loc_uri;
    if (!r.ctx.resp_uri.empty()) out.header.resp_uri = r.ctx.resp_uri;
    meta_info meta;
    meta.max_msg_size = static_cast<std::uint64_t>(r.ctx.max_msg_size);
    // The largest object we take (SyncML 1.1 and later: 1.0 has no large objects), so that a client splits larger ones.
    // Only once authenticated: the tenant's limit in a challenge would tell a known tenant from an unknown one.
    if (r.in.version != syncml_version::v1_0 && r.st.authenticated)
        meta.max_obj_size = static_cast<std::uint64_t>(r.ctx.max_obj_size);
    out.header.meta = meta;
    for (auto& s : statuses) out.body.commands.push_back(command{std::move(s)});
    for (auto& c : commands) out.body.commands.push_back(std::move(c));
    int next_id = 1;
    number_commands(out.body.commands, next_id);
    out.body.final = r.final;
    return out;
}

// The client's limit, less room for what proxies and our estimate may miss.
std::size_t size_budget(const run& r, std::size_t used) {
    std::int64_t limit = r.st.max_msg_size > 0 ? r.st.max_msg_size : 1024 * 1024;
    limit = std::min(limit, r.ctx.max_msg_size);
    auto usable = static_cast<std::size_t>(limit) * 9 / 10;
    return usable > used ? usable - used : 0;
}

// The statuses and commands an earlier reply had no room for go first, before this message's own.
void take_carried(run& r) {
    if (r.st.pending_reply.empty()) return;
    auto decoded = decode(r.st.pending_reply);
    r.st.pending_reply.clear();
    if (!decoded) throw std::logic_error("session state holds an undecodable pending reply");
    std::vector<status> carried;
    std::vector<command> commands;
    for (auto& c : decoded.value().body.commands) {
        if (auto* s = std::get_if<status>(&c.value)) {
            carried.push_back(std::move(*s));
        } else {
            commands.push_back(std::move(c));
        }
    }
    r.carrying = !carried.empty();
    r.statuses.insert(r.statuses.begin(), std::make_move_iterator(carried.begin()),
                      std::make_move_iterator(carried.end()));
    r.commands.insert(r.commands.begin(), std::make_move_iterator(commands.begin()),
                      std::make_move_iterator(commands.end()));
    r.final = r.final || std::exchange(r.st.pending_final, false);
}

// Keeps in `statuses` (the SyncHdr's first) those that fit the client's MaxMsgSize, at least two besides the
// SyncHdr's; the rest and our commands wait in the state for the next reply, which the client asks for (Alert 222)
// or gets with its next message. True when some were kept back: this reply then ends no package.
bool split_statuses(run& r, std::vector<status>& statuses) {
    const auto usable = size_budget(r, 0);
    auto size = encoded_size(build_reply(r, {statuses.front()}, {}), r.in.encoding);
    std::size_t keep = 1;
    for (; keep < statuses.size(); ++keep) {
        auto probe = statuses[keep];
        probe.cmd_id = std::to_string(keep + 1);
        auto more = encoded_size(command{std::move(probe)}, r.in.version, r.in.encoding);
        // Two at least: each message asking for the rest adds a status of its own, so one would never catch up.
        if (keep > 2 && size + more > usable) break;
        size += more;
    }
    if (keep == statuses.size()) return false;
    std::vector<status> rest(std::make_move_iterator(statuses.begin() + static_cast<std::ptrdiff_t>(keep)),
                             std::make_move_iterator(statuses.end()));
    statuses.resize(keep);
    r.st.pending_reply = encode_xml(build_reply(r, std::move(rest), std::exchange(r.commands, {})));
    r.st.pending_final = r.final;
    r.final = false;
    return true;
}

// The SyncHdr's Status, its code set once the credentials are checked.
status header_status_of(const message& in) {
    status out;
    out.msg_ref = in.header.msg_id;
    out.cmd_ref = "0";
    out.cmd = "SyncHdr";
    out.target_refs = {in.header.target.loc_uri};
    out.source_refs = {in.header.source.loc_uri};
    return out;
}

}  // namespace

void refuse_with_everything_inside(run& r, const command& cmd, int code) {
    if (!no_response(cmd)) r.add_status(command_id(cmd), command_name(cmd), code);
    if (const auto* inner = commands_inside(cmd)) {
        for (const auto& c : *inner) refuse_with_everything_inside(r, c, code);
    }
}

}  // namespace detail

engine_outcome process_message(const message& in, session_state& state, persistence::device_record& device,
                               const engine_context& context, persistence::sync_store& store) {
    detail::run r{in, state, device, context, store, {}, {}, false, false};
    detail::absorb_header_meta(state, in);
    status header_status = detail::header_status_of(in);
    engine_outcome outcome;
    r.asking_for_rest = !state.pending_reply.empty() && detail::only_asks_for_next_message(in);
    if (!detail::check_auth(r, header_status)) {
        r.final = true;
        auto code = *status_code(header_status);
        for (const auto& cmd : in.body.commands) {
            if (!std::holds_alternative<status>(cmd.value)) r.add_status(command_id(cmd), command_name(cmd), code);
        }
        outcome.auth_failed = true;
    } else {
        for (const auto& cmd : in.body.commands) detail::dispatch(r, cmd);
        detail::advance(r);
    }
    const bool continues = !outcome.auth_failed && !r.suspended;
    if (continues) detail::take_carried(r);
    std::vector<status> statuses{std::move(header_status)};
    for (auto& s : r.statuses) statuses.push_back(std::move(s));
    const bool held_back = continues && detail::split_statuses(r, statuses);
    if (continues && !held_back && state.current == phase::server_changes) {
        auto partial = detail::build_reply(r, statuses, r.commands);
        r.message_budget = detail::size_budget(r, 1500);
        detail::fill_server_changes(r, detail::size_budget(r, encoded_size(partial, in.encoding)));
    }
    if (r.abort_code != 0) {
        statuses.front().data = detail::code_text(r.abort_code);
        r.final = true;
        state.current = phase::done;
    }
    outcome.reply = detail::build_reply(r, std::move(statuses), std::move(r.commands));
    ++state.next_msg_id;
    outcome.session_done = state.current == phase::done && state.pending_reply.empty();
    return outcome;
}

message error_reply(const sync_hdr& header, syncml_version version, wire_encoding encoding, int code) {
    message out;
    out.version = version;
    out.encoding = encoding;
    out.header.ver_dtd = ver_dtd_string(version);
    out.header.ver_proto = ver_proto_string(version);
    out.header.session_id = header.session_id;
    out.header.msg_id = "1";
    out.header.target.loc_uri = header.source.loc_uri;
    out.header.source.loc_uri = header.target.loc_uri;
    status s;
    s.cmd_id = "1";
    s.msg_ref = header.msg_id;
    s.cmd_ref = "0";
    s.cmd = "SyncHdr";
    s.target_refs = {header.target.loc_uri};
    s.source_refs = {header.source.loc_uri};
    s.data = std::to_string(code);
    out.body.commands.push_back(command{std::move(s)});
    out.body.final = true;
    return out;
}

}  // namespace syncml::session
