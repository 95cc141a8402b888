#include "persistence/sync/storage_quota.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace syncml::persistence {
namespace {

TEST(storage_quota, a_new_item_may_fill_the_quota_but_not_pass_it) {
    EXPECT_TRUE(quota_allows(1000, 900, {.before = 0, .after = 100}));
    EXPECT_FALSE(quota_allows(1000, 900, {.before = 0, .after = 101}));
    EXPECT_FALSE(quota_allows(1000, 1000, {.before = 0, .after = 1}));
}

TEST(storage_quota, a_replace_counts_only_its_growth) {
    EXPECT_TRUE(quota_allows(1000, 950, {.before = 100, .after = 150}));
    EXPECT_FALSE(quota_allows(1000, 950, {.before = 100, .after = 151}));
}

TEST(storage_quota, a_write_that_does_not_grow_its_item_passes_even_over_the_quota) {
    EXPECT_TRUE(quota_allows(1000, 5000, {.before = 300, .after = 200})) << "a shrinking replace";
    EXPECT_TRUE(quota_allows(1000, 5000, {.before = 300, .after = 300})) << "a replace of the same size";
    EXPECT_TRUE(quota_allows(1000, 5000, {.before = 300, .after = 0})) << "a delete";
    EXPECT_FALSE(quota_allows(1000, 5000, {.before = 300, .after = 301}));
}

TEST(storage_quota, applies_only_to_writes_that_grow_an_item_under_a_quota) {
    EXPECT_TRUE(quota_applies(1000, {.before = 10, .after = 11}));
    EXPECT_FALSE(quota_applies(1000, {.before = 10, .after = 10}));
    EXPECT_FALSE(quota_applies(1000, {.before = 10, .after = 0}));
    EXPECT_FALSE(quota_applies(0, {.before = 0, .after = 10}));
}

TEST(storage_quota, zero_is_no_quota) {
    EXPECT_TRUE(quota_allows(0, std::numeric_limits<std::int64_t>::max(), {.before = 0, .after = 1 << 30}));
}

TEST(storage_quota, huge_figures_do_not_overflow_into_a_pass) {
    const auto most = std::numeric_limits<std::int64_t>::max();
    EXPECT_FALSE(quota_allows(most, most - 10, {.before = 0, .after = most}));
    EXPECT_TRUE(quota_allows(most, 0, {.before = 0, .after = most}));
}

}  // namespace
}  // namespace syncml::persistence
