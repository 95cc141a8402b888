#include "src/admin/common/tenant_options.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace syncml::server {
namespace {

TEST(tenant_options, set_each_setting_and_leave_the_others) {
    persistence::tenant_settings s;
    apply_tenant_option(s, "--conflict-policy", "client-wins");
    apply_tenant_option(s, "--session-binding", "token");
    apply_tenant_option(s, "--auth-basic", "off");
    apply_tenant_option(s, "--auth-md5", "on");
    apply_tenant_option(s, "--max-sessions", "5000");
    apply_tenant_option(s, "--max-devices-per-user", "3");
    apply_tenant_option(s, "--max-items-per-datastore", "250");
    apply_tenant_option(s, "--max-message-bytes", "65536");
    apply_tenant_option(s, "--max-object-bytes", "2097152");
    apply_tenant_option(s, "--max-user-bytes", "5368709120");
    apply_tenant_option(s, "--push", "on");
    apply_tenant_option(s, "--push-daily-budget", "250");
    apply_tenant_option(s, "--tombstone-retention-days", "30");
    apply_tenant_option(s, "--window-past-days", "30");
    apply_tenant_option(s, "--window-future-days", "365");
    apply_tenant_option(s, "--window-max-items", "500");
    apply_tenant_option(s, "--window-max-photo-bytes", "20000");
    EXPECT_EQ(describe_tenant_settings(s, " "),
              "conflict=client_wins session-binding=token auth-basic=off auth-md5=on dav=off max-sessions=5000 "
              "max-devices-per-user=3 max-items-per-datastore=250 max-message-bytes=65536 max-object-bytes=2097152 "
              "max-user-bytes=5368709120 push=on push-daily-budget=250 tombstone-retention-days=30 window-past-days=30 "
              "window-future-days=365 "
              "window-max-items=500 "
              "window-max-photo-bytes=20000");
    EXPECT_EQ(s.window, (persistence::sync_window{30, 365, 500, 20000}));
    EXPECT_EQ(s.max_user_bytes, std::int64_t{5} << 30) << "a quota of gigabytes passes 2^31";
    persistence::tenant_settings defaults;
    apply_tenant_option(defaults, "--max-sessions", "7");
    EXPECT_EQ(defaults.max_devices_per_user, persistence::tenant_settings{}.max_devices_per_user);
    EXPECT_TRUE(defaults.auth_md5);
}

TEST(tenant_options, refuse_malformed_values_with_the_option_named) {
    persistence::tenant_settings s;
    auto message_of = [&](const char* option, const char* value) {
        try {
            apply_tenant_option(s, option, value);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message_of("--auth-md5", "maybe").find("--auth-md5"), std::string::npos);
    EXPECT_NE(message_of("--max-sessions", "12x").find("whole number"), std::string::npos);
    EXPECT_NE(message_of("--max-sessions", "").find("whole number"), std::string::npos);
    EXPECT_NE(message_of("--max-sessions", "99999999999").find("whole number"), std::string::npos);
    EXPECT_NE(message_of("--conflict-policy", "coin-toss").find("expected merge"), std::string::npos);
    EXPECT_NE(message_of("--session-binding", "cookie").find("token-or-address"), std::string::npos);
    EXPECT_NE(message_of("--max-user-bytes", "1G").find("whole number of bytes"), std::string::npos);
    EXPECT_NE(message_of("--max-user-bytes", "99999999999999999999").find("--max-user-bytes"), std::string::npos);
    EXPECT_EQ(s.max_user_bytes, persistence::tenant_settings{}.max_user_bytes);
    EXPECT_EQ(s.max_sessions, persistence::tenant_settings{}.max_sessions);
}

TEST(tenant_options, the_default_storage_quota_is_one_gib_and_zero_turns_it_off) {
    persistence::tenant_settings s;
    EXPECT_NE(describe_tenant_settings(s, " ").find(" max-user-bytes=1073741824 "), std::string::npos);
    apply_tenant_option(s, "--max-user-bytes", "0");
    EXPECT_NE(describe_tenant_settings(s, " ").find(" max-user-bytes=0 "), std::string::npos);
}

TEST(tenant_options, usage_lists_every_option) {
    auto usage = tenant_options_usage("  ");
    for (const char* name : tenant_option_names()) EXPECT_NE(usage.find(name), std::string::npos) << name;
}

}  // namespace
}  // namespace syncml::server
