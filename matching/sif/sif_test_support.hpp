#pragma once
// Helpers of the SIF tests: items in SIF and through the other dialects.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "matching/convert/item_format.hpp"
#include "matching/sif/sif_codec.hpp"

namespace syncml::matching::testing {

inline item sif_or_fail(std::string_view text) {
    auto r = parse_sif(text);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    return r ? *r : item{};
}

inline std::string written(const item& value, item_dialect dialect) {
    auto r = serialize_item(value, dialect);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    return r ? *r : std::string();
}

// SIF -> model -> `through` -> model -> SIF, next to SIF -> model -> SIF: equal when every field SIF carries
// survives the other dialect.
inline void expect_sif_survives(std::string_view sif, item_dialect sif_dialect, item_dialect through) {
    auto direct = sif_or_fail(sif);
    auto other = written(direct, through);
    auto back = parse_item(other, through);
    ASSERT_TRUE(back.has_value()) << back.error().to_string() << "\n" << other;
    EXPECT_EQ(written(*back, sif_dialect), written(direct, sif_dialect)) << "through " << name_of(through) << ":\n"
                                                                         << other;
}

// The SIF document with <name>value</name> for each pair, in `root`.
inline std::string sif_document(std::string_view root, std::initializer_list<std::pair<std::string, std::string>> f) {
    std::string out =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><" + std::string(root) + "><SIFVersion>1.1</SIFVersion>";
    for (const auto& [name, value] : f) out += "<" + name + ">" + value + "</" + name + ">";
    return out + "</" + std::string(root) + ">";
}

}  // namespace syncml::matching::testing
