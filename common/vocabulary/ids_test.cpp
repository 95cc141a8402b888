#include "common/vocabulary/ids.hpp"

#include <gtest/gtest.h>

#include <type_traits>
#include <unordered_set>

namespace syncml::common {
namespace {

// What the types are for: one kind of id is not another, and no bare number becomes one by accident.
static_assert(!std::is_convertible_v<user_id, device_id>);
static_assert(!std::is_convertible_v<std::int64_t, tenant_id>);
static_assert(!std::is_convertible_v<datastore_id, std::int64_t>);
static_assert(std::is_trivially_copyable_v<user_id> && sizeof(user_id) == sizeof(std::int64_t));

TEST(ids, hold_the_number_they_were_made_of_and_default_to_none) {
    EXPECT_EQ(user_id{42}.value(), 42);
    EXPECT_EQ(device_id{}.value(), 0);
    EXPECT_EQ(to_string(tenant_id{7}), "7");
}

TEST(ids, compare_and_hash_as_their_numbers) {
    EXPECT_EQ(datastore_id{3}, datastore_id{3});
    EXPECT_LT(datastore_id{3}, datastore_id{4});
    std::unordered_set<user_id> users{user_id{1}, user_id{2}, user_id{1}};
    EXPECT_EQ(users.size(), 2u);
    EXPECT_EQ(std::hash<user_id>{}(user_id{9}), std::hash<std::int64_t>{}(9));
}

}  // namespace
}  // namespace syncml::common
