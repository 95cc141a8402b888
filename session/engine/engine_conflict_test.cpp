#include "session/engine/engine_conflict.hpp"

#include <gtest/gtest.h>

#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

using matching::conflict_policy;

TEST(engine_conflict, the_policy_decides_the_resolution_unless_both_copies_are_kept) {
    matching::merge_result result;
    EXPECT_EQ(resolution_of(conflict_policy::merge, result), conflict_resolution::merged);
    EXPECT_EQ(resolution_of(conflict_policy::server_wins, result), conflict_resolution::server_won);
    EXPECT_EQ(resolution_of(conflict_policy::client_wins, result), conflict_resolution::client_won);
    EXPECT_EQ(resolution_of(conflict_policy::newest_wins, result), conflict_resolution::server_won);
    result.stored_changed = true;
    EXPECT_EQ(resolution_of(conflict_policy::newest_wins, result), conflict_resolution::client_won);
    result.keep_both = true;
    EXPECT_EQ(resolution_of(conflict_policy::server_wins, result), conflict_resolution::duplicated);
}

TEST(engine_conflict, each_resolution_has_its_status_and_label) {
    EXPECT_EQ(conflict_status(conflict_resolution::merged), status_codes::conflict_merged);
    EXPECT_EQ(conflict_status(conflict_resolution::server_won), status_codes::conflict_server_won);
    EXPECT_EQ(conflict_status(conflict_resolution::client_won), status_codes::conflict_client_won);
    EXPECT_EQ(conflict_status(conflict_resolution::duplicated), status_codes::conflict_duplicated);
    EXPECT_EQ(to_string(conflict_resolution::server_won), "server_won");
    EXPECT_EQ(to_string(conflict_resolution::duplicated), "duplicated");
}

}  // namespace
}  // namespace syncml::session::detail
