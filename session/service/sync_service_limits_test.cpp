// Over-long SyncHdr identifiers (issue 35): SyncML 400 with the reason logged, before they reach the database (which
// answered them with an index error: 503, and phones retry for ever).
#include <gtest/gtest.h>

#include "common/crypto/base64.hpp"
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

}  // namespace
}  // namespace syncml::session
