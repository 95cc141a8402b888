// The topology is the front end's to say (service_settings::distributed_schema), asked per message; on one database
// nothing here touches the database.
#include "session/service/distributed_sessions.hpp"

#include <gtest/gtest.h>

#include "persistence/pg/database.hpp"
#include "session/service/sync_service_test_support.hpp"

namespace syncml::session {
namespace {

// Nothing listens on port 1: any call that reaches for the database fails at once.
constexpr const char* k_unreachable = "postgresql://postgres@127.0.0.1:1/none?connect_timeout=1";

persistence::tenant_info tenant_with_cap() {
    persistence::tenant_info tenant;
    tenant.id = 5;
    tenant.name = "t";
    tenant.settings.max_sessions = 1;
    return tenant;
}

TEST(distributed_sessions, on_one_database_asks_nothing_of_the_database) {
    service_settings settings;
    distributed_sessions distributed(settings);
    persistence::database db(k_unreachable);
    sync_request request;
    request.remote_addr = "192.0.2.1";
    const auto tenant = tenant_with_cap();
    EXPECT_EQ(distributed.route_user(db, tenant, request, testing::second_message()), 0);
    EXPECT_TRUE(distributed.record_start(db, tenant, request, testing::second_message(), 11));
    EXPECT_FALSE(distributed.beyond_session_cap(db, tenant));
}

TEST(distributed_sessions, asks_the_topology_for_every_message) {
    bool distributed_schema = false;
    service_settings settings;
    settings.distributed_schema = [&] { return distributed_schema; };
    distributed_sessions distributed(settings);
    persistence::database db(k_unreachable);
    const auto tenant = tenant_with_cap();
    sync_request request;
    request.remote_addr = "192.0.2.1";
    EXPECT_TRUE(distributed.record_start(db, tenant, request, testing::second_message(), 11));
    distributed_schema = true;
    EXPECT_FALSE(distributed.record_start(db, tenant, request, testing::second_message(), 11))
        << "a start that cannot be recorded refuses the message (retryable)";
    auto first = testing::second_message();
    first.header.msg_id = "1";
    EXPECT_EQ(distributed.route_user(db, tenant, request, first), 0) << "message 1 continues no session by address";
}

}  // namespace
}  // namespace syncml::session
