// A tenant that does not exist answers like one whose credentials are wrong (issue 35): tenant names cannot be probed.
#include <gtest/gtest.h>

#include "common/crypto/base64.hpp"
#include "persistence/pg/test_query.hpp"
#include "session/service/sync_service.hpp"
#include "session/service/sync_service_test_support.hpp"

namespace syncml::session {
namespace {

class unknown_tenant_test : public testing::sync_service_test {
  protected:
    sync_response post_to(sync_service& service, const std::string& tenant, const message& m) {
        sync_request request;
        request.tenant = tenant;
        request.url = "/sync/" + tenant;
        request.host = "h";
        request.remote_addr = "192.0.2.1";
        request.body = encode(m, wire_encoding::xml);
        return service.handle(request, *db_);
    }

    void expect_same_answer(const message& m) {
        sync_service service;
        const auto known = post_to(service, tenant_, m);
        const auto unknown = post_to(service, tenant_ + "-nosuch", m);
        EXPECT_EQ(unknown.http_status, known.http_status);
        EXPECT_EQ(unknown.content_type, known.content_type);
        EXPECT_EQ(unknown.headers, known.headers);
        EXPECT_EQ(unknown.body, known.body);
    }
};

TEST_F(unknown_tenant_test, without_credentials_it_challenges_like_a_known_tenant) {
    auto m = alert_message("IMEI:1");
    m.header.cred.reset();
    expect_same_answer(m);
    sync_service service;
    EXPECT_EQ(status_codes(decoded(post_to(service, tenant_ + "-nosuch", m)), "SyncHdr")[0], "407");
}

TEST_F(unknown_tenant_test, with_credentials_it_refuses_them_like_a_known_tenant_refuses_a_wrong_password) {
    auto m = alert_message("IMEI:1");
    m.header.cred->data = common::base64_encode("u1:wrong");
    expect_same_answer(m);
    sync_service service;
    EXPECT_EQ(status_codes(decoded(post_to(service, tenant_ + "-nosuch", m)), "SyncHdr")[0], "401");
}

TEST_F(unknown_tenant_test, writes_nothing) {
    sync_service service;
    const auto before = persistence::query_value(*db_, "SELECT count(*) FROM auth_failures");
    post_to(service, tenant_ + "-nosuch", alert_message("IMEI:1"));
    EXPECT_EQ(persistence::query_value(*db_, "SELECT count(*) FROM auth_failures"), before);
}

}  // namespace
}  // namespace syncml::session
