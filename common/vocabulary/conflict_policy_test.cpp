#include "common/vocabulary/conflict_policy.hpp"

#include <gtest/gtest.h>

namespace syncml::common {
namespace {

TEST(conflict_policy, every_policy_round_trips_through_its_stored_name) {
    for (auto policy : {conflict_policy::merge, conflict_policy::server_wins, conflict_policy::client_wins,
                        conflict_policy::newest_wins, conflict_policy::duplicate}) {
        EXPECT_EQ(parse_conflict_policy(to_string(policy)), policy);
    }
    EXPECT_EQ(to_string(conflict_policy::newest_wins), "newest_wins");
}

TEST(conflict_policy, parses_the_spelling_with_dashes_and_nothing_else) {
    EXPECT_EQ(parse_conflict_policy("server-wins"), conflict_policy::server_wins);
    EXPECT_EQ(parse_conflict_policy("client-wins"), conflict_policy::client_wins);
    EXPECT_FALSE(parse_conflict_policy("loudest"));
    EXPECT_FALSE(parse_conflict_policy("Merge"));
    EXPECT_FALSE(parse_conflict_policy(""));
}

}  // namespace
}  // namespace syncml::common
