// The failure-to-reply mapping of the SyncML front end: each failure's HTTP or SyncML status and Retry-After.
#include "session/service/sync_replies.hpp"

#include <gtest/gtest.h>

#include "session/codec/codec.hpp"
#include "session/service/sync_service_test_support.hpp"

namespace syncml::session {
namespace {

std::string retry_after(const sync_response& r) {
    for (const auto& [name, value] : r.headers) {
        if (name == "Retry-After") return value;
    }
    return "";
}

std::string header_status(const sync_response& r) {
    auto decoded = decode(r.body);
    if (!decoded) return "undecodable";
    for (const auto& c : decoded.value().body.commands) {
        if (auto* s = std::get_if<status>(&c.value); s && s->cmd == "SyncHdr") return s->data;
    }
    return "none";
}

TEST(sync_replies, refusals_in_a_session_answer_with_a_syncml_status) {
    const auto in = testing::second_message();
    persistence::tenant_info tenant;
    tenant.name = "t";
    for (auto [failure, status] :
         {std::pair{sync_failure::busy, "101"}, std::pair{sync_failure::too_many_devices, "403"},
          std::pair{sync_failure::unknown_tenant, "404"}}) {
        auto r = failure_reply(failure, scene_of(in, &tenant));
        EXPECT_EQ(r.http_status, 200);
        EXPECT_EQ(header_status(r), status);
        EXPECT_TRUE(r.headers.empty());
    }
}

TEST(sync_replies, come_back_later_is_http_503_with_retry_after) {
    const auto in = testing::second_message();
    persistence::tenant_info tenant;
    auto sessions = failure_reply(sync_failure::too_many_sessions, scene_of(in, &tenant));
    EXPECT_EQ(sessions.http_status, 503);
    EXPECT_EQ(retry_after(sessions), "30");
    EXPECT_TRUE(sessions.body.empty());
    auto outage = failure_reply(sync_failure::database_unavailable, {});
    EXPECT_EQ(outage.http_status, 503);
    EXPECT_EQ(retry_after(outage), "5");
}

TEST(sync_replies, a_throttled_login_gets_its_challenge_and_the_rest_of_its_block) {
    failure_scene scene;
    scene.blocked = std::chrono::seconds(90);
    scene.challenge.body = "challenge";
    scene.challenge.content_type = "application/vnd.syncml+xml";
    auto r = failure_reply(sync_failure::login_throttled, std::move(scene));
    EXPECT_EQ(r.http_status, 200);
    EXPECT_EQ(r.body, "challenge");
    EXPECT_EQ(retry_after(r), "90");
}

TEST(sync_replies, a_message_without_a_decoded_header_gets_an_http_error) {
    failure_scene scene;
    scene.detail = "offset 3: expected <SyncML>";
    EXPECT_EQ(failure_reply(sync_failure::malformed, scene).http_status, 400);
    EXPECT_EQ(failure_reply(sync_failure::unsupported_version, {}).http_status, 400);
    failure_scene oversized;
    oversized.bytes = 5000;
    EXPECT_EQ(failure_reply(sync_failure::oversized, std::move(oversized)).http_status, 413);
}

TEST(sync_replies, a_decoded_header_gets_400_or_505_in_syncml) {
    const auto in = testing::second_message();
    EXPECT_EQ(header_status(failure_reply(sync_failure::malformed, scene_of(in))), "400");
    EXPECT_EQ(header_status(failure_reply(sync_failure::unsupported_version, scene_of(in))), "505");
}

}  // namespace
}  // namespace syncml::session
