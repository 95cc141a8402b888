#pragma once
// Item helpers for the matching tests: parse an item or fail the test, build a date-time from its fields.

#include <gtest/gtest.h>

#include <string_view>

#include "matching/convert/item_format.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching::testing {

// The item `text` holds in `dialect`; a parse failure fails the test and gives an empty item.
inline item parse_or_fail(std::string_view text, item_dialect dialect) {
    auto r = parse_item(text, dialect);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    return r ? *r : item{};
}

// A floating DATE-TIME (neither UTC nor zoned) from its wall-clock fields.
inline date_time wall_time(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
    date_time t;
    t.year = y;
    t.month = mo;
    t.day = d;
    t.hour = h;
    t.minute = mi;
    t.second = s;
    return t;
}

}  // namespace syncml::matching::testing
