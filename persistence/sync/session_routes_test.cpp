#include "persistence/sync/session_routes.hpp"

#include <gtest/gtest.h>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"

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

    static constexpr std::chrono::seconds k_window = std::chrono::hours(5);

    static constexpr const char* k_home = "192.0.2.1";

    std::int64_t route_user(const std::string& device, const std::string& session_id,
                            const std::string& address = k_home) {
        return session_route_user(*db_, tenant_, device, session_id, address, k_window);
    }
    void start(const std::string& device, std::int64_t user, const std::string& session_id,
               const std::string& address = k_home) {
        record_session_start(*db_, tenant_, device, user, session_id, address);
    }

    std::int64_t tenant_ = 0;
    std::int64_t alice_ = 0;
    std::int64_t bob_ = 0;
};

TEST_F(session_routes_test, names_the_user_who_started_a_session_of_a_device_and_nothing_else) {
    EXPECT_EQ(route_user("IMEI:1", "7"), 0);
    start("IMEI:1", alice_, "7");
    EXPECT_EQ(route_user("IMEI:1", "7"), alice_);
    EXPECT_EQ(route_user("IMEI:2", "7"), 0);
    EXPECT_EQ(route_user("IMEI:1", "8"), 0);
    EXPECT_EQ(route_user("IMEI:1", "7", "198.51.100.1"), 0) << "only from the address the start came from";
    const auto other = add_tenant(*db_, "other").id;
    EXPECT_EQ(session_route_user(*db_, other, "IMEI:1", "7", k_home, k_window), 0);
    // The row sits on the shard of the device key.
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM session_starts WHERE device_key = syncml_device_key(" +
                                    std::to_string(tenant_) + ", 'IMEI:1')"),
              "1");
    // The device's next session replaces it.
    start("IMEI:1", alice_, "8");
    EXPECT_EQ(route_user("IMEI:1", "7"), 0);
    EXPECT_EQ(route_user("IMEI:1", "8"), alice_);
}

// Another user's start of the same device id behind the phone's address (with the phone's SessionID or another): a
// message without token or credentials could be either user's phone, so the route names nobody (it gets a challenge)
// until the other start is older than any session may live.
TEST_F(session_routes_test, another_users_recent_start_of_the_device_makes_it_name_nobody) {
    start("IMEI:1", alice_, "7");
    start("IMEI:1", bob_, "9");
    EXPECT_EQ(route_user("IMEI:1", "7"), 0);
    EXPECT_EQ(route_user("IMEI:1", "9"), 0);
    start("IMEI:1", bob_, "7");
    EXPECT_EQ(route_user("IMEI:1", "7"), 0);
    // Once alice's start is older than any session may live, only bob's can be live.
    query_value(*db_, "UPDATE session_starts SET started_at = now() - interval '5 hours 1 minute' WHERE user_id = " +
                          std::to_string(alice_) + " RETURNING 1");
    EXPECT_EQ(route_user("IMEI:1", "7"), bob_);
    EXPECT_EQ(session_route_user(*db_, tenant_, "IMEI:1", "7", k_home, std::chrono::hours(6)), 0)
        << "a longer session life keeps it ambiguous longer";
}

// Issue 35: a co-user's credentialed message with her phone's device id, from elsewhere, stopped her phone's
// continuation for hours. A later start elsewhere never counts; an earlier one of her SessionID does (his phone could
// have moved to her address).
TEST_F(session_routes_test, another_users_later_start_of_the_device_elsewhere_changes_nothing) {
    start("IMEI:1", alice_, "7");
    query_value(*db_, "UPDATE session_starts SET since = since - interval '1 second' RETURNING 1");
    start("IMEI:1", bob_, "7", "203.0.113.66");
    start("IMEI:1", bob_, "9", "203.0.113.67");
    EXPECT_EQ(route_user("IMEI:1", "7"), alice_);
    EXPECT_EQ(route_user("IMEI:1", "9", "203.0.113.67"), bob_);
    start("IMEI:1", bob_, "7", "203.0.113.66");
    EXPECT_EQ(route_user("IMEI:1", "7", "203.0.113.66"), 0) << "alice's start of 7 came first: it could be her phone";
    // Her phone moves: the start from its new address replaces the old one, and keeps its beginning.
    start("IMEI:1", alice_, "7", "198.51.100.5");
    EXPECT_EQ(route_user("IMEI:1", "7", "198.51.100.5"), alice_);
    EXPECT_EQ(route_user("IMEI:1", "7"), 0);
}

// During a rollout, servers of the version before 0027 record a session's start as a session route (device and
// address): such a route of another user at the message's address counts as a start, one of the same user changes
// nothing.
TEST_F(session_routes_test, a_recent_session_route_of_another_user_makes_it_name_nobody) {
    start("IMEI:1", alice_, "7");
    const auto route = [&](std::int64_t user, const std::string& address, const std::string& age) {
        query_value(*db_,
                    "INSERT INTO session_routes (device_key, tenant_id, device_uri, client_address, user_id, "
                    "updated_at, stale_at) VALUES (syncml_device_key(" +
                        std::to_string(tenant_) + ", 'IMEI:1'), " + std::to_string(tenant_) + ", 'IMEI:1', '" +
                        address + "', " + std::to_string(user) + ", now() - interval '" + age +
                        "', now()) RETURNING 1");
    };
    route(alice_, "192.0.2.9", "1 minute");
    EXPECT_EQ(route_user("IMEI:1", "7"), alice_);
    route(bob_, "192.0.2.1", "6 hours");
    EXPECT_EQ(route_user("IMEI:1", "7"), alice_) << "older than any session may live";
    query_value(
        *db_, "UPDATE session_routes SET updated_at = now() WHERE user_id = " + std::to_string(bob_) + " RETURNING 1");
    EXPECT_EQ(route_user("IMEI:1", "7"), 0);
    route(bob_, "192.0.2.2", "1 minute");
    EXPECT_EQ(route_user("IMEI:1", "7", "192.0.2.2"), 0) << "bob's route there names nobody: alice has no start there";
}

// Each message with credentials records its start; only another SessionID or an hour's age makes that a write.
TEST_F(session_routes_test, the_same_start_is_rewritten_only_once_it_is_an_hour_old) {
    start("IMEI:1", alice_, "7");
    const auto written = query_value(*db_, "SELECT xmin::text FROM session_starts");
    start("IMEI:1", alice_, "7");
    EXPECT_EQ(query_value(*db_, "SELECT xmin::text FROM session_starts"), written);
    query_value(*db_, "UPDATE session_starts SET started_at = now() - interval '61 minutes' RETURNING 1");
    start("IMEI:1", alice_, "7");
    EXPECT_EQ(query_value(*db_, "SELECT started_at > now() - interval '1 minute' FROM session_starts"), "t");
}

TEST_F(session_routes_test, a_deleted_tenant_takes_its_session_starts_along) {
    start("IMEI:1", alice_, "7");
    delete_tenant(*db_, "acme", true);
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM session_starts"), "0");
}

}  // namespace
}  // namespace syncml::persistence
