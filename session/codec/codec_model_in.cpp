// Tree -> message model. Tolerant: unknown elements are skipped, numbers that do not parse are
// dropped, missing optional parts stay empty. Only what the engine cannot do without (SyncHdr with
// VerDTD, SessionID and MsgID; one SyncBody) is required.
#include <algorithm>
#include <string>
#include <vector>

#include "session/codec/codec_budget.hpp"
#include "session/codec/codec_model.hpp"
#include "session/codec/xml_writer.hpp"

namespace syncml::session {

namespace {

// Nested DevInf documents sit at most this deep inside a SyncML message (SyncML/SyncBody/Sync/
// Atomic/Put/Item/Data); charged against max_depth when they are decoded.
constexpr std::size_t k_nested_document_depth = 8;

bool is_command(std::string_view name) {
    static constexpr std::string_view k_commands[] = {
        "Alert",   "Add",    "Replace", "Delete", "Copy",   "Move",     "Get",  "Put",
        "Results", "Status", "Map",     "Exec",   "Search", "Sequence", "Sync", "Atomic",
    };
    for (auto c : k_commands)
        if (name == c) return true;
    return false;
}

class model_reader {
  public:
    explicit model_reader(const decode_limits& limits)
        : limits_(limits), nested_text_left_(limits.max_text_bytes), model_left_(limits.max_model_bytes) {}

    std::optional<decode_error> error_;

    bool fail(const codec_node& at, std::string expected) {
        if (!error_) {
            decode_error e;
            e.offset = at.offset;
            e.expected = std::move(expected);
            error_ = std::move(e);
        }
        return false;
    }

    // Room for the children of `parent` that `counts` selects, within what is left of the model budget:
    // reserved up front, a vector does not hold its old and its doubled buffer at once while growing.
    template <typename Predicate>
    std::size_t capacity_for(const codec_node& parent, std::size_t part_size, Predicate counts) const {
        std::size_t n = 0;
        for (const auto& c : parent.children) n += counts(c.name) ? 1 : 0;
        return std::min(n, model_left_ / part_size + 1);
    }

    // Takes `bytes` of the model budget for a part built from `at`.
    bool charge(const codec_node& at, std::size_t bytes) {
        if (bytes > model_left_) return fail(at, std::string(k_model_limit_expected));
        model_left_ -= bytes;
        return true;
    }

    const codec_node* single(const codec_node& parent, std::string_view name) {
        const codec_node* found = nullptr;
        for (const auto& c : parent.children) {
            if (c.name != name) continue;
            if (found) {
                fail(c, "a single <" + std::string(name) + "> in <" + parent.name + ">");
                return nullptr;
            }
            found = &c;
        }
        return found;
    }

    std::optional<meta_info> meta(const codec_node& parent) {
        const auto* m = parent.child("Meta");
        if (!m) return std::nullopt;
        return meta_from_tree(*m);
    }

    std::optional<credentials> cred(const codec_node& parent) {
        const auto* c = parent.child("Cred");
        if (!c) return std::nullopt;
        credentials out;
        out.meta = meta(*c);
        out.data = text_of(c->child("Data"));
        return out;
    }

    std::optional<item_filter> filter(const codec_node& parent) {
        const auto* f = parent.child("Filter");
        if (!f) return std::nullopt;
        item_filter out;
        out.meta = meta(*f);
        out.field = filter_part_of(f->child("Field"));
        out.record = filter_part_of(f->child("Record"));
        out.filter_type = optional_text(f->child("FilterType"));
        return out;
    }

    std::optional<filter_part> filter_part_of(const codec_node* node) {
        if (!node) return std::nullopt;
        filter_part out;
        const auto* it = node->child("Item");
        const auto& source = it ? *it : *node;
        out.meta = meta(source);
        if (const auto* d = source.child("Data")) out.data = markup_of(*d);
        return out;
    }

    // A filter's Data as text: a field filter's is DevInf markup (<Property> elements), kept as the XML the client
    // sent, or written out as XML when it came as WBXML elements (element names spelled out: more than the WBXML
    // took, so bounded before it is written).
    std::string markup_of(const codec_node& data) {
        if (data.raw) return *data.raw;
        if (data.children.empty()) return data.text;
        if (markup_bound(data) > k_max_filter_markup) {
            fail(data, "filter data of at most " + std::to_string(k_max_filter_markup) + " bytes");
            return {};
        }
        std::string out;
        for (const auto& c : data.children) write_xml(c, syncml_version::v1_2, out);
        if (!charge(data, out.size())) return {};
        return out;
    }

    static constexpr std::size_t k_max_filter_markup = 64 * 1024;

    // An upper bound on the XML of `data`'s children: tags twice, text escaped (at most 6 bytes per byte). Stops
    // counting once over the limit.
    static std::size_t markup_bound(const codec_node& data) {
        std::size_t bound = 0;
        std::vector<const codec_node*> pending{&data};
        while (!pending.empty() && bound <= k_max_filter_markup) {
            const auto* node = pending.back();
            pending.pop_back();
            for (const auto& c : node->children) {
                bound += 2 * c.name.size() + 5 + 6 * c.text.size();
                pending.push_back(&c);
            }
        }
        return bound;
    }

    std::optional<location> loc(const codec_node* node) {
        if (!node) return std::nullopt;
        location out;
        out.loc_uri = text_of(node->child("LocURI"));
        out.loc_name = optional_text(node->child("LocName"));
        out.filter = filter(*node);
        return out;
    }

    std::optional<std::string> parent_uri(const codec_node* node) {
        if (!node) return std::nullopt;
        return text_of(node->child("LocURI"));
    }

    item_data data(const codec_node& node, const std::optional<meta_info>& item_meta) {
        item_data out;
        if (!data_into(node, item_meta, out)) fail(node, "nested DevInf within the message's limits");
        return out;
    }

    // False when a nested DevInf document would exceed what the message left of its text budget.
    bool data_into(const codec_node& node, const std::optional<meta_info>& item_meta, item_data& out) {
        if (const auto* d = node.child("DevInf")) {
            if (!charge(*d, devinf_model_cost(*d))) return false;
            auto info = devinf_from_tree(*d);
            if (auto* ok = std::get_if<dev_inf>(&info)) {
                out.devinf = std::move(*ok);
                return true;
            }
        }
        if (const auto* a = node.child("Anchor"); a && node.children.size() == 1) {
            out.anchor = meta_from_tree(node).anchor;
            return true;
        }
        out.bytes = node.raw ? *node.raw : node.text;
        (void)item_meta;
        // Bytes are re-encoded as text or opaque data without child elements, where a DevInf document
        // in them would be found: find it now too, whatever else the element held.
        auto nested = devinf_from_bytes(out.bytes, nested_limits(), k_nested_document_depth);
        nested_text_left_ -= std::min(nested.text_used, nested_text_left_);
        model_left_ -= std::min(nested.model_used, model_left_);
        if (nested.over_budget) return false;
        if (nested.info) {
            out.devinf = std::move(*nested.info);
            out.bytes.clear();
        }
        return true;
    }

    decode_limits nested_limits() const {
        auto out = limits_;
        out.max_text_bytes = nested_text_left_;
        out.max_model_bytes = model_left_;
        return out;
    }

    item item_of(const codec_node& node) {
        item out;
        out.target = loc(node.child("Target"));
        out.source = loc(node.child("Source"));
        out.source_parent = parent_uri(node.child("SourceParent"));
        out.target_parent = parent_uri(node.child("TargetParent"));
        out.meta = meta(node);
        if (const auto* d = node.child("Data")) out.data = data(*d, out.meta);
        out.more_data = node.child("MoreData") != nullptr;
        return out;
    }

    std::vector<item> items(const codec_node& parent) {
        std::vector<item> out;
        out.reserve(capacity_for(parent, sizeof(item), [](std::string_view name) { return name == "Item"; }));
        for (const auto& c : parent.children) {
            if (c.name != "Item") continue;
            if (!charge(c, sizeof(item))) break;
            out.push_back(item_of(c));
        }
        return out;
    }

    void base(const codec_node& node, command_base& out) {
        out.cmd_id = text_of(node.child("CmdID"));
        out.no_resp = node.child("NoResp") != nullptr;
        out.cred = cred(node);
    }

    template <typename T>
    T item_cmd(const codec_node& node) {
        T out;
        base(node, out);
        out.meta = meta(node);
        out.items = items(node);
        return out;
    }

    std::optional<command> command_of(const codec_node& node, std::size_t depth);
    bool commands(const codec_node& parent, std::vector<command>& out, std::size_t depth);

  private:
    alert alert_of(const codec_node& node) {
        alert out;
        base(node, out);
        out.data = optional_text(node.child("Data"));
        out.correlator = optional_text(node.child("Correlator"));
        out.items = items(node);
        return out;
    }

    results results_of(const codec_node& node) {
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

    status status_of(const codec_node& node) {
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

    map map_of(const codec_node& node) {
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

    exec exec_of(const codec_node& node) {
        exec out;
        base(node, out);
        out.meta = meta(node);
        out.correlator = optional_text(node.child("Correlator"));
        out.items = items(node);
        return out;
    }

    search search_of(const codec_node& node) {
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
    std::optional<command> container(const codec_node& node, std::size_t depth) {
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

    const decode_limits& limits_;
    std::size_t nested_text_left_;  // of the message's decoded-text budget, for nested DevInf documents
    std::size_t model_left_;        // of decode_limits::max_model_bytes
};

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
    model_reader r(decode_limits{});
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
