// The admission rule: which ways a message may take to a session, by what it carries.
#include "session/service/admission.hpp"

#include <gtest/gtest.h>

#include "common/crypto/base64.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::session {
namespace {

constexpr std::int64_t k_alice = 11;
constexpr std::int64_t k_bob = 12;

account_info account_of(std::int64_t user, bool password_ok) {
    account_info account;
    account.user_id = user;
    account.password_ok = password_ok;
    return account;
}

sync_hdr header_without_cred() {
    sync_hdr h;
    h.session_id = "7";
    h.msg_id = "2";
    h.source.loc_uri = "IMEI:1";
    return h;
}

sync_hdr header_with_basic(const std::string& user) {
    auto h = header_without_cred();
    h.cred = credentials{meta_info{}, common::base64_encode(user + ":pw")};
    h.cred->meta->type = "syncml:auth-basic";
    return h;
}

// md5 without LocName: credentials that name nobody.
sync_hdr header_with_anonymous_md5() {
    auto h = header_without_cred();
    h.cred = credentials{meta_info{}, "ZGlnZXN0"};
    h.cred->meta->type = "syncml:auth-md5";
    return h;
}

persistence::credential_check check_naming(std::int64_t user) {
    persistence::credential_check check;
    if (user != 0) {
        check.account.emplace();
        check.account->user_id = user;
    }
    return check;
}

struct admission_case {
    sync_hdr header = header_without_cred();
    std::optional<session_token> token;
    std::optional<account_info> account;
    persistence::credential_check check;
    persistence::session_binding binding = persistence::session_binding::token_or_address;
    std::int64_t routed = 0;  // what the session starts say (distributed schema)
    int route_lookups = 0;

    admission decide() {
        return admit({.header = header,
                      .token = token,
                      .account = account,
                      .check = check,
                      .binding = binding,
                      .route_of = [this] {
                          ++route_lookups;
                          return routed;
                      }});
    }
};

TEST(admission, a_valid_token_names_its_session_and_needs_no_route) {
    admission_case c;
    c.token = session_token{k_alice, 42};
    c.routed = k_bob;
    EXPECT_EQ(c.decide(), (admission{.token = session_token{k_alice, 42}, .by_address = true}));
    EXPECT_EQ(c.route_lookups, 0);
}

// Alice's basic credentials, with her password or a wrong one; the session starts would name Bob.
admission_case alices_credentials(bool password_ok) {
    admission_case c;
    c.header = header_with_basic("alice");
    c.account = account_of(k_alice, password_ok);
    c.check = check_naming(k_alice);
    c.routed = k_bob;
    return c;
}

TEST(admission, verified_credentials_open_their_users_session_and_need_no_route) {
    auto c = alices_credentials(true);
    EXPECT_EQ(c.decide(), (admission{.verified_user = k_alice, .by_address = true}));
    EXPECT_EQ(c.route_lookups, 0);
}

TEST(admission, wrong_credentials_naming_a_user_reach_only_that_users_sessions) {
    auto c = alices_credentials(false);
    EXPECT_EQ(c.decide(), (admission{.by_address = true, .route_user = k_alice}));
    EXPECT_EQ(c.route_lookups, 0) << "the credentials say whose shard, not the session starts";
}

TEST(admission, credentials_naming_an_unknown_user_continue_no_session_by_address) {
    admission_case c;
    c.header = header_with_basic("mallory");
    c.account = account_info{};
    EXPECT_EQ(c.decide(), admission{});
    EXPECT_EQ(c.route_lookups, 0);
}

TEST(admission, credentials_naming_nobody_count_as_none) {
    admission_case c;
    c.header = header_with_anonymous_md5();
    EXPECT_EQ(c.decide(), (admission{.by_address = true}));
    EXPECT_EQ(c.route_lookups, 1);
}

TEST(admission, a_message_without_credentials_may_continue_by_address_unless_the_tenant_binds_to_the_token) {
    admission_case c;
    EXPECT_EQ(c.decide(), (admission{.by_address = true}));
    c.binding = persistence::session_binding::token;
    EXPECT_EQ(c.decide(), admission{});
}

TEST(admission, on_a_distributed_schema_the_session_starts_route_a_message_without_credentials) {
    admission_case c;
    c.routed = k_bob;
    EXPECT_EQ(c.decide(), (admission{.by_address = true, .route_user = k_bob}));
    EXPECT_EQ(c.route_lookups, 1);
}

TEST(admission, becomes_the_session_functions_arguments) {
    const admission admitted{.token = session_token{k_alice, 42}, .by_address = true, .route_user = k_bob};
    const admission_limits limits{.address_idle = std::chrono::seconds(300),
                                  .max_age = std::chrono::seconds(3600),
                                  .max_devices = 3,
                                  .max_sessions = 9};
    auto m = message_session_of(admitted, header_without_cred(), "192.0.2.1", limits);
    EXPECT_EQ(m.device_uri, "IMEI:1");
    EXPECT_EQ(m.session_id, "7");
    EXPECT_EQ(m.msg_id, "2");
    EXPECT_EQ(m.key, 42);
    EXPECT_EQ(m.key_user, k_alice);
    EXPECT_EQ(m.route_user, k_bob);
    EXPECT_EQ(m.user, 0);
    EXPECT_EQ(m.address, "192.0.2.1");
    EXPECT_EQ(m.address_idle, std::chrono::seconds(300));
    EXPECT_EQ(m.max_age, std::chrono::seconds(3600));
    EXPECT_EQ(m.max_devices, 3);
    EXPECT_EQ(m.max_sessions, 9);
    EXPECT_EQ(message_session_of(admission{}, header_without_cred(), "192.0.2.1", limits).address_idle,
              std::chrono::seconds(0))
        << "no address continuation: no idle window";
}

}  // namespace
}  // namespace syncml::session
