#include "common/vocabulary/datastore_kind.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

TEST(datastore_kind, every_kind_round_trips_through_its_name) {
    for (auto kind : {item_kind::contact, item_kind::event, item_kind::task, item_kind::memo}) {
        EXPECT_EQ(parse_datastore_name(datastore_name(kind)), kind);
    }
    EXPECT_EQ(datastore_name(item_kind::event), "calendar");
    EXPECT_EQ(datastore_name(item_kind::memo), "memos");
}

TEST(datastore_kind, parses_only_the_stored_names) {
    EXPECT_FALSE(parse_datastore_name("Contacts"));
    EXPECT_FALSE(parse_datastore_name("events"));
    EXPECT_FALSE(parse_datastore_name(""));
}

}  // namespace
}  // namespace syncml::common
