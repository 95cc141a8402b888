#pragma once
// OMA DS 1.2 field filters (issue 18): the <Field> part of a <Filter> lists, as DevInf <Property> elements, the
// properties a device wants of each item and the largest value of each it takes.

#include <optional>
#include <string_view>
#include <vector>

#include "session/protocol/devinf.hpp"

namespace syncml::session {

// The <Property> elements of a field filter's Data (XML, as codec_model_in keeps it), wherever they sit in it (some
// clients wrap them in CTCap); nullopt when the text is not XML or names no property.
std::optional<std::vector<ct_property>> field_filter_properties(std::string_view data);

}  // namespace syncml::session
