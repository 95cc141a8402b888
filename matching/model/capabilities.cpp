#include "matching/model/capabilities.hpp"

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"

namespace syncml::matching {

namespace {

std::string content_type_key(std::string_view ct_type) {
    return common::to_lower(common::trim(ct_type.substr(0, ct_type.find(';')), " "));
}

}  // namespace

bool property_capability::supports_param_value(std::string_view name, std::string_view value) const {
    auto it = params.find(common::to_upper(name));
    if (it == params.end()) return false;
    return it->second.empty() || it->second.count(common::to_upper(value)) > 0;
}

property_capability& device_capabilities::add_property(std::string_view name) {
    known = true;
    return properties[common::to_upper(name)];
}

bool device_capabilities::can_store(std::string_view property) const {
    const auto name = common::to_upper(property);
    if (withheld.count(name)) return false;
    return !known || properties.count(name) > 0;
}

const property_capability* device_capabilities::find(std::string_view property) const {
    if (!known || withheld.count(common::to_upper(property))) return nullptr;
    auto it = properties.find(common::to_upper(property));
    return it == properties.end() ? nullptr : &it->second;
}

device_capabilities& device_capability_set::add_content_type(std::string_view ct_type) {
    auto& entry = by_content_type[content_type_key(ct_type)];
    entry.known = true;
    return entry;
}

const device_capabilities& device_capability_set::for_content_type(std::string_view ct_type) const {
    static const device_capabilities k_unknown;
    auto it = by_content_type.find(content_type_key(ct_type));
    return it == by_content_type.end() ? k_unknown : it->second;
}

}  // namespace syncml::matching
