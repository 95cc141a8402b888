// Tree -> SyncML commands: one reader per command, containers (Sync, Atomic, Sequence) read their children in turn.
// Unknown elements among the commands are skipped.
#include <string>
#include <type_traits>
#include <vector>

#include "session/codec/codec_model_reader.hpp"

namespace syncml::session {

namespace {

bool is_command(std::string_view name) {
    static constexpr std::string_view k_commands[] = {
        "Alert",   "Add",    "Replace", "Delete", "Copy",   "Move",     "Get",  "Put",
        "Results", "Status", "Map",     "Exec",   "Search", "Sequence", "Sync", "Atomic",
    };
    for (auto c : k_commands)
        if (name == c) return true;
    return false;
}

}  // namespace

void model_reader::base(const codec_node& node, command_base& out) {
    out.cmd_id = text_of(node.child("CmdID"));
    out.no_resp = node.child("NoResp") != nullptr;
    out.cred = cred(node);
}

template <typename T>
T model_reader::item_cmd(const codec_node& node) {
    T out;
    base(node, out);
    out.meta = meta(node);
    out.items = items(node);
    return out;
}

alert model_reader::alert_of(const codec_node& node) {
    alert out;
    base(node, out);
    out.data = optional_text(node.child("Data"));
    out.correlator = optional_text(node.child("Correlator"));
    out.items = items(node);
    return out;
}

results model_reader::results_of(const codec_node& node) {
    results out;
    out.cmd_id = text_of(node.child("CmdID"));
    out.msg_ref = optional_text(node.child("MsgRef"));
    out.cmd_ref = text_of(node.child("CmdRef"));
    out.meta = meta(node);
    out.target_ref = optional_text(node.child("TargetRef"));
    out.source_ref = optional_text(node.child("SourceRef"));
    out.items = items(node);
    return out;
}

status model_reader::status_of(const codec_node& node) {
    status out;
    out.cmd_id = text_of(node.child("CmdID"));
    out.msg_ref = text_of(node.child("MsgRef"));
    out.cmd_ref = text_of(node.child("CmdRef"));
    out.cmd = text_of(node.child("Cmd"));
    for (const auto& c : node.children) {
        if (c.name == "TargetRef") out.target_refs.push_back(text_of(&c));
        if (c.name == "SourceRef") out.source_refs.push_back(text_of(&c));
    }
    out.cred = cred(node);
    if (const auto* ch = node.child("Chal")) out.chal = challenge{meta(*ch)};
    out.data = text_of(node.child("Data"));
    out.items = items(node);
    return out;
}

map model_reader::map_of(const codec_node& node) {
    map out;
    out.cmd_id = text_of(node.child("CmdID"));
    if (auto t = loc(node.child("Target"))) out.target = std::move(*t);
    if (auto s = loc(node.child("Source"))) out.source = std::move(*s);
    out.cred = cred(node);
    out.meta = meta(node);
    for (const auto& c : node.children) {
        if (c.name != "MapItem") continue;
        map_item mi;
        if (const auto* t = c.child("Target")) mi.target = text_of(t->child("LocURI"));
        if (const auto* s = c.child("Source")) mi.source = text_of(s->child("LocURI"));
        out.items.push_back(std::move(mi));
    }
    return out;
}

exec model_reader::exec_of(const codec_node& node) {
    exec out;
    base(node, out);
    out.meta = meta(node);
    out.correlator = optional_text(node.child("Correlator"));
    out.items = items(node);
    return out;
}

search model_reader::search_of(const codec_node& node) {
    search out;
    base(node, out);
    out.no_results = node.child("NoResults") != nullptr;
    out.target = loc(node.child("Target"));
    for (const auto& c : node.children)
        if (c.name == "Source" && charge(c, sizeof(location))) out.sources.push_back(*loc(&c));
    out.lang = optional_text(node.child("Lang"));
    out.meta = meta(node);
    if (const auto* d = node.child("Data")) out.data = d->text;
    return out;
}

template <typename T>
std::optional<command> model_reader::container(const codec_node& node, std::size_t depth) {
    T out;
    base(node, out);
    out.meta = meta(node);
    if constexpr (std::is_same_v<T, sync>) {
        out.target = loc(node.child("Target"));
        out.source = loc(node.child("Source"));
        if (const auto* n = node.child("NumberOfChanges")) out.number_of_changes = parse_number(n->text);
    }
    if (!commands(node, out.commands, depth + 1)) return std::nullopt;
    return command{std::move(out)};
}

std::optional<command> model_reader::command_of(const codec_node& node, std::size_t depth) {
    const auto& n = node.name;
    if (n == "Alert") return command{alert_of(node)};
    if (n == "Add") return command{item_cmd<add>(node)};
    if (n == "Replace") return command{item_cmd<replace>(node)};
    if (n == "Delete") {
        auto d = item_cmd<delete_>(node);
        d.archive = node.child("Archive") != nullptr;
        d.sft_del = node.child("SftDel") != nullptr;
        return command{std::move(d)};
    }
    if (n == "Copy") return command{item_cmd<copy>(node)};
    if (n == "Move") return command{item_cmd<move>(node)};
    if (n == "Get") {
        auto g = item_cmd<get>(node);
        g.lang = optional_text(node.child("Lang"));
        return command{std::move(g)};
    }
    if (n == "Put") {
        auto p = item_cmd<put>(node);
        p.lang = optional_text(node.child("Lang"));
        return command{std::move(p)};
    }
    if (n == "Results") return command{results_of(node)};
    if (n == "Status") return command{status_of(node)};
    if (n == "Map") return command{map_of(node)};
    if (n == "Exec") return command{exec_of(node)};
    if (n == "Search") return command{search_of(node)};
    if (n == "Atomic") return container<atomic>(node, depth);
    if (n == "Sequence") return container<sequence>(node, depth);
    if (n == "Sync") return container<sync>(node, depth);
    return std::nullopt;
}

bool model_reader::commands(const codec_node& parent, std::vector<command>& out, std::size_t depth) {
    static constexpr std::string_view k_not_commands[] = {
        "CmdID", "NoResp", "Cred", "Meta", "Target", "Source", "NumberOfChanges", "Final",
    };
    out.reserve(out.size() + capacity_for(parent, sizeof(command), is_command));
    for (const auto& c : parent.children) {
        bool skip = false;
        for (auto name : k_not_commands) skip = skip || c.name == name;
        if (skip) continue;
        auto cmd = command_of(c, depth);
        if (error_) return false;
        if (cmd && !charge(c, sizeof(command))) return false;
        if (cmd) out.push_back(std::move(*cmd));
    }
    return true;
}

}  // namespace syncml::session
