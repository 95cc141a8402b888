#include "src/admin/common/admin_json.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

TEST(admin_json, lists_are_json_arrays_with_escaped_text) {
    persistence::user_info quoted;
    quoted.name = "a\"b\\c";
    quoted.disabled = true;
    EXPECT_EQ(users_json({quoted, {0, 0, "d", false}}),
              "[{\"name\":\"a\\\"b\\\\c\",\"disabled\":true},{\"name\":\"d\",\"disabled\":false}]\n");
    EXPECT_EQ(users_json({}), "[]\n");
    persistence::device_info never;
    never.device_uri = "IMEI:1";
    EXPECT_EQ(devices_json({never}), "[{\"device\":\"IMEI:1\",\"last_seen\":null,\"datastores\":0}]\n");
    persistence::tenant_info tenant;
    tenant.name = "acme";
    const auto json = tenants_json({tenant});
    EXPECT_NE(json.find("\"name\":\"acme\",\"conflict_policy\":\"merge\",\"session_binding\":\"token\","
                        "\"auth_basic\":true"),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"max_object_bytes\":16777216,\"max_user_bytes\":1073741824,\"push\":false,\"push_daily_"
                        "budget\":1000,\"tombstone_retention_days\":90,"),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"window_past_days\":0,\"window_future_days\":0,\"window_max_items\":0,"
                        "\"window_max_photo_bytes\":0}"),
              std::string::npos)
        << json;
}

TEST(admin_json, show_is_one_object_with_its_usage_nested) {
    persistence::user_details user;
    user.name = "bob";
    user.created_at = "2026-01-02T03:04:05Z";
    user.datastores.push_back(
        {.name = "contacts", .kind = "contacts", .items = 3, .tombstones = 1, .modseq = 9, .stored_bytes = 612});
    user.devices = 2;
    user.stored_bytes = 612;
    user.max_user_bytes = std::int64_t{5} << 30;
    EXPECT_EQ(user_json(user),
              "{\"name\":\"bob\",\"created_at\":\"2026-01-02T03:04:05Z\",\"disabled\":false,\"disabled_at\":null,"
              "\"devices\":2,\"last_sync\":null,\"stored_bytes\":612,\"max_user_bytes\":5368709120,"
              "\"datastores\":[{\"name\":\"contacts\",\"kind\":\"contacts\","
              "\"items\":3,\"tombstones\":1,\"modseq\":9,\"stored_bytes\":612}]}\n");
    persistence::device_details device;
    device.device_uri = "IMEI:1";
    device.user = "bob";
    device.first_seen = "x";
    EXPECT_EQ(
        device_json(device),
        "{\"device\":\"IMEI:1\",\"user\":\"bob\",\"first_seen\":\"x\",\"last_seen\":null,\"address_continued\":null,"
        "\"devinf\":false,"
        "\"datastores\":[],\"push\":null}\n");
}

}  // namespace
}  // namespace syncml::server
