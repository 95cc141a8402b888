#include "src/admin/api/admin_api.hpp"

#include <gtest/gtest.h>

#include "common/http/retry_after.hpp"

namespace syncml::server {
namespace {

using headers = std::vector<std::pair<std::string, std::string>>;
using std::chrono::seconds;

TEST(admin_failure_reply, a_full_queue_is_a_json_503_with_retry_after) {
    const http_reply reply = admin_failure_reply(http_failure::server_busy);
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.content_type, "application/json");
    EXPECT_EQ(reply.body, "{\"error\":\"server busy, try again later\"}\n");
    EXPECT_EQ(reply.headers, (headers{common::retry_after(seconds(1))}));
}

TEST(admin_failure_reply, a_database_outage_asks_to_come_back_in_five_seconds) {
    const http_reply reply = admin_failure_reply(http_failure::database_unavailable);
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.body, "{\"error\":\"database unavailable, try again later\"}\n");
    EXPECT_EQ(reply.headers, (headers{common::retry_after(seconds(5))}));
}

TEST(admin_failure_reply, a_body_too_large_names_the_limit_it_was_held_to) {
    EXPECT_EQ(admin_failure_reply(http_failure::body_too_large).body,
              "{\"error\":\"request body larger than 64 KiB\"}\n");
    const http_reply reply = admin_failure_reply(http_failure::body_too_large, 8 * 1024 * 1024);
    EXPECT_EQ(reply.status, 413);
    EXPECT_EQ(reply.body, "{\"error\":\"request body larger than 8192 KiB\"}\n");
    EXPECT_TRUE(reply.headers.empty());
}

TEST(admin_failure_reply, a_malformed_body_is_400_in_the_same_words_as_plain_text) {
    const http_reply reply = admin_failure_reply(http_failure::malformed_body);
    EXPECT_EQ(reply.status, 400);
    EXPECT_EQ(reply.body, "{\"error\":\"malformed request body\"}\n");
}

}  // namespace
}  // namespace syncml::server
