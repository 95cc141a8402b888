#include "matching/model/capabilities.hpp"

#include <cctype>

namespace syncml::matching {

namespace {

std::string upper(std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string content_type_key(std::string_view ct_type) {
    ct_type = ct_type.substr(0, ct_type.find(';'));
    while (!ct_type.empty() && ct_type.back() == ' ') ct_type.remove_suffix(1);
    while (!ct_type.empty() && ct_type.front() == ' ') ct_type.remove_prefix(1);
    std::string out(ct_type);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

bool property_capability::supports_param_value(std::string_view name, std::string_view value) const {
    auto it = params.find(upper(name));
    if (it == params.end()) return false;
    return it->second.empty() || it->second.count(upper(value)) > 0;
}

property_capability& device_capabilities::add_property(std::string_view name) {
    known = true;
    return properties[upper(name)];
}

bool device_capabilities::can_store(std::string_view property) const {
    const auto name = upper(property);
    if (withheld.count(name)) return false;
    return !known || properties.count(name) > 0;
}

const property_capability* device_capabilities::find(std::string_view property) const {
    if (!known || withheld.count(upper(property))) return nullptr;
    auto it = properties.find(upper(property));
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
