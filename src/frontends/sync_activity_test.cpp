#include "src/frontends/sync_activity.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

using result = session::engine_metrics::message_result;

session::answered_message message(std::string_view tenant, result r, bool done = false,
                                  std::string_view device = "IMEI:1") {
    return {
        .tenant = tenant, .user = "ann", .device = device, .address = "192.0.2.7", .result = r, .session_done = done};
}

constexpr std::int64_t k_noon = 1'700'000'400;  // a minute's start

TEST(sync_activity, counts_completed_sessions_and_errors_per_minute_for_the_last_hour) {
    sync_activity activity;
    activity.record(message("acme", result::ok, true), k_noon - 120);
    activity.record(message("acme", result::ok, false), k_noon - 119);  // neither
    activity.record(message("acme", result::auth_failed), k_noon + 5);
    activity.record(message("acme", result::ok, true), k_noon + 59);
    activity.record(message("other", result::bad_request), k_noon + 30);
    activity.record(message("acme", result::ok, true), k_noon - 3600);  // an hour late: not counted
    const auto acme = activity.last_hour("acme", k_noon + 10);
    ASSERT_EQ(acme.size(), 60u);
    EXPECT_EQ(acme.back().minute, k_noon);
    EXPECT_EQ(acme.front().minute, k_noon - 59 * 60);
    EXPECT_EQ(acme.back().sessions, 1);
    EXPECT_EQ(acme.back().errors, 1);
    EXPECT_EQ(acme[57].sessions, 1);  // two minutes before
    std::int64_t sessions = 0;
    for (const auto& m : acme) sessions += m.sessions;
    EXPECT_EQ(sessions, 2);
    const auto all = activity.last_hour("", k_noon + 10);
    EXPECT_EQ(all.back().errors, 2);
    EXPECT_EQ(activity.last_hour("nobody", k_noon).back().errors, 0);
    // A minute's slot is reused an hour later, not added to.
    EXPECT_EQ(activity.last_hour("acme", k_noon + 3600).back().sessions, 0);
}

TEST(sync_activity, keeps_the_newest_failed_logins_per_tenant_and_each_devices_last_error) {
    sync_activity activity({.failed_logins = 2, .device_errors = 2, .tenants = 1});
    activity.record(message("acme", result::auth_failed, false, "d1"), k_noon);
    activity.record(message("other", result::auth_failed, false, "d2"), k_noon + 1);
    activity.record(message("acme", result::unavailable, false, "d1"), k_noon + 2);
    activity.record(message("acme", result::auth_failed, false, "d3"), k_noon + 3);
    const auto all = activity.failed_logins("", 10);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].device, "d3");
    EXPECT_EQ(all[0].user, "ann");
    EXPECT_EQ(all[0].address, "192.0.2.7");
    EXPECT_EQ(all[1].tenant, "other");
    EXPECT_EQ(activity.failed_logins("acme", 10).size(), 1u);
    EXPECT_EQ(activity.failed_logins("", 1).size(), 1u);
    // d1's latest error replaced its first; d1 was the oldest device when d3 came, so it went.
    EXPECT_FALSE(activity.last_error("acme", "d1"));
    EXPECT_EQ(activity.last_error("acme", "d3")->message, "authentication failed");
    EXPECT_EQ(activity.last_error("other", "d2")->at, k_noon + 1);
    // Only one tenant has counts of its own; the totals have all.
    EXPECT_EQ(activity.last_hour("other", k_noon).back().errors, 0);
    EXPECT_EQ(activity.last_hour("", k_noon).back().errors, 4);
    EXPECT_EQ(activity_error_text(result::ok), "");
}

}  // namespace
}  // namespace syncml::server
