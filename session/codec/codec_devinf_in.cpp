// Tree -> MetInf and DevInf models, plus the text helpers the mapping shares.
#include <charconv>
#include <string>

#include "session/codec/codec_model.hpp"

namespace syncml::session {

std::string_view trimmed(std::string_view text) {
    constexpr std::string_view k_space = " \t\r\n";
    const auto begin = text.find_first_not_of(k_space);
    if (begin == std::string_view::npos) return {};
    const auto end = text.find_last_not_of(k_space);
    return text.substr(begin, end - begin + 1);
}

std::optional<std::uint64_t> parse_number(std::string_view text) {
    text = trimmed(text);
    std::uint64_t value = 0;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
    return value;
}

std::string text_of(const codec_node* node) { return node ? std::string(trimmed(node->text)) : std::string(); }

std::optional<std::string> optional_text(const codec_node* node) {
    if (!node) return std::nullopt;
    return std::string(trimmed(node->text));
}

namespace {

std::optional<std::uint64_t> number_of(const codec_node* node) {
    return node ? parse_number(node->text) : std::nullopt;
}

// DevInf 1.0 spelled some names differently from 1.2; accept both.
bool is(const codec_node& node, std::string_view name) {
    if (node.name == name) return true;
    if (name == "XNam") return node.name == "Xnam";
    if (name == "XVal") return node.name == "Xval";
    return false;
}

content_type_ref ct_ref(const codec_node& node) {
    return content_type_ref{text_of(node.child("CTType")), text_of(node.child("VerCT"))};
}

prop_param param_of(const codec_node& node) {
    prop_param out;
    out.param_name = text_of(node.child("ParamName"));
    out.data_type = optional_text(node.child("DataType"));
    out.display_name = optional_text(node.child("DisplayName"));
    for (const auto& c : node.children)
        if (c.name == "ValEnum") out.val_enums.push_back(text_of(&c));
    return out;
}

// 1.0/1.1 flat CTCap: a run of siblings; CTType opens a cap, PropName a property, ParamName a
// parameter, and the other elements describe whatever was opened last.
void flat_ct_caps(const codec_node& node, std::vector<ct_cap>& out) {
    ct_property* prop = nullptr;
    prop_param* param = nullptr;
    for (const auto& c : node.children) {
        const auto value = text_of(&c);
        if (c.name == "CTType") {
            out.push_back(ct_cap{value, std::nullopt, false, {}});
            prop = nullptr;
            param = nullptr;
        } else if (out.empty()) {
            continue;
        } else if (c.name == "VerCT") {
            out.back().ver_ct = value;
        } else if (c.name == "FieldLevel") {
            out.back().field_level = true;
        } else if (c.name == "PropName") {
            out.back().properties.push_back(ct_property{value, {}, {}, {}, false, {}, {}, {}});
            prop = &out.back().properties.back();
            param = nullptr;
        } else if (c.name == "ParamName" && prop) {
            prop->params.push_back(prop_param{value, {}, {}, {}});
            param = &prop->params.back();
        } else if (c.name == "ValEnum" && (param || prop)) {
            (param ? param->val_enums : prop->val_enums).push_back(value);
        } else if (c.name == "DataType" && (param || prop)) {
            (param ? param->data_type : prop->data_type) = value;
        } else if (c.name == "DisplayName" && (param || prop)) {
            (param ? param->display_name : prop->display_name) = value;
        } else if ((c.name == "Size" || c.name == "MaxSize") && prop && !param) {
            prop->max_size = parse_number(value);
        }
    }
}

void ct_caps_of(const codec_node& node, std::vector<ct_cap>& out) {
    if (!node.child("Property")) {
        flat_ct_caps(node, out);
        return;
    }
    ct_cap cap;
    cap.ct_type = text_of(node.child("CTType"));
    cap.ver_ct = optional_text(node.child("VerCT"));
    cap.field_level = node.child("FieldLevel") != nullptr;
    for (const auto& c : node.children)
        if (c.name == "Property") cap.properties.push_back(property_of(c));
    out.push_back(std::move(cap));
}

filter_cap filter_cap_of(const codec_node& node) {
    filter_cap out;
    out.ct_type = text_of(node.child("CTType"));
    out.ver_ct = text_of(node.child("VerCT"));
    for (const auto& c : node.children) {
        if (c.name == "FilterKeyword") out.filter_keywords.push_back(text_of(&c));
        if (c.name == "PropName") out.prop_names.push_back(text_of(&c));
    }
    return out;
}

void datastore_child(const codec_node& c, datastore& out) {
    if (c.name == "Rx-Pref")
        out.rx_pref = ct_ref(c);
    else if (c.name == "Rx")
        out.rx.push_back(ct_ref(c));
    else if (c.name == "Tx-Pref")
        out.tx_pref = ct_ref(c);
    else if (c.name == "Tx")
        out.tx.push_back(ct_ref(c));
    else if (c.name == "CTCap")
        ct_caps_of(c, out.ct_caps);
    else if (c.name == "Filter-Rx")
        out.filter_rx.push_back(ct_ref(c));
    else if (c.name == "FilterCap")
        out.filter_caps.push_back(filter_cap_of(c));
    else if (c.name == "DSMem") {
        ds_mem mem;
        mem.shared_mem = c.child("SharedMem") != nullptr;
        mem.max_mem = number_of(c.child("MaxMem"));
        mem.max_id = number_of(c.child("MaxID"));
        out.mem = mem;
    } else if (c.name == "SyncCap") {
        auto& types = out.sync_cap.emplace();
        for (const auto& t : c.children)
            if (t.name == "SyncType") types.push_back(text_of(&t));
    }
}

datastore datastore_of(const codec_node& node) {
    datastore out;
    out.source_ref = text_of(node.child("SourceRef"));
    out.display_name = optional_text(node.child("DisplayName"));
    out.max_guid_size = number_of(node.child("MaxGUIDSize"));
    out.supports_hierarchical_sync = node.child("SupportHierarchicalSync") != nullptr;
    for (const auto& c : node.children) datastore_child(c, out);
    return out;
}

dev_ext ext_of(const codec_node& node) {
    dev_ext out;
    for (const auto& c : node.children) {
        if (is(c, "XNam")) out.xnam = text_of(&c);
        if (is(c, "XVal")) out.xvals.push_back(text_of(&c));
    }
    return out;
}

}  // namespace

ct_property property_of(const codec_node& node) {
    ct_property out;
    out.prop_name = text_of(node.child("PropName"));
    out.data_type = optional_text(node.child("DataType"));
    out.max_occur = number_of(node.child("MaxOccur"));
    out.max_size = number_of(node.child("MaxSize"));
    if (!out.max_size) out.max_size = number_of(node.child("Size"));
    out.no_truncate = node.child("NoTruncate") != nullptr;
    out.display_name = optional_text(node.child("DisplayName"));
    for (const auto& c : node.children) {
        if (c.name == "ValEnum") out.val_enums.push_back(text_of(&c));
        if (c.name == "PropParam") out.params.push_back(param_of(c));
    }
    return out;
}

meta_info meta_from_tree(const codec_node& meta) {
    if (const auto* wrapped = meta.child("MetInf")) return meta_from_tree(*wrapped);
    meta_info out;
    out.format = optional_text(meta.child("Format"));
    out.type = optional_text(meta.child("Type"));
    out.mark = optional_text(meta.child("Mark"));
    out.size = number_of(meta.child("Size"));
    out.next_nonce = optional_text(meta.child("NextNonce"));
    out.version = optional_text(meta.child("Version"));
    out.max_msg_size = number_of(meta.child("MaxMsgSize"));
    out.max_obj_size = number_of(meta.child("MaxObjSize"));
    out.field_level = meta.child("FieldLevel") != nullptr;
    for (const auto& c : meta.children)
        if (c.name == "EMI") out.emi.push_back(c.text);
    if (const auto* m = meta.child("Mem")) {
        mem_info mem;
        mem.shared_mem = m->child("SharedMem") != nullptr;
        mem.free_mem = number_of(m->child("FreeMem"));
        mem.free_id = number_of(m->child("FreeID"));
        out.mem = mem;
    }
    if (const auto* a = meta.child("Anchor"))
        out.anchor = sync_anchor{optional_text(a->child("Last")), optional_text(a->child("Next"))};
    return out;
}

std::size_t devinf_model_cost(const codec_node& node) {
    static const std::pair<std::string_view, std::size_t> k_costs[] = {
        {"DataStore", sizeof(datastore)},
        {"CTCap", sizeof(ct_cap)},
        {"CTType", sizeof(ct_cap)},
        {"Property", sizeof(ct_property)},
        {"PropName", sizeof(ct_property)},
        {"PropParam", sizeof(prop_param)},
        {"ParamName", sizeof(prop_param)},
        {"Rx", sizeof(content_type_ref)},
        {"Tx", sizeof(content_type_ref)},
        {"Filter-Rx", sizeof(content_type_ref)},
        {"FilterCap", sizeof(filter_cap)},
        {"Ext", sizeof(dev_ext)},
        {"ValEnum", sizeof(std::string)},
        {"SyncType", sizeof(std::string)},
        {"XVal", sizeof(std::string)},
        {"Xval", sizeof(std::string)},
        {"FilterKeyword", sizeof(std::string)},
    };
    std::size_t cost = 0;
    for (const auto& [name, bytes] : k_costs)
        if (node.name == name) cost = bytes;
    // Recursion is bounded by decode_limits::max_depth, which the readers enforce.
    for (const auto& c : node.children) cost += devinf_model_cost(c);
    return cost;
}

std::variant<dev_inf, decode_error> devinf_from_tree(const codec_node& root) {
    if (root.name != "DevInf") return decode_error{root.offset, "<DevInf> root element", {}, {}, {}};
    dev_inf out;
    out.ver_dtd = text_of(root.child("VerDTD"));
    out.man = optional_text(root.child("Man"));
    out.mod = optional_text(root.child("Mod"));
    out.oem = optional_text(root.child("OEM"));
    out.fw_v = optional_text(root.child("FwV"));
    out.sw_v = optional_text(root.child("SwV"));
    out.hw_v = optional_text(root.child("HwV"));
    out.dev_id = text_of(root.child("DevID"));
    out.dev_typ = text_of(root.child("DevTyp"));
    out.utc = root.child("UTC") != nullptr;
    out.support_large_objs = root.child("SupportLargeObjs") != nullptr;
    out.support_number_of_changes = root.child("SupportNumberOfChanges") != nullptr;
    for (const auto& c : root.children) {
        if (c.name == "DataStore")
            out.datastores.push_back(datastore_of(c));
        else if (c.name == "CTCap")
            ct_caps_of(c, out.ct_caps);
        else if (c.name == "Ext")
            out.exts.push_back(ext_of(c));
    }
    return out;
}

}  // namespace syncml::session
