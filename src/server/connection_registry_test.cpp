#include "src/server/connection_registry.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(connection_registry, refuses_connections_beyond_its_limit_until_one_leaves) {
    connection_registry registry(2);
    const auto first = registry.add([] {});
    const auto second = registry.add([] {});
    ASSERT_TRUE(first.id && second.id);
    EXPECT_FALSE(registry.add([] {}).id);
    EXPECT_EQ(registry.size(), 2u);
    registry.remove(*first.id);
    EXPECT_TRUE(registry.add([] {}).id);
}

TEST(connection_registry, reports_refusals_at_most_once_per_interval_with_their_count) {
    connection_registry registry(1);
    const auto start = connection_registry::clock::now();
    ASSERT_TRUE(registry.add([] {}, start).id);
    EXPECT_EQ(registry.add([] {}, start).refusals_to_report, 1u);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(registry.add([] {}, start + std::chrono::seconds(1)).refusals_to_report, 0u);
    const auto later = start + connection_registry::refusal_report_interval;
    EXPECT_EQ(registry.add([] {}, later).refusals_to_report, 6u);
}

TEST(connection_registry, refuses_new_connections_once_shutting_down) {
    connection_registry registry;
    int closed = 0;
    const auto idle = registry.add([&] { ++closed; });
    registry.set_idle(*idle.id, true);
    registry.begin_shutdown();
    EXPECT_EQ(closed, 1);
    EXPECT_FALSE(registry.add([] {}).id);
}

}  // namespace
}  // namespace syncml::server
