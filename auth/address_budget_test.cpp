#include "auth/address_budget.hpp"

#include <gtest/gtest.h>

#include <string>

namespace syncml::auth {
namespace {

using namespace std::chrono_literals;
using clock = address_budget::clock;

TEST(address_budget, a_client_spends_its_burst_then_waits_for_the_refill) {
    address_budget budget({.per_second = 0.5, .burst = 3, .max_clients = 100});
    const auto t0 = clock::now();
    EXPECT_EQ(budget.wait("192.0.2.1", t0), 0s);
    for (int i = 0; i < 3; ++i) budget.charge("192.0.2.1", 1, t0);
    EXPECT_EQ(budget.wait("192.0.2.1", t0), 2s);  // one unit at half a unit per second
    EXPECT_EQ(budget.wait("192.0.2.2", t0), 0s) << "another client pays nothing for it";
    EXPECT_EQ(budget.wait("192.0.2.1", t0 + 2s), 0s);
}

// A flood that goes on past the refusals owes at most one burst: it is served again soon after it stops.
TEST(address_budget, debt_is_bounded_by_one_burst) {
    address_budget budget({.per_second = 1, .burst = 5, .max_clients = 100});
    const auto t0 = clock::now();
    for (int i = 0; i < 1000; ++i) budget.charge("192.0.2.9", 1, t0);
    EXPECT_EQ(budget.wait("192.0.2.9", t0), 6s);
    EXPECT_EQ(budget.wait("192.0.2.9", t0 + 6s), 0s);
}

// Rotating through the addresses of one IPv6 /64 is one client.
TEST(address_budget, the_addresses_of_one_ipv6_64_share_a_budget) {
    address_budget budget({.per_second = 1, .burst = 2, .max_clients = 100});
    const auto t0 = clock::now();
    budget.charge("2001:db8:5:6::1", 1, t0);
    budget.charge("2001:db8:5:6::2", 1, t0);
    EXPECT_GT(budget.wait("2001:db8:5:6:abcd::7", t0), 0s);
    EXPECT_EQ(budget.wait("2001:db8:5:7::1", t0), 0s);
}

TEST(address_budget, memory_stays_bounded_whatever_addresses_a_flood_uses) {
    address_budget budget({.per_second = 1, .burst = 2, .max_clients = 50});
    const auto t0 = clock::now();
    for (int i = 0; i < 1000; ++i)
        budget.charge("10.0." + std::to_string(i / 256) + "." + std::to_string(i % 256), 1, t0);
    EXPECT_LE(budget.clients(), 50u);
    // Clients whose buckets are full again are the first to go.
    for (int i = 0; i < 1000; ++i)
        budget.charge("10.1." + std::to_string(i / 256) + "." + std::to_string(i % 256), 1, t0 + 1h);
    EXPECT_LE(budget.clients(), 50u);
}

}  // namespace
}  // namespace syncml::auth
