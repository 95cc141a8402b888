#include "src/admin/transfer/import_match.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

persistence::twin_candidate stored(std::string guid, std::vector<std::string> keys) {
    return {.guid = std::move(guid), .content = {}, .modseq = 1, .keys = std::move(keys), .item_id = 0};
}

TEST(import_match, an_item_of_a_stored_uid_is_kept_when_equal_and_replaces_it_when_not) {
    const import_matcher matcher({stored("g1", {"content:a", "uid:1"})});
    const auto same = matcher.decide({.uid = "uid:1", .content = "content:a"});
    EXPECT_EQ(same.action, import_action::keep);
    EXPECT_EQ(same.guid, "g1");
    const auto changed = matcher.decide({.uid = "uid:1", .content = "content:b"});
    EXPECT_EQ(changed.action, import_action::replace);
    EXPECT_EQ(changed.guid, "g1");
    EXPECT_EQ(matcher.decide({.uid = "uid:2", .content = "content:a"}).action, import_action::add)
        << "another UID is another item, whatever its content";
}

TEST(import_match, an_item_without_uid_is_kept_only_when_a_stored_item_has_its_content) {
    const import_matcher matcher({stored("g1", {"content:a"})});
    EXPECT_EQ(matcher.decide({.uid = {}, .content = "content:a"}).action, import_action::keep);
    EXPECT_EQ(matcher.decide({.uid = {}, .content = "content:b"}).action, import_action::add);
}

TEST(import_match, later_items_of_one_import_see_the_earlier_ones) {
    import_matcher matcher({stored("g1", {"content:a", "uid:1"})});
    matcher.record({.uid = "uid:1", .content = "content:b"}, "g1");
    EXPECT_EQ(matcher.decide({.uid = "uid:1", .content = "content:b"}).action, import_action::keep);
    EXPECT_EQ(matcher.decide({.uid = {}, .content = "content:a"}).action, import_action::add)
        << "the replaced content is gone";
    matcher.record({.uid = {}, .content = "content:c"}, "#0");
    const auto again = matcher.decide({.uid = {}, .content = "content:c"});
    EXPECT_EQ(again.action, import_action::keep);
    EXPECT_EQ(again.guid, "#0");
}

TEST(import_match, keys_come_from_the_index_keys) {
    const auto keys = import_keys_of({"content:abc", "name:ada", "tel:123", "uid:u-1"});
    EXPECT_EQ(keys.uid, "uid:u-1");
    EXPECT_EQ(keys.content, "content:abc");
    EXPECT_TRUE(import_keys_of({"content:abc"}).uid.empty());
}

}  // namespace
}  // namespace syncml::server
