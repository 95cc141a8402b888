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

constexpr const char* k_phone = "192.0.2.1";
constexpr const char* k_elsewhere = "203.0.113.66";

TEST_F(session_routes_test, names_the_user_of_a_device_at_an_address_and_nothing_else) {
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", k_phone), 0);
    record_session_route(*db_, tenant_, "IMEI:1", k_phone, alice_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", k_phone), alice_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:2", k_phone), 0);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", k_elsewhere), 0);
    const auto other = add_tenant(*db_, "other").id;
    EXPECT_EQ(session_route_user(*db_, other, "IMEI:1", k_phone), 0);
    // The row sits on the shard of the device key.
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM session_routes WHERE device_key = syncml_device_key(" +
                                    std::to_string(tenant_) + ", 'IMEI:1')"),
              "1");
}

// Another user who starts a session of the same device id from elsewhere does not take the phone's route (else the
// phone's next message without token or credentials would be looked for on that user's shard).
TEST_F(session_routes_test, a_session_of_another_user_from_elsewhere_leaves_the_route_alone) {
    record_session_route(*db_, tenant_, "IMEI:1", k_phone, alice_);
    record_session_route(*db_, tenant_, "IMEI:1", k_elsewhere, bob_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", k_phone), alice_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", k_elsewhere), bob_);
}

// From the same address the newer session is the one that goes on, as on one database.
TEST_F(session_routes_test, a_newer_session_of_another_user_from_the_same_address_moves_the_route) {
    record_session_route(*db_, tenant_, "IMEI:1", k_phone, alice_);
    record_session_route(*db_, tenant_, "IMEI:1", k_phone, bob_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", k_phone), bob_);
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM session_routes"), "1");
}

// Each session start writes its route; only another user or an hour's age makes that a write.
TEST_F(session_routes_test, the_same_route_is_rewritten_only_once_it_is_stale) {
    record_session_route(*db_, tenant_, "IMEI:1", k_phone, alice_);
    const auto written = query_value(*db_, "SELECT xmin::text FROM session_routes");
    record_session_route(*db_, tenant_, "IMEI:1", k_phone, alice_);
    EXPECT_EQ(query_value(*db_, "SELECT xmin::text FROM session_routes"), written);
    query_value(*db_,
                "UPDATE session_routes SET updated_at = now() - interval '3 hours', stale_at = now() - "
                "interval '2 hours' RETURNING 1");
    record_session_route(*db_, tenant_, "IMEI:1", k_phone, alice_);
    EXPECT_EQ(query_value(*db_, "SELECT updated_at > now() - interval '1 minute' FROM session_routes"), "t");
}

TEST_F(session_routes_test, a_deleted_tenant_takes_its_routes_along) {
    record_session_route(*db_, tenant_, "IMEI:1", k_phone, alice_);
    delete_tenant(*db_, "acme", true);
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM session_routes"), "0");
}

}  // namespace
}  // namespace syncml::persistence
