#include "src/server/readiness.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <string>

#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::server {
namespace {

class readiness_test : public persistence::testing::migrated_database_test {
  protected:
    // A row as a later release's `migrate` records it.
    void record_future_migration(int version, bool backward_compatible) {
        persistence::query_value(*db_, "INSERT INTO schema_migrations (version, name, backward_compatible) VALUES (" +
                                           std::to_string(version) + ", 'future', " +
                                           (backward_compatible ? "true" : "false") + ") RETURNING 1");
    }

    bool check(std::string& reason) {
        readiness_checker checker(url(), log_, true);
        checker.check_now();
        return checker.ready(reason);
    }

    spdlog::logger log_{"test", std::make_shared<spdlog::sinks::null_sink_mt>()};
};

TEST_F(readiness_test, is_ready_on_the_binarys_own_schema) {
    std::string reason;
    EXPECT_TRUE(check(reason));
    EXPECT_EQ(reason, "ready");
}

// A rollout migrated the database for the next release: the old instances keep serving while the new ones start.
TEST_F(readiness_test, stays_ready_when_every_newer_migration_is_backward_compatible) {
    const int latest = persistence::latest_schema_version();
    record_future_migration(latest + 1, true);
    record_future_migration(latest + 2, true);
    std::string reason;
    EXPECT_TRUE(check(reason)) << reason;
    EXPECT_NE(reason.find("backward compatible"), std::string::npos) << reason;
}

TEST_F(readiness_test, is_not_ready_when_a_newer_migration_is_not_backward_compatible) {
    const int latest = persistence::latest_schema_version();
    record_future_migration(latest + 1, true);
    record_future_migration(latest + 2, false);
    std::string reason;
    EXPECT_FALSE(check(reason));
    EXPECT_EQ(reason, "schema version " + std::to_string(latest + 2) + " is newer than this binary (" +
                          std::to_string(latest) + ") and migration " + std::to_string(latest + 2) +
                          " is not backward compatible");
}

TEST(schema_reason, names_a_schema_behind_the_binary) {
    EXPECT_EQ(schema_reason({.current = 3, .latest = 5}), "schema version 3, expected 5");
}

}  // namespace
}  // namespace syncml::server
