#include "auth/hash_slots.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace syncml::auth {
namespace {

using namespace std::chrono_literals;

TEST(hash_slots, a_slot_is_given_back_when_its_holder_is_done) {
    hash_slots slots({.concurrent = 1, .waiting = 0, .longest_wait = 10ms});
    {
        auto first = slots.take();
        ASSERT_TRUE(first);
        EXPECT_EQ(slots.running(), 1);
        EXPECT_FALSE(slots.take()) << "nobody may wait: refused at once";
    }
    EXPECT_EQ(slots.running(), 0);
    EXPECT_TRUE(slots.take());
}

TEST(hash_slots, a_few_wait_for_a_slot_and_the_rest_are_refused) {
    hash_slots slots({.concurrent = 1, .waiting = 1, .longest_wait = 5s});
    auto held = std::make_optional(slots.take());
    ASSERT_TRUE(*held);
    bool waiter_got_one = false;
    std::thread waiter([&] { waiter_got_one = slots.take().has_value(); });
    while (slots.waiting() == 0) std::this_thread::sleep_for(1ms);
    EXPECT_FALSE(slots.take()) << "the one waiting place is taken: refused at once";
    held.reset();
    waiter.join();
    EXPECT_TRUE(waiter_got_one);
}

TEST(hash_slots, a_waiter_gives_up_after_the_longest_wait) {
    hash_slots slots({.concurrent = 1, .waiting = 1, .longest_wait = 20ms});
    auto held = slots.take();
    ASSERT_TRUE(held);
    EXPECT_FALSE(slots.take());
}

}  // namespace
}  // namespace syncml::auth
