#include "persistence/pg/fair_queue.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace syncml::persistence {
namespace {

std::vector<std::string> drain(fair_queue<std::string>& queue) {
    std::vector<std::string> order;
    while (auto next = queue.pop()) order.push_back(*next);
    return order;
}

TEST(fair_queue, serves_a_second_key_after_at_most_one_item_of_a_key_that_queued_a_hundred) {
    fair_queue<std::string> queue(1000);
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(queue.push("flood", "flood-" + std::to_string(i)));
    ASSERT_TRUE(queue.push("quiet", "quiet-0"));
    EXPECT_EQ(*queue.pop(), "flood-0");
    EXPECT_EQ(*queue.pop(), "quiet-0");
    EXPECT_EQ(*queue.pop(), "flood-1");
}

TEST(fair_queue, keeps_each_keys_items_in_order_and_takes_keys_in_turn) {
    fair_queue<std::string> queue(100);
    for (const char* name : {"a1", "a2", "a3"}) queue.push("a", name);
    for (const char* name : {"b1", "b2"}) queue.push("b", name);
    queue.push("c", "c1");
    EXPECT_EQ(drain(queue), (std::vector<std::string>{"a1", "b1", "c1", "a2", "b2", "a3"}));
}

TEST(fair_queue, a_key_that_comes_back_takes_its_turn_after_the_keys_already_queued) {
    fair_queue<std::string> queue(100);
    queue.push("a", "a1");
    queue.push("b", "b1");
    queue.push("b", "b2");
    EXPECT_EQ(*queue.pop(), "a1");
    queue.push("a", "a2");  // a had nothing queued: its turn comes after b's
    EXPECT_EQ(drain(queue), (std::vector<std::string>{"b1", "a2", "b2"}));
}

TEST(fair_queue, limit_counts_the_items_of_all_keys) {
    fair_queue<std::string> queue(3);
    EXPECT_TRUE(queue.push("a", "a1"));
    EXPECT_TRUE(queue.push("b", "b1"));
    EXPECT_TRUE(queue.push("c", "c1"));
    EXPECT_FALSE(queue.push("d", "d1"));
    EXPECT_FALSE(queue.push("a", "a2"));
    EXPECT_EQ(queue.size(), 3u);
    queue.pop();
    EXPECT_TRUE(queue.push("d", "d1"));
}

TEST(fair_queue, drains_every_item_of_every_key) {
    fair_queue<std::string> queue(100);
    for (int i = 0; i < 10; ++i) queue.push("key-" + std::to_string(i % 4), std::to_string(i));
    EXPECT_EQ(drain(queue).size(), 10u);
    EXPECT_TRUE(queue.empty());
    EXPECT_FALSE(queue.pop().has_value());
}

TEST(fair_queue, keys_with_nothing_queued_are_forgotten) {
    fair_queue<std::string> queue(10000);
    for (int i = 0; i < 1000; ++i) queue.push("tenant-" + std::to_string(i), "x");
    EXPECT_EQ(queue.keys(), 1000u);
    drain(queue);
    EXPECT_EQ(queue.keys(), 0u);
    queue.push("again", "y");
    EXPECT_EQ(queue.keys(), 1u);
}

}  // namespace
}  // namespace syncml::persistence
