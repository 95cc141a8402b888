#include "session/service/tenant_session_gauge.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace syncml::session {
namespace {

using namespace std::chrono_literals;

TEST(tenant_session_gauge, counts_once_per_refresh_per_tenant) {
    tenant_session_gauge gauge(5s);
    int counts = 0;
    std::int64_t live = 1;
    auto count = [&](std::int64_t, std::int64_t) {
        ++counts;
        return live;
    };
    const auto start = tenant_session_gauge::clock::now();
    EXPECT_FALSE(gauge.at_limit(1, 2, count, start));
    live = 2;
    EXPECT_FALSE(gauge.at_limit(1, 2, count, start + 1s)) << "the count of the last refresh";
    EXPECT_EQ(counts, 1);
    EXPECT_TRUE(gauge.at_limit(1, 2, count, start + 6s)) << "counted afresh";
    EXPECT_EQ(counts, 2);
    EXPECT_FALSE(gauge.at_limit(2, 3, count, start + 6s)) << "tenants are counted apart";
    EXPECT_EQ(counts, 3);
}

TEST(tenant_session_gauge, a_failing_count_leaves_the_cap_open_and_is_tried_again) {
    tenant_session_gauge gauge(5s);
    int counts = 0;
    auto failing = [&](std::int64_t, std::int64_t) -> std::int64_t {
        ++counts;
        throw std::runtime_error("database unreachable");
    };
    const auto start = tenant_session_gauge::clock::now();
    EXPECT_FALSE(gauge.at_limit(1, 1, failing, start));
    EXPECT_FALSE(gauge.at_limit(1, 1, failing, start + 1s));
    EXPECT_EQ(counts, 2) << "nothing cached from a failed count";
    EXPECT_TRUE(gauge.at_limit(
        1, 1, [](std::int64_t, std::int64_t) { return std::int64_t{1}; }, start + 2s));
}

}  // namespace
}  // namespace syncml::session
