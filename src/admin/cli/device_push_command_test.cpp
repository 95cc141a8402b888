#include "src/admin/cli/device_push_command.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "persistence/pg/errors.hpp"
#include "persistence/pg/test_query.hpp"
#include "src/admin/cli/admin_command.hpp"
#include "src/admin/cli/own_tenant_test_support.hpp"

namespace syncml::server {
namespace {

// A tenant of its own with user ann and her device IMEI:1; the tenant goes at the end.
class device_push_db : public testing::own_tenant_test {
  protected:
    void SetUp() override {
        open_tenant("push-test");
        if (IsSkipped()) return;
        persistence::query_value(*db_, "INSERT INTO devices (tenant_id, user_id, device_uri) VALUES (" +
                                           std::to_string(ann_.tenant_id) + ", " + std::to_string(ann_.id) +
                                           ", 'IMEI:1') RETURNING device_id");
    }

    std::string run(std::vector<std::pair<std::string, std::string>> options, bool off = false, bool json = false) {
        std::ostringstream out;
        run_device_push(*db_, {tenant_, "ann", "IMEI:1", std::move(options), off, json}, out);
        return out.str();
    }
};

TEST_F(device_push_db, opts_a_device_in_changes_only_what_is_given_and_opts_it_out) {
    EXPECT_EQ(run({}), "device\tIMEI:1\npush\toff\n");
    EXPECT_EQ(run({{"--phone", "+41791234567"}, {"--server-password", "s3cret"}}),
              "device\tIMEI:1\npush\ton phone=+41791234567 datastores=all server-password=set quiet=none\n"
              "push_last\tnever\n");
    EXPECT_EQ(run({{"--datastores", "contacts,calendar"},
                   {"--quiet-hours", "22:00-07:00"},
                   {"--time-zone", "Europe/Zurich"}}),
              "device\tIMEI:1\npush\ton phone=+41791234567 datastores=contacts,calendar server-password=set "
              "quiet=22:00-07:00 Europe/Zurich\npush_last\tnever\n");
    EXPECT_EQ(run({}, false, true),
              "{\"device\":\"IMEI:1\",\"push\":{\"phone_number\":\"+41791234567\",\"datastores\":[\"contacts\","
              "\"calendar\"],\"server_password\":true,\"quiet_start\":\"22:00\",\"quiet_end\":\"07:00\","
              "\"time_zone\":\"Europe/Zurich\",\"pending\":false,\"changes\":0,\"due_at\":null,\"notified_at\":null,"
              "\"last_result\":null,\"attempts\":0}}\n");
    EXPECT_EQ(run({{"--phone", "none"}, {"--datastores", "all"}, {"--quiet-hours", "none"}}),
              "device\tIMEI:1\npush\ton phone=none datastores=all server-password=set quiet=none\n"
              "push_last\tnever\n");
    EXPECT_EQ(run({}, true), "device\tIMEI:1\npush\toff\n");
}

TEST_F(device_push_db, refuses_bad_values_and_unknown_devices) {
    EXPECT_THROW(run({{"--phone", "0791234567"}}), std::invalid_argument);
    EXPECT_THROW(run({{"--datastores", "mail"}}), std::invalid_argument);
    EXPECT_THROW(run({{"--quiet-hours", "22"}}), std::invalid_argument);
    EXPECT_THROW(run({{"--time-zone", "Nowhere/City"}}), std::invalid_argument);
    EXPECT_THROW(run({{"--phone", "+41791234567"}}, true), std::invalid_argument) << "--off with an option";
    EXPECT_EQ(run({}), "device\tIMEI:1\npush\toff\n") << "nothing stored";
    std::ostringstream out;
    EXPECT_THROW(run_device_push(*db_, {tenant_, "ann", "IMEI:2", {}, false, false}, out), persistence::not_found);
}

TEST(device_push_command, parses_its_options_and_flags) {
    const auto parsed = parse_admin({"device", "push", "--tenant", "t", "--user", "u", "--device", "d", "--phone",
                                     "+41791234567", "--datastores", "contacts", "--json"});
    ASSERT_EQ(parsed.error, "");
    EXPECT_EQ(parsed.request.action, admin_action::device_push);
    EXPECT_TRUE(parsed.request.json);
    EXPECT_EQ(parsed.request.tenant_options, (std::vector<std::pair<std::string, std::string>>{
                                                 {"--phone", "+41791234567"}, {"--datastores", "contacts"}}));
    EXPECT_TRUE(parse_admin({"device", "push", "--tenant", "t", "--user", "u", "--device", "d", "--off"}).request.off);
    EXPECT_NE(parse_admin({"device", "push", "--tenant", "t", "--user", "u"}).error, "");
}

}  // namespace
}  // namespace syncml::server
