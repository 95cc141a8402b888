#include "common/text/ascii_case.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

TEST(ascii_case, changes_only_ascii_letters) {
    EXPECT_EQ(to_upper("Begin:vCard-2.1 [x]"), "BEGIN:VCARD-2.1 [X]");
    EXPECT_EQ(to_lower("Text/X-VCard; Charset=UTF-8"), "text/x-vcard; charset=utf-8");
    // Bytes of UTF-8 and the neighbours of the letters ('@', '[', '`', '{') stay as they are.
    for (std::string_view other : {"\xC3\xA4", "\xC3\x84", "@[`{", ""}) {
        EXPECT_EQ(to_upper(other), other);
        EXPECT_EQ(to_lower(other), other);
    }
}

struct comparison {
    std::string_view a, b;
    bool equal, prefix;  // iequals(a, b), istarts_with(a, b)
};

TEST(ascii_case, compares_ignoring_ascii_case_only) {
    const comparison cases[] = {
        {"SyncML:MetInf", "syncml:metinf", true, true},
        {"", "", true, true},
        {"gzip", "gzip ", false, false},
        {"\xC3\xA4", "\xC3\x84", false, false},
        {"@", "`", false, false},
        {"SYNCML:SYNCML1.2", "syncml:syncml", false, true},
        {"Bearer abc", "bearer ", false, true},
        {"x", "", false, true},
        {"syncml", "syncml:syncml", false, false},
    };
    for (const auto& c : cases) {
        EXPECT_EQ(iequals(c.a, c.b), c.equal) << c.a << " / " << c.b;
        EXPECT_EQ(iequals(c.b, c.a), c.equal) << c.b << " / " << c.a;
        EXPECT_EQ(istarts_with(c.a, c.b), c.prefix) << c.a << " / " << c.b;
    }
}

}  // namespace
}  // namespace syncml::common
