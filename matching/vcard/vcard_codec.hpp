#pragma once
// vCard 2.1 / 3.0 reader and writer (4.0 read leniently and written minimally).

#include <string>
#include <string_view>
#include <vector>

#include "matching/content/content_line.hpp"
#include "matching/model/item.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

enum class vcard_version { v21, v30, v40 };

// Every vCard in `data`; the VERSION line of each decides its syntax, `fallback` applies when it has none.
result<std::vector<contact>> parse_vcards(std::string_view data, vcard_version fallback,
                                          const parse_limits& limits = {});
std::string write_vcard(const contact& value, vcard_version version);

}  // namespace syncml::matching
