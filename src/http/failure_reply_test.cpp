#include "src/http/failure_reply.hpp"

#include <gtest/gtest.h>

#include "common/http/retry_after.hpp"

namespace syncml::server {
namespace {

using headers = std::vector<std::pair<std::string, std::string>>;
using std::chrono::seconds;

TEST(failure_reply, a_full_queue_is_503_and_asks_to_come_back_in_a_second) {
    const http_reply reply = text_failure_reply(http_failure::server_busy);
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.content_type, "text/plain; charset=utf-8");
    EXPECT_EQ(reply.body, "server busy, try again later\n");
    EXPECT_EQ(reply.headers, (headers{common::retry_after(seconds(1))}));
}

TEST(failure_reply, a_database_outage_is_503_and_asks_to_come_back_in_five_seconds) {
    const http_reply reply = text_failure_reply(http_failure::database_unavailable);
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.body, "database unavailable, try again later\n");
    EXPECT_EQ(reply.headers, (headers{common::retry_after(seconds(5))}));
}

TEST(failure_reply, a_body_beyond_the_budget_is_503_and_asks_to_come_back_in_a_second) {
    const http_reply reply = text_failure_reply(http_failure::body_budget_full);
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.body, "server busy reading other requests, try again later\n");
    EXPECT_EQ(reply.headers, (headers{common::retry_after(seconds(1))}));
}

TEST(failure_reply, not_ready_shows_a_detail_only_when_given_one) {
    EXPECT_EQ(text_failure_reply(http_failure::not_ready).body, "not ready\n");
    const http_reply reply = text_failure_reply(http_failure::not_ready, "database down");
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.body, "not ready: database down\n");
    EXPECT_EQ(reply.headers, (headers{common::retry_after(seconds(1))}));
}

TEST(failure_reply, refusals_a_retry_cannot_mend_have_no_retry_after) {
    const std::pair<http_failure, int> cases[] = {
        {http_failure::internal_error, 500},    {http_failure::body_too_large, 413},
        {http_failure::malformed_body, 400},    {http_failure::header_too_large, 431},
        {http_failure::malformed_request, 400}, {http_failure::misdirected, 421}};
    for (const auto& [failure, status] : cases) {
        const http_reply reply = text_failure_reply(failure);
        EXPECT_EQ(reply.status, status);
        EXPECT_TRUE(reply.headers.empty()) << reply.body;
    }
    EXPECT_EQ(text_failure_reply(http_failure::internal_error).body, "internal server error\n");
    EXPECT_EQ(text_failure_reply(http_failure::malformed_request).body, "malformed request\n");
}

TEST(failure_reply, the_log_reason_is_the_first_line_of_a_refusal) {
    EXPECT_EQ(refusal_reason(text_failure_reply(http_failure::not_ready, "x")), "not ready: x");
    http_reply json = text_reply(409, "{\"error\":\"taken\"}\n");
    json.content_type = "application/json";
    EXPECT_EQ(refusal_reason(json), "{\"error\":\"taken\"}");
    EXPECT_EQ(refusal_reason(text_reply(200, "fine\n")), "");
    http_reply xml = text_reply(400, "<x/>");
    xml.content_type = "application/xml";
    EXPECT_EQ(refusal_reason(xml), "");
}

}  // namespace
}  // namespace syncml::server
