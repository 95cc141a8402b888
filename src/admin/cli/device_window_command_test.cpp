#include "src/admin/cli/device_window_command.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/sync/sync_window.hpp"
#include "src/admin/cli/admin_command.hpp"
#include "src/admin/cli/own_tenant_test_support.hpp"

namespace syncml::server {
namespace {

// A tenant of its own with a 30/365 window, user ann and her device IMEI:1; the tenant goes at the end.
class device_window_db : public testing::own_tenant_test {
  protected:
    void SetUp() override {
        persistence::tenant_settings settings;
        settings.window = {30, 365, 0, 0};
        open_tenant("window-test", settings);
        if (IsSkipped()) return;
        persistence::query_value(*db_, "INSERT INTO devices (tenant_id, user_id, device_uri) VALUES (" +
                                           std::to_string(ann_.tenant_id) + ", " + std::to_string(ann_.id) +
                                           ", 'IMEI:1') RETURNING device_id");
    }

    std::string run(std::vector<std::pair<std::string, std::string>> options, bool inherit = false, bool json = false) {
        std::ostringstream out;
        run_device_window(*db_, {tenant_, "ann", "IMEI:1", std::move(options), inherit, json}, out);
        return out.str();
    }
};

TEST_F(device_window_db, shows_the_tenants_window_until_the_device_gets_its_own) {
    EXPECT_EQ(run({}),
              "device IMEI:1 of user ann: window of the tenant past-days=30 future-days=365 max-items=0 "
              "max-photo-bytes=0\n");
    // The options given change the window in effect; the others keep the tenant's values.
    EXPECT_EQ(run({{"--window-past-days", "7"}, {"--window-max-photo-bytes", "20000"}}),
              "device IMEI:1 of user ann: window of the device past-days=7 future-days=365 max-items=0 "
              "max-photo-bytes=20000\n");
    EXPECT_EQ(persistence::device_window(*db_, tenant_, "ann", "IMEI:1"), (persistence::sync_window{7, 365, 0, 20000}));
    EXPECT_EQ(run({}, false, true),
              "{\"device\":\"IMEI:1\",\"source\":\"device\",\"window_past_days\":7,\"window_future_days\":365,"
              "\"window_max_items\":0,\"window_max_photo_bytes\":20000}\n");

    EXPECT_NE(run({}, true).find("window of the tenant past-days=30"), std::string::npos);
    EXPECT_EQ(persistence::device_window(*db_, tenant_, "ann", "IMEI:1"), std::nullopt);
}

TEST_F(device_window_db, refuses_bad_values_unknown_devices_and_inherit_with_options) {
    EXPECT_THROW(run({{"--window-past-days", "-3"}}), std::invalid_argument);
    EXPECT_THROW(run({{"--window-past-days", "many"}}), std::invalid_argument);
    EXPECT_THROW(run({{"--window-past-days", "3"}}, true), std::invalid_argument);
    EXPECT_EQ(persistence::device_window(*db_, tenant_, "ann", "IMEI:1"), std::nullopt) << "nothing stored";
    std::ostringstream out;
    EXPECT_THROW(run_device_window(*db_, {tenant_, "ann", "IMEI:2", {}, false, false}, out), persistence::not_found);
}

TEST(device_window_parse, reads_the_window_options_and_inherit) {
    auto set = parse_admin(
        {"device", "window", "--tenant", "acme", "--user", "ann", "--device", "IMEI:1", "--window-future-days", "90"});
    ASSERT_EQ(set.error, "");
    EXPECT_EQ(set.request.action, admin_action::device_window);
    EXPECT_EQ(set.request.tenant_options,
              (std::vector<std::pair<std::string, std::string>>{{"--window-future-days", "90"}}));
    auto inherit =
        parse_admin({"device", "window", "--tenant", "acme", "--user", "ann", "--device", "IMEI:1", "--inherit"});
    ASSERT_EQ(inherit.error, "");
    EXPECT_TRUE(inherit.request.inherit);
    EXPECT_NE(parse_admin({"device", "window", "--tenant", "acme", "--user", "ann", "--device", "IMEI:1",
                           "--max-sessions", "3"})
                  .error.find("unexpected"),
              std::string::npos)
        << "only window options";
}

}  // namespace
}  // namespace syncml::server
