#include "session/tenant_session_gauge.hpp"

#include <gtest/gtest.h>

namespace syncml::session {
namespace {

using namespace std::chrono_literals;

TEST(tenant_session_gauge, counts_once_per_refresh_and_adds_the_sessions_started_since) {
    tenant_session_gauge gauge(5s);
    int counts = 0;
    std::int64_t live = 1;
    auto count = [&](std::int64_t, std::int64_t) {
        ++counts;
        return live;
    };
    const auto start = tenant_session_gauge::clock::now();
    EXPECT_FALSE(gauge.at_limit(1, 2, count, start));
    gauge.started(1);
    EXPECT_TRUE(gauge.at_limit(1, 2, count, start + 1s)) << "the count plus the start recorded since";
    EXPECT_EQ(counts, 1);
    live = 0;
    EXPECT_FALSE(gauge.at_limit(1, 2, count, start + 6s)) << "a fresh count replaces both";
    EXPECT_EQ(counts, 2);
    EXPECT_FALSE(gauge.at_limit(2, 2, count, start + 6s)) << "tenants are counted apart";
    EXPECT_EQ(counts, 3);
}

}  // namespace
}  // namespace syncml::session
