#include "session/engine/device_caps.hpp"

#include <array>
#include <cctype>
#include <string_view>

#include "common/text/ascii_case.hpp"
#include "session/codec/codec.hpp"

namespace syncml::session {
namespace {

// vCard 2.1 CTCaps list bare parameters (TEL;HOME) as ParamNames of their own; they are TYPE values.
bool named_parameter(const std::string& name) {
    static constexpr std::array<std::string_view, 12> names{"TYPE",  "ENCODING", "CHARSET", "LANGUAGE",
                                                            "VALUE", "TZID",     "ROLE",    "PARTSTAT",
                                                            "RSVP",  "CN",       "RELATED", "ALTREP"};
    for (auto n : names) {
        if (name == n) return true;
    }
    return name.starts_with("X-");
}

void add_param(matching::property_capability& prop, const prop_param& param) {
    auto name = common::to_upper(param.param_name);
    if (!named_parameter(name) && param.val_enums.empty()) {
        prop.params["TYPE"].insert(name);
        return;
    }
    auto& values = prop.params[name];
    for (const auto& v : param.val_enums) values.insert(common::to_upper(v));
}

void add_cap(matching::device_capability_set& set, const ct_cap& cap) {
    if (cap.ct_type.empty()) return;
    auto& caps = set.add_content_type(cap.ct_type);
    for (const auto& p : cap.properties) {
        if (p.prop_name.empty()) continue;
        auto& prop = caps.add_property(p.prop_name);
        if (p.max_size && (!prop.max_size || *p.max_size > *prop.max_size)) prop.max_size = p.max_size;
        if (p.max_occur && (!prop.max_occur || *p.max_occur > *prop.max_occur)) prop.max_occur = p.max_occur;
        prop.no_truncate = prop.no_truncate || p.no_truncate;
        for (const auto& param : p.params) add_param(prop, param);
    }
}

}  // namespace

matching::device_capability_set capabilities_of(const dev_inf& info) {
    matching::device_capability_set set;
    for (const auto& cap : info.ct_caps) add_cap(set, cap);
    for (const auto& ds : info.datastores) {
        for (const auto& cap : ds.ct_caps) add_cap(set, cap);
    }
    return set;
}

matching::device_capability_set capabilities_of_stored(const std::string& devinf) {
    if (devinf.empty()) return {};
    auto info = decode_devinf(devinf);
    if (!info) return {};
    return capabilities_of(info.value());
}

}  // namespace syncml::session
