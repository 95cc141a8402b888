#include "persistence/session_routes.hpp"

#include <gtest/gtest.h>

#include "persistence/accounts.hpp"
#include "persistence/test_query.hpp"
#include "persistence/test_support.hpp"

namespace syncml::persistence {
namespace {

class session_routes_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        tenant_ = add_tenant(*db_, "acme").id;
        alice_ = add_user(*db_, "acme", "alice", "pw").id;
        bob_ = add_user(*db_, "acme", "bob", "pw").id;
    }

    std::int64_t tenant_ = 0;
    std::int64_t alice_ = 0;
    std::int64_t bob_ = 0;
};

TEST_F(session_routes_test, names_the_user_of_a_device_and_session_id_and_nothing_else) {
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", "12"), 0);
    record_session_route(*db_, tenant_, "IMEI:1", "12", alice_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", "12"), alice_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", "13"), 0);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:2", "12"), 0);
    const auto other = add_tenant(*db_, "other").id;
    EXPECT_EQ(session_route_user(*db_, other, "IMEI:1", "12"), 0);
    // The row sits on the shard of the device key.
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM session_routes WHERE device_key = syncml_device_key(" +
                                    std::to_string(tenant_) + ", 'IMEI:1')"),
              "1");
}

TEST_F(session_routes_test, a_session_started_by_another_user_moves_the_route) {
    record_session_route(*db_, tenant_, "IMEI:1", "12", alice_);
    record_session_route(*db_, tenant_, "IMEI:1", "12", bob_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", "12"), bob_);
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM session_routes"), "1");
}

TEST_F(session_routes_test, a_session_id_used_again_refreshes_its_routes_age) {
    record_session_route(*db_, tenant_, "IMEI:1", "12", alice_);
    query_value(*db_, "UPDATE session_routes SET updated_at = now() - interval '2 days' RETURNING 1");
    record_session_route(*db_, tenant_, "IMEI:1", "12", alice_);
    EXPECT_EQ(query_value(*db_, "SELECT updated_at > now() - interval '1 minute' FROM session_routes"), "t");
}

TEST_F(session_routes_test, a_deleted_tenant_takes_its_routes_along) {
    record_session_route(*db_, tenant_, "IMEI:1", "12", alice_);
    delete_tenant(*db_, "acme", true);
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM session_routes"), "0");
}

}  // namespace
}  // namespace syncml::persistence
