#include "session/service/tenant_limits.hpp"

#include <gtest/gtest.h>

namespace syncml::session {
namespace {

TEST(tenant_limits, a_body_beyond_the_tenants_message_limit_is_refused_with_413) {
    persistence::tenant_settings tenant;
    tenant.max_message_bytes = 2048;
    sync_request request;
    request.body = std::string(2048, 'x');
    EXPECT_FALSE(refuse_oversized_message(request, tenant, nullptr));
    request.body += 'x';
    auto refused = refuse_oversized_message(request, tenant, nullptr);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->http_status, 413);
    EXPECT_TRUE(refused->body.empty());
}

TEST(tenant_limits, the_engine_gets_the_smaller_of_the_servers_and_the_tenants_limits) {
    persistence::tenant_settings tenant;
    tenant.max_message_bytes = 4096;
    tenant.max_object_bytes = 64 * 1024 * 1024;
    tenant.max_items_per_datastore = 7;
    tenant.max_user_bytes = 5000;
    engine_context ctx;
    ctx.max_msg_size = 1024 * 1024;
    ctx.max_obj_size = 16 * 1024 * 1024;
    apply_tenant_limits(ctx, tenant);
    EXPECT_EQ(ctx.max_msg_size, 4096);
    EXPECT_EQ(ctx.max_obj_size, 16 * 1024 * 1024) << "the server's is smaller";
    EXPECT_EQ(ctx.max_items_per_datastore, 7);
    EXPECT_EQ(ctx.max_user_bytes, 5000);
}

}  // namespace
}  // namespace syncml::session
