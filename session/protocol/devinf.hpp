#pragma once
// Device information (DevInf 1.0/1.1/1.2) as plain values.
//
// CTCap comes in two styles on the wire: the 1.0/1.1 flat list (CTType, PropName, ValEnum, ParamName
// ... in sequence, at DevInf level) and the 1.2 nested style (CTCap/Property/PropParam inside each
// DataStore). Both decode to the same nested `ct_cap`; the encoder writes the style of `ver_dtd`.
// Flat <Size> maps to `max_size`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syncml::session {

struct prop_param {
    std::string param_name;
    std::optional<std::string> data_type;
    std::vector<std::string> val_enums;
    std::optional<std::string> display_name;
    bool operator==(const prop_param&) const = default;
};

struct ct_property {
    std::string prop_name;
    std::optional<std::string> data_type;
    std::optional<std::uint64_t> max_occur;
    std::optional<std::uint64_t> max_size;
    bool no_truncate = false;
    std::vector<std::string> val_enums;
    std::optional<std::string> display_name;
    std::vector<prop_param> params;
    bool operator==(const ct_property&) const = default;
};

struct ct_cap {
    std::string ct_type;
    std::optional<std::string> ver_ct;  // 1.2 only
    bool field_level = false;           // 1.2 only
    std::vector<ct_property> properties;
    bool operator==(const ct_cap&) const = default;
};

struct content_type_ref {
    std::string ct_type;
    std::string ver_ct;
    bool operator==(const content_type_ref&) const = default;
};

struct ds_mem {
    bool shared_mem = false;
    std::optional<std::uint64_t> max_mem;
    std::optional<std::uint64_t> max_id;
    bool operator==(const ds_mem&) const = default;
};

// 1.2 FilterCap: keywords and property names a datastore can filter on.
struct filter_cap {
    std::string ct_type;
    std::string ver_ct;
    std::vector<std::string> filter_keywords;
    std::vector<std::string> prop_names;
    bool operator==(const filter_cap&) const = default;
};

struct datastore {
    std::string source_ref;
    std::optional<std::string> display_name;
    std::optional<std::uint64_t> max_guid_size;
    std::optional<content_type_ref> rx_pref;
    std::vector<content_type_ref> rx;
    std::optional<content_type_ref> tx_pref;
    std::vector<content_type_ref> tx;
    std::vector<ct_cap> ct_caps;  // 1.2 nested style
    std::optional<ds_mem> mem;
    std::optional<std::vector<std::string>> sync_cap;  // SyncType values as sent ("1".."7", or custom)
    std::vector<content_type_ref> filter_rx;
    std::vector<filter_cap> filter_caps;
    bool supports_hierarchical_sync = false;
    bool operator==(const datastore&) const = default;
};

struct dev_ext {
    std::string xnam;
    std::vector<std::string> xvals;
    bool operator==(const dev_ext&) const = default;
};

struct dev_inf {
    std::string ver_dtd;  // "1.0", "1.1", "1.2"
    std::optional<std::string> man;
    std::optional<std::string> mod;
    std::optional<std::string> oem;
    std::optional<std::string> fw_v;
    std::optional<std::string> sw_v;
    std::optional<std::string> hw_v;
    std::string dev_id;
    std::string dev_typ;
    bool utc = false;
    bool support_large_objs = false;
    bool support_number_of_changes = false;
    std::vector<datastore> datastores;
    std::vector<ct_cap> ct_caps;  // 1.0/1.1 flat style, at DevInf level
    std::vector<dev_ext> exts;
    bool operator==(const dev_inf&) const = default;
};

}  // namespace syncml::session
