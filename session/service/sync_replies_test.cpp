// The failure-to-reply mapping of the SyncML front end: each failure's HTTP or SyncML status and Retry-After.
#include "session/service/sync_replies.hpp"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

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
        auto r = failure_reply(failure, scene_of(in, &tenant), nullptr);
        EXPECT_EQ(r.http_status, 200);
        EXPECT_EQ(header_status(r), status);
        EXPECT_TRUE(r.headers.empty());
    }
}

TEST(sync_replies, come_back_later_is_http_503_with_retry_after) {
    const auto in = testing::second_message();
    persistence::tenant_info tenant;
    auto sessions = failure_reply(sync_failure::too_many_sessions, scene_of(in, &tenant), nullptr);
    EXPECT_EQ(sessions.http_status, 503);
    EXPECT_EQ(retry_after(sessions), "30");
    EXPECT_TRUE(sessions.body.empty());
    auto outage = failure_reply(sync_failure::database_unavailable, {}, nullptr);
    EXPECT_EQ(outage.http_status, 503);
    EXPECT_EQ(retry_after(outage), "5");
}

TEST(sync_replies, a_throttled_login_gets_its_challenge_and_the_rest_of_its_block) {
    failure_scene scene;
    scene.blocked = std::chrono::seconds(90);
    scene.challenge.body = "challenge";
    scene.challenge.content_type = "application/vnd.syncml+xml";
    auto r = failure_reply(sync_failure::login_throttled, std::move(scene), nullptr);
    EXPECT_EQ(r.http_status, 200);
    EXPECT_EQ(r.body, "challenge");
    EXPECT_EQ(retry_after(r), "90");
}

TEST(sync_replies, a_message_without_a_decoded_header_gets_an_http_error) {
    failure_scene scene;
    scene.detail = "offset 3: expected <SyncML>";
    EXPECT_EQ(failure_reply(sync_failure::malformed, scene, nullptr).http_status, 400);
    EXPECT_EQ(failure_reply(sync_failure::unsupported_version, {}, nullptr).http_status, 400);
    failure_scene oversized;
    oversized.bytes = 5000;
    EXPECT_EQ(failure_reply(sync_failure::oversized, std::move(oversized), nullptr).http_status, 413);
}

TEST(sync_replies, a_decoded_header_gets_400_or_505_in_syncml) {
    const auto in = testing::second_message();
    EXPECT_EQ(header_status(failure_reply(sync_failure::malformed, scene_of(in), nullptr)), "400");
    EXPECT_EQ(header_status(failure_reply(sync_failure::unsupported_version, scene_of(in), nullptr)), "505");
}

double counted(prometheus::Registry& registry, const std::string& family_name, const std::string& label) {
    for (const auto& family : registry.Collect()) {
        if (family.name != family_name) continue;
        for (const auto& metric : family.metric) {
            if (metric.label.size() == 1 && metric.label[0].value == label) return metric.counter.value;
        }
    }
    return 0;
}

// The metrics are the ones the caller passes: no instance of the process is found behind its back.
TEST(sync_replies, a_refusal_and_the_statuses_sent_are_counted_in_the_metrics_given) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    const auto in = testing::second_message();
    persistence::tenant_info tenant;
    tenant.name = "t";
    failure_reply(sync_failure::too_many_devices, scene_of(in, &tenant), &metrics);
    EXPECT_EQ(counted(registry, "syncml_limit_refusals_total", "devices_per_user"), 1);
    EXPECT_EQ(counted(registry, "syncml_statuses_total", "403"), 1) << "the reply's SyncHdr status";
    failure_reply(sync_failure::too_many_devices, scene_of(in, &tenant), nullptr);
    EXPECT_EQ(counted(registry, "syncml_limit_refusals_total", "devices_per_user"), 1) << "null counts nowhere";
}

}  // namespace
}  // namespace syncml::session
