// DevInf and MetInf models -> tree. CTCap style follows the DevInf VerDTD: nested for 1.2, the flat
// sequence for 1.0/1.1.
#include "session/codec/codec_model.hpp"

namespace syncml::session {

namespace {

void add_opt(codec_node& parent, const char* name, const std::optional<std::string>& value) {
    if (value) parent.add(name, *value);
}

void add_num(codec_node& parent, const char* name, const std::optional<std::uint64_t>& value) {
    if (value) parent.add(name, std::to_string(*value));
}

void add_flag(codec_node& parent, const char* name, bool value) {
    if (value) parent.add(name);
}

void add_ct_ref(codec_node& parent, const char* name, const content_type_ref& ref) {
    auto& n = parent.add(name);
    n.add("CTType", ref.ct_type);
    n.add("VerCT", ref.ver_ct);
}

void add_param(codec_node& parent, const prop_param& p) {
    auto& n = parent.add("PropParam");
    n.add("ParamName", p.param_name);
    add_opt(n, "DataType", p.data_type);
    for (const auto& v : p.val_enums) n.add("ValEnum", v);
    add_opt(n, "DisplayName", p.display_name);
}

void add_property(codec_node& parent, const ct_property& p) {
    auto& n = parent.add("Property");
    n.add("PropName", p.prop_name);
    add_opt(n, "DataType", p.data_type);
    add_num(n, "MaxOccur", p.max_occur);
    add_num(n, "MaxSize", p.max_size);
    add_flag(n, "NoTruncate", p.no_truncate);
    for (const auto& v : p.val_enums) n.add("ValEnum", v);
    add_opt(n, "DisplayName", p.display_name);
    for (const auto& param : p.params) add_param(n, param);
}

void add_nested_ct_cap(codec_node& parent, const ct_cap& cap) {
    auto& n = parent.add("CTCap");
    n.add("CTType", cap.ct_type);
    add_opt(n, "VerCT", cap.ver_ct);
    add_flag(n, "FieldLevel", cap.field_level);
    for (const auto& p : cap.properties) add_property(n, p);
}

void add_flat_details(codec_node& n, const std::optional<std::string>& data_type, const std::vector<std::string>& enums,
                      const std::optional<std::uint64_t>& size, const std::optional<std::string>& display_name) {
    for (const auto& v : enums) n.add("ValEnum", v);
    add_opt(n, "DataType", data_type);
    add_num(n, "Size", size);
    add_opt(n, "DisplayName", display_name);
}

// All flat caps share one <CTCap> element, as 1.0/1.1 devices send them.
void add_flat_ct_caps(codec_node& parent, const std::vector<ct_cap>& caps) {
    if (caps.empty()) return;
    auto& n = parent.add("CTCap");
    for (const auto& cap : caps) {
        n.add("CTType", cap.ct_type);
        add_opt(n, "VerCT", cap.ver_ct);
        add_flag(n, "FieldLevel", cap.field_level);
        for (const auto& p : cap.properties) {
            n.add("PropName", p.prop_name);
            add_flat_details(n, p.data_type, p.val_enums, p.max_size, p.display_name);
            for (const auto& param : p.params) {
                n.add("ParamName", param.param_name);
                add_flat_details(n, param.data_type, param.val_enums, std::nullopt, param.display_name);
            }
        }
    }
}

// MaxOccur and NoTruncate exist only inside 1.2 <Property> elements.
bool flat_style_loses(const std::vector<ct_cap>& caps) {
    for (const auto& cap : caps)
        for (const auto& p : cap.properties)
            if (p.max_occur || p.no_truncate) return true;
    return false;
}

// A 1.0/1.1 DevInf whose caps came nested (devices mix the styles) keeps them nested, so that
// re-encoding loses nothing; readers take either style in any version.
void add_ct_caps(codec_node& parent, const std::vector<ct_cap>& caps, bool nested) {
    if (!nested && !flat_style_loses(caps)) {
        add_flat_ct_caps(parent, caps);
        return;
    }
    for (const auto& cap : caps) add_nested_ct_cap(parent, cap);
}

void add_datastore(codec_node& parent, const datastore& ds, bool nested) {
    auto& n = parent.add("DataStore");
    n.add("SourceRef", ds.source_ref);
    add_opt(n, "DisplayName", ds.display_name);
    add_num(n, "MaxGUIDSize", ds.max_guid_size);
    if (ds.rx_pref) add_ct_ref(n, "Rx-Pref", *ds.rx_pref);
    for (const auto& r : ds.rx) add_ct_ref(n, "Rx", r);
    if (ds.tx_pref) add_ct_ref(n, "Tx-Pref", *ds.tx_pref);
    for (const auto& t : ds.tx) add_ct_ref(n, "Tx", t);
    add_ct_caps(n, ds.ct_caps, nested);
    if (ds.mem) {
        auto& m = n.add("DSMem");
        add_flag(m, "SharedMem", ds.mem->shared_mem);
        add_num(m, "MaxMem", ds.mem->max_mem);
        add_num(m, "MaxID", ds.mem->max_id);
    }
    add_flag(n, "SupportHierarchicalSync", ds.supports_hierarchical_sync);
    if (ds.sync_cap) {
        auto& s = n.add("SyncCap");
        for (const auto& t : *ds.sync_cap) s.add("SyncType", t);
    }
    for (const auto& f : ds.filter_rx) add_ct_ref(n, "Filter-Rx", f);
    for (const auto& f : ds.filter_caps) {
        auto& fc = n.add("FilterCap");
        fc.add("CTType", f.ct_type);
        fc.add("VerCT", f.ver_ct);
        for (const auto& k : f.filter_keywords) fc.add("FilterKeyword", k);
        for (const auto& p : f.prop_names) fc.add("PropName", p);
    }
}

}  // namespace

codec_node tree_from_devinf(const dev_inf& info) {
    codec_node root;
    root.name = "DevInf";
    root.ns = codec_ns::devinf;
    const bool nested = version_from_ver_dtd(info.ver_dtd).value_or(syncml_version::v1_2) == syncml_version::v1_2;
    root.add("VerDTD", info.ver_dtd);
    add_opt(root, "Man", info.man);
    add_opt(root, "Mod", info.mod);
    add_opt(root, "OEM", info.oem);
    add_opt(root, "FwV", info.fw_v);
    add_opt(root, "SwV", info.sw_v);
    add_opt(root, "HwV", info.hw_v);
    root.add("DevID", info.dev_id);
    root.add("DevTyp", info.dev_typ);
    add_flag(root, "UTC", info.utc);
    add_flag(root, "SupportLargeObjs", info.support_large_objs);
    add_flag(root, "SupportNumberOfChanges", info.support_number_of_changes);
    for (const auto& ds : info.datastores) add_datastore(root, ds, nested);
    add_ct_caps(root, info.ct_caps, nested);
    for (const auto& e : info.exts) {
        auto& n = root.add("Ext");
        n.add("XNam", e.xnam);
        for (const auto& v : e.xvals) n.add("XVal", v);
    }
    return root;
}

void add_meta(codec_node& parent, const meta_info& meta) {
    auto& m = parent.add("Meta");
    auto metinf = [&m](const char* name, std::string value = {}) -> codec_node& {
        auto& n = m.add(name, std::move(value));
        n.ns = codec_ns::metinf;
        return n;
    };
    if (meta.format) metinf("Format", *meta.format);
    if (meta.type) metinf("Type", *meta.type);
    if (meta.mark) metinf("Mark", *meta.mark);
    if (meta.size) metinf("Size", std::to_string(*meta.size));
    if (meta.anchor) {
        auto& a = metinf("Anchor");
        add_opt(a, "Last", meta.anchor->last);
        add_opt(a, "Next", meta.anchor->next);
    }
    if (meta.version) metinf("Version", *meta.version);
    if (meta.next_nonce) metinf("NextNonce", *meta.next_nonce);
    if (meta.max_msg_size) metinf("MaxMsgSize", std::to_string(*meta.max_msg_size));
    if (meta.max_obj_size) metinf("MaxObjSize", std::to_string(*meta.max_obj_size));
    for (const auto& e : meta.emi) metinf("EMI", e);
    if (meta.mem) {
        auto& mem = metinf("Mem");
        add_flag(mem, "SharedMem", meta.mem->shared_mem);
        add_num(mem, "FreeMem", meta.mem->free_mem);
        add_num(mem, "FreeID", meta.mem->free_id);
    }
    if (meta.field_level) metinf("FieldLevel");
}

}  // namespace syncml::session
