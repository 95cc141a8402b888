#include "src/admin/api/admin_api.hpp"

#include <gtest/gtest.h>

#include "common/http/retry_after.hpp"

namespace syncml::server {
namespace {

TEST(admin_failure_reply, says_what_the_plain_text_ports_say_as_a_json_error) {
    for (const auto failure :
         {http_failure::server_busy, http_failure::database_unavailable, http_failure::not_ready,
          http_failure::internal_error, http_failure::malformed_body, http_failure::header_too_large,
          http_failure::malformed_request, http_failure::body_budget_full, http_failure::misdirected}) {
        const http_reply text = text_failure_reply(failure);
        const http_reply json = admin_failure_reply(failure);
        EXPECT_EQ(json.status, text.status);
        EXPECT_EQ(json.content_type, "application/json");
        EXPECT_EQ(json.body, "{\"error\":\"" + text.body.substr(0, text.body.size() - 1) + "\"}\n");
        EXPECT_EQ(json.headers, text.headers) << text.body;
    }
}

TEST(admin_failure_reply, a_full_queue_keeps_its_exact_bytes) {
    const http_reply reply = admin_failure_reply(http_failure::server_busy);
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.body, "{\"error\":\"server busy, try again later\"}\n");
    ASSERT_EQ(reply.headers.size(), 1u);
    EXPECT_EQ(reply.headers.front(), common::retry_after(std::chrono::seconds(1)));
}

TEST(admin_failure_reply, a_body_too_large_names_the_limit_it_was_held_to) {
    EXPECT_EQ(admin_failure_reply(http_failure::body_too_large).body,
              "{\"error\":\"request body larger than 64 KiB\"}\n");
    const http_reply reply = admin_failure_reply(http_failure::body_too_large, 8 * 1024 * 1024);
    EXPECT_EQ(reply.status, 413);
    EXPECT_EQ(reply.body, "{\"error\":\"request body larger than 8192 KiB\"}\n");
    EXPECT_TRUE(reply.headers.empty());
}

}  // namespace
}  // namespace syncml::server
