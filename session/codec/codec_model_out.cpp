// Message model -> tree, in the element order of the SyncML 1.2 DTD.
#include "session/codec/codec_model.hpp"

namespace syncml::session {

namespace {

void add_opt(codec_node& parent, const char* name, const std::optional<std::string>& value) {
    if (value) parent.add(name, *value);
}

void add_flag(codec_node& parent, const char* name, bool value) {
    if (value) parent.add(name);
}

void add_meta_opt(codec_node& parent, const std::optional<meta_info>& meta) {
    if (meta) add_meta(parent, *meta);
}

void add_cred(codec_node& parent, const std::optional<credentials>& cred) {
    if (!cred) return;
    auto& n = parent.add("Cred");
    add_meta_opt(n, cred->meta);
    n.add("Data", cred->data);
}

void add_filter_part(codec_node& parent, const char* name, const std::optional<filter_part>& part) {
    if (!part) return;
    auto& item = parent.add(name).add("Item");
    add_meta_opt(item, part->meta);
    if (part->data) item.add("Data", *part->data).opaque = true;
}

void add_location(codec_node& parent, const char* name, const location& loc) {
    auto& n = parent.add(name);
    n.add("LocURI", loc.loc_uri);
    add_opt(n, "LocName", loc.loc_name);
    if (!loc.filter) return;
    auto& f = n.add("Filter");
    add_meta_opt(f, loc.filter->meta);
    add_filter_part(f, "Field", loc.filter->field);
    add_filter_part(f, "Record", loc.filter->record);
    add_opt(f, "FilterType", loc.filter->filter_type);
}

void add_location_opt(codec_node& parent, const char* name, const std::optional<location>& loc) {
    if (loc) add_location(parent, name, *loc);
}

void add_parent(codec_node& parent, const char* name, const std::optional<std::string>& uri) {
    if (uri) parent.add(name).add("LocURI", *uri);
}

void add_data(codec_node& parent, const item_data& data) {
    auto& n = parent.add("Data");
    if (data.devinf) {
        n.children.push_back(tree_from_devinf(*data.devinf));
    } else if (data.anchor) {
        auto& a = n.add("Anchor");
        a.ns = codec_ns::metinf;
        add_opt(a, "Last", data.anchor->last);
        add_opt(a, "Next", data.anchor->next);
    } else {
        n.text = data.bytes;
        n.opaque = true;
    }
}

void add_items(codec_node& parent, const std::vector<item>& items) {
    for (const auto& it : items) {
        auto& n = parent.add("Item");
        add_location_opt(n, "Target", it.target);
        add_location_opt(n, "Source", it.source);
        add_parent(n, "SourceParent", it.source_parent);
        add_parent(n, "TargetParent", it.target_parent);
        add_meta_opt(n, it.meta);
        if (it.data) add_data(n, *it.data);
        add_flag(n, "MoreData", it.more_data);
    }
}

codec_node start(const char* name, const command_base& base) {
    codec_node n;
    n.name = name;
    n.add("CmdID", base.cmd_id);
    add_flag(n, "NoResp", base.no_resp);
    add_cred(n, base.cred);
    return n;
}

struct to_tree {
    codec_node operator()(const alert& a) const {
        auto n = start("Alert", a);
        add_opt(n, "Data", a.data);
        add_opt(n, "Correlator", a.correlator);
        add_items(n, a.items);
        return n;
    }
    codec_node items_cmd(const char* name, const session::item_command& c) const {
        auto n = start(name, c);
        add_meta_opt(n, c.meta);
        add_items(n, c.items);
        return n;
    }
    codec_node operator()(const add& c) const { return items_cmd("Add", c); }
    codec_node operator()(const replace& c) const { return items_cmd("Replace", c); }
    codec_node operator()(const copy& c) const { return items_cmd("Copy", c); }
    codec_node operator()(const move& c) const { return items_cmd("Move", c); }
    codec_node operator()(const delete_& c) const {
        auto n = start("Delete", c);
        add_flag(n, "Archive", c.archive);
        add_flag(n, "SftDel", c.sft_del);
        add_meta_opt(n, c.meta);
        add_items(n, c.items);
        return n;
    }
    codec_node with_lang(const char* name, const session::item_command& c,
                         const std::optional<std::string>& lang) const {
        auto n = start(name, c);
        add_opt(n, "Lang", lang);
        add_meta_opt(n, c.meta);
        add_items(n, c.items);
        return n;
    }
    codec_node operator()(const get& c) const { return with_lang("Get", c, c.lang); }
    codec_node operator()(const put& c) const { return with_lang("Put", c, c.lang); }
    codec_node operator()(const results& r) const {
        codec_node n;
        n.name = "Results";
        n.add("CmdID", r.cmd_id);
        add_opt(n, "MsgRef", r.msg_ref);
        n.add("CmdRef", r.cmd_ref);
        add_meta_opt(n, r.meta);
        add_opt(n, "TargetRef", r.target_ref);
        add_opt(n, "SourceRef", r.source_ref);
        add_items(n, r.items);
        return n;
    }
    codec_node operator()(const status& s) const {
        codec_node n;
        n.name = "Status";
        n.add("CmdID", s.cmd_id);
        n.add("MsgRef", s.msg_ref);
        n.add("CmdRef", s.cmd_ref);
        n.add("Cmd", s.cmd);
        for (const auto& t : s.target_refs) n.add("TargetRef", t);
        for (const auto& r : s.source_refs) n.add("SourceRef", r);
        add_cred(n, s.cred);
        if (s.chal) add_meta_opt(n.add("Chal"), s.chal->meta);
        n.add("Data", s.data);
        add_items(n, s.items);
        return n;
    }
    codec_node operator()(const map& m) const {
        codec_node n;
        n.name = "Map";
        n.add("CmdID", m.cmd_id);
        add_location(n, "Target", m.target);
        add_location(n, "Source", m.source);
        add_cred(n, m.cred);
        add_meta_opt(n, m.meta);
        for (const auto& mi : m.items) {
            auto& i = n.add("MapItem");
            i.add("Target").add("LocURI", mi.target);
            i.add("Source").add("LocURI", mi.source);
        }
        return n;
    }
    codec_node operator()(const exec& e) const {
        auto n = start("Exec", e);
        add_meta_opt(n, e.meta);
        add_opt(n, "Correlator", e.correlator);
        add_items(n, e.items);
        return n;
    }
    codec_node operator()(const search& s) const {
        auto n = start("Search", s);
        add_flag(n, "NoResults", s.no_results);
        add_location_opt(n, "Target", s.target);
        for (const auto& src : s.sources) add_location(n, "Source", src);
        add_opt(n, "Lang", s.lang);
        add_meta_opt(n, s.meta);
        if (s.data) n.add("Data", *s.data).opaque = true;
        return n;
    }
    codec_node container(const char* name, const command_base& base, const std::optional<meta_info>& meta,
                         const std::vector<command>& commands) const {
        auto n = start(name, base);
        add_meta_opt(n, meta);
        for (const auto& c : commands) n.children.push_back(tree_from_command(c));
        return n;
    }
    codec_node operator()(const atomic& a) const { return container("Atomic", a, a.meta, a.commands); }
    codec_node operator()(const sequence& s) const { return container("Sequence", s, s.meta, s.commands); }
    codec_node operator()(const sync& s) const {
        auto n = start("Sync", s);
        add_location_opt(n, "Target", s.target);
        add_location_opt(n, "Source", s.source);
        add_meta_opt(n, s.meta);
        if (s.number_of_changes) n.add("NumberOfChanges", std::to_string(*s.number_of_changes));
        for (const auto& c : s.commands) n.children.push_back(tree_from_command(c));
        return n;
    }
};

codec_node header_tree(const sync_hdr& h) {
    codec_node n;
    n.name = "SyncHdr";
    n.add("VerDTD", h.ver_dtd);
    n.add("VerProto", h.ver_proto);
    n.add("SessionID", h.session_id);
    n.add("MsgID", h.msg_id);
    add_location(n, "Target", h.target);
    add_location(n, "Source", h.source);
    add_opt(n, "RespURI", h.resp_uri);
    add_flag(n, "NoResp", h.no_resp);
    add_cred(n, h.cred);
    add_meta_opt(n, h.meta);
    return n;
}

}  // namespace

codec_node tree_from_command(const command& cmd) { return std::visit(to_tree{}, cmd.value); }

codec_node tree_from_message(const message& msg) {
    codec_node root;
    root.name = "SyncML";
    root.ns = codec_ns::syncml;
    root.children.push_back(header_tree(msg.header));
    auto& body = root.add("SyncBody");
    for (const auto& c : msg.body.commands) body.children.push_back(tree_from_command(c));
    add_flag(body, "Final", msg.body.final);
    return root;
}

}  // namespace syncml::session
