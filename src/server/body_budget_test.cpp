#include "src/server/body_budget.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(body_budget, refuses_a_body_that_does_not_fit_beside_those_being_read) {
    body_budget budget(10);
    body_share first(budget);
    body_share second(budget);
    EXPECT_TRUE(first.grow(6));
    EXPECT_FALSE(second.grow(5));
    EXPECT_EQ(second.held(), 0u);
    EXPECT_TRUE(second.grow(4));
    EXPECT_EQ(budget.in_use(), 10u);
}

TEST(body_budget, a_share_grows_chunk_by_chunk_and_keeps_what_it_had_when_refused) {
    body_budget budget(10);
    body_share chunked(budget);
    EXPECT_TRUE(chunked.grow(4));
    EXPECT_TRUE(chunked.grow(4));
    EXPECT_FALSE(chunked.grow(4));
    EXPECT_EQ(chunked.held(), 8u);
}

TEST(body_budget, gives_the_bytes_back_when_the_request_ends) {
    body_budget budget(10);
    {
        body_share ended(budget);
        ASSERT_TRUE(ended.grow(10));
    }
    body_share next(budget);
    EXPECT_TRUE(next.grow(10));
    next.release();
    EXPECT_EQ(budget.in_use(), 0u);
}

TEST(body_budget, an_absurd_announcement_does_not_wrap_around) {
    body_budget budget(10);
    body_share share(budget);
    ASSERT_TRUE(share.grow(5));
    EXPECT_FALSE(share.grow(UINT64_MAX - 2));
    EXPECT_EQ(budget.in_use(), 5u);
}

}  // namespace
}  // namespace syncml::server
