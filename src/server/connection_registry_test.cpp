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
    ASSERT_TRUE(registry.add([] {}, {}, start).id);
    EXPECT_EQ(registry.add([] {}, {}, start).refusals_to_report, 1u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(registry.add([] {}, {}, start + std::chrono::seconds(1)).refusals_to_report, 0u);
    }
    const auto later = start + connection_registry::refusal_report_interval;
    EXPECT_EQ(registry.add([] {}, {}, later).refusals_to_report, 6u);
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

TEST(connection_registry, caps_each_address_while_others_still_get_in) {
    connection_registry registry(100, 2);
    const auto first = registry.add([] {}, "192.0.2.7");
    ASSERT_TRUE(first.id);
    ASSERT_TRUE(registry.add([] {}, "192.0.2.7").id);
    const auto third = registry.add([] {}, "192.0.2.7");
    EXPECT_FALSE(third.id);
    EXPECT_EQ(third.refused, connection_registry::refusal::address_full);
    EXPECT_TRUE(registry.add([] {}, "192.0.2.8").id);
    registry.remove(*first.id);
    EXPECT_TRUE(registry.add([] {}, "192.0.2.7").id);
}

TEST(connection_registry, does_not_count_connections_without_an_address_against_the_per_address_cap) {
    connection_registry registry(100, 1);
    for (int i = 0; i < 10; ++i) EXPECT_TRUE(registry.add([] {}).id);
}

TEST(connection_registry, reports_address_refusals_apart_from_a_full_listener) {
    connection_registry registry(2, 1);
    const auto start = connection_registry::clock::now();
    ASSERT_TRUE(registry.add([] {}, "192.0.2.7", start).id);
    const auto same = registry.add([] {}, "192.0.2.7", start);
    EXPECT_EQ(same.refused, connection_registry::refusal::address_full);
    EXPECT_EQ(same.refusals_to_report, 1u);
    ASSERT_TRUE(registry.add([] {}, "192.0.2.8", start).id);
    const auto full = registry.add([] {}, "192.0.2.9", start);
    EXPECT_EQ(full.refused, connection_registry::refusal::listener_full);
    EXPECT_EQ(full.refusals_to_report, 1u);
}

}  // namespace
}  // namespace syncml::server
