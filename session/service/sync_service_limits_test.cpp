// Over-long SyncHdr identifiers (issue 35): SyncML 400 with the reason logged, before they reach the database (which
// answered them with an index error: 503, and phones retry for ever). The tenant's storage quota per user, from its
// setting to the stored items.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/crypto/base64.hpp"
#include "persistence/pg/test_query.hpp"
#include "session/service/sync_service.hpp"
#include "session/service/sync_service_test_support.hpp"

namespace syncml::session {
namespace {

class sync_service_limits_test : public testing::sync_service_test {
  protected:
    std::string header_status(const message& m) {
        sync_service service;
        const auto reply = post(service, m, "/sync/" + tenant_);
        EXPECT_EQ(reply.http_status, 200);
        const auto codes = status_codes(decoded(reply), "SyncHdr");
        return codes.empty() ? std::string() : codes.front();
    }
};

TEST_F(sync_service_limits_test, a_3000_byte_device_id_is_syncml_400) {
    EXPECT_EQ(header_status(alert_message(std::string(3000, 'd'))), "400");
}

TEST_F(sync_service_limits_test, a_3000_byte_session_id_is_syncml_400) {
    auto m = alert_message("IMEI:1");
    m.header.session_id = std::string(3000, '7');
    EXPECT_EQ(header_status(m), "400");
}

TEST_F(sync_service_limits_test, a_3000_byte_user_name_is_syncml_400) {
    auto m = alert_message("IMEI:1");
    m.header.cred->data = common::base64_encode(std::string(3000, 'u') + ":pw");
    EXPECT_EQ(header_status(m), "400");
}

TEST_F(sync_service_limits_test, identifiers_at_the_limits_still_log_in) {
    auto m = alert_message(std::string(256, 'd'));
    m.header.session_id = std::string(64, '7');
    EXPECT_EQ(header_status(m), "212");
}

// Issue 35: one user must not fill the database everyone shares. Five cards of ~64 bytes against a quota of 150:
// the first fit, the rest get 420 (device full) and are not stored.
TEST_F(sync_service_limits_test, adds_beyond_the_users_storage_quota_get_420_and_store_nothing) {
    change_tenant([](persistence::tenant_settings& s) { s.max_user_bytes = 150; });
    sync_service service;
    const auto started = decoded(post(service, alert_message("IMEI:quota"), "/sync/" + tenant_));
    const auto codes = status_codes(decoded(post(service, sync_message("IMEI:quota", 5), resp_path(started))), "Add");
    ASSERT_EQ(codes.size(), 5u);
    EXPECT_EQ(codes.front(), "201");
    EXPECT_EQ(codes.back(), "420");
    const auto ids = "(SELECT tenant_id FROM tenants WHERE name = '" + tenant_ + "')";
    const auto stored = std::stoll(persistence::query_value(
        *db_, "SELECT coalesce(sum(stored_bytes), 0) FROM datastores WHERE tenant_id = " + ids));
    EXPECT_LE(stored, 150);
    EXPECT_EQ(std::to_string(stored),
              persistence::query_value(*db_,
                                       "SELECT coalesce(sum(octet_length(content)), 0) FROM items "
                                       "WHERE NOT deleted AND tenant_id = " +
                                           ids));
    EXPECT_EQ(persistence::query_value(*db_, "SELECT count(*) FROM items WHERE tenant_id = " + ids),
              std::to_string(std::count(codes.begin(), codes.end(), "201")));
}

}  // namespace
}  // namespace syncml::session
