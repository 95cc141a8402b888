#include "session/service/sync_service.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "common/crypto/base64.hpp"
#include "persistence/accounts/accounts.hpp"
#include "session/protocol/auth.hpp"
#include "session/service/sync_service_test_support.hpp"

namespace syncml::session {
namespace {

using testing::has_retry_after;
using testing::sync_service_test;
using testing::with_session;

TEST_F(sync_service_test, two_instances_serve_alternate_messages_and_a_resend_applies_nothing_twice) {
    sync_service first, second;
    auto reply = decoded(post(first, alert_message("dev-a"), "/sync/" + tenant_));
    ASSERT_EQ(status_codes(reply, "SyncHdr"), std::vector<std::string>{"212"});
    ASSERT_TRUE(reply.header.resp_uri);
    auto path = reply.header.resp_uri->substr(reply.header.resp_uri->find("/sync"));

    // The next message goes to the other instance, through RespURI without credentials.
    auto package3 = sync_message("dev-a", 2);
    auto answer = post(second, package3, path);
    reply = decoded(answer);
    EXPECT_EQ(status_codes(reply, "Add"), (std::vector<std::string>{"201", "201"}));
    // A resend of the same MsgID gets the identical reply.
    auto again = post(first, package3, path);
    EXPECT_EQ(again.body, answer.body);
    auto map = blank("dev-a", "3");
    EXPECT_TRUE(decoded(post(first, map, path)).body.final);

    // A second device receives the two items exactly once.
    auto b = decoded(post(second, alert_message("dev-b"), "/sync/" + tenant_));
    ASSERT_EQ(status_codes(b, "SyncHdr"), std::vector<std::string>{"212"});
    auto b_changes = decoded(post(first, sync_message("dev-b", 0), resp_path(b)));
    EXPECT_EQ(server_adds(b_changes), 2u);

    // A client that reuses its SessionID for the next sync starts a fresh session (authenticates again).
    auto restart = decoded(post(second, alert_message("dev-a"), "/sync/" + tenant_));
    EXPECT_EQ(status_codes(restart, "SyncHdr"), std::vector<std::string>{"212"});
    EXPECT_EQ(status_codes(restart, "Alert"), std::vector<std::string>{"200"});
}

// A phone that asks for the server's DevInf in a session of its own, then starts its sync with the same SessionID
// and MsgID 1: only a message with the same body is a resend.
TEST_F(sync_service_test, a_different_message_1_with_the_sessions_id_starts_a_new_session_not_a_resend) {
    sync_service service;
    auto url = "/sync/" + tenant_;
    auto devinf_only = alert_message("dev-d");
    get g;
    g.cmd_id = "1";
    g.meta = meta_info{};
    g.meta->type = "application/vnd.syncml-devinf+xml";
    item it;
    it.target = location{"./devinf12", std::nullopt, std::nullopt};
    g.items.push_back(it);
    devinf_only.body.commands.front() = command{g};
    auto first = post(service, devinf_only, url);
    auto answer = decoded(first);
    ASSERT_EQ(status_codes(answer, "SyncHdr"), std::vector<std::string>{"212"});
    ASSERT_EQ(status_codes(answer, "Get"), std::vector<std::string>{"200"});

    // The same message again is a resend: the stored reply, byte for byte.
    EXPECT_EQ(post(service, devinf_only, url).body, first.body);

    auto sync_start = decoded(post(service, alert_message("dev-d"), url));
    EXPECT_EQ(status_codes(sync_start, "SyncHdr"), std::vector<std::string>{"212"});
    EXPECT_EQ(status_codes(sync_start, "Alert"), std::vector<std::string>{"200"});
    EXPECT_TRUE(status_codes(sync_start, "Get").empty());
    auto changes = post(service, sync_message("dev-d", 1), resp_path(sync_start));
    EXPECT_EQ(status_codes(decoded(changes), "Add"), std::vector<std::string>{"201"});
}

TEST_F(sync_service_test, our_devinf_offers_server_alerted_sync) {
    sync_service service;
    auto m = alert_message("dev-i");
    get g;
    g.cmd_id = "1";
    item it;
    it.target = location{"./devinf12", std::nullopt, std::nullopt};
    g.items.push_back(it);
    m.body.commands.front() = command{g};
    auto reply = decoded(post(service, m, "/sync/" + tenant_));
    std::size_t stores = 0;
    for (const auto& c : reply.body.commands) {
        const auto* r = std::get_if<results>(&c.value);
        if (!r || r->items.empty() || !r->items[0].data || !r->items[0].data->devinf) continue;
        for (const auto& ds : r->items[0].data->devinf->datastores) {
            ++stores;
            ASSERT_TRUE(ds.sync_cap) << ds.source_ref;
            EXPECT_EQ(std::count(ds.sync_cap->begin(), ds.sync_cap->end(), "7"), 1) << ds.source_ref;
            EXPECT_EQ(std::count(ds.sync_cap->begin(), ds.sync_cap->end(), "2"), 1) << ds.source_ref;
        }
    }
    EXPECT_GT(stores, 0u);
}

// A version we do not speak is 505 (DTD version not supported), also when the namespace names one we do.
TEST_F(sync_service_test, an_unknown_ver_dtd_is_answered_505) {
    sync_service service;
    for (const std::string& ns : {std::string(" xmlns=\"SYNCML:SYNCML1.2\""), std::string()}) {
        auto body = encode(alert_message("dev-v"), wire_encoding::xml);
        auto at = body.find("<VerDTD>1.2</VerDTD>");
        ASSERT_NE(at, std::string::npos);
        body.replace(at, 20, "<VerDTD>2.0</VerDTD>");
        auto root = body.find("<SyncML");
        body.replace(root, body.find('>', root) - root, "<SyncML" + ns);
        sync_request request;
        request.tenant = tenant_;
        request.url = "/sync/" + tenant_;
        request.body = body;
        auto reply = decoded(service.handle(request, *db_));
        EXPECT_EQ(status_codes(reply, "SyncHdr"), std::vector<std::string>{"505"}) << body;
    }
}

TEST_F(sync_service_test, rejects_a_forged_session_token_and_a_wrong_password) {
    sync_service service;
    auto m = alert_message("dev-c");
    m.header.cred->data = common::base64_encode("u1:wrong");
    auto reply = decoded(post(service, m, "/sync/" + tenant_));
    EXPECT_EQ(status_codes(reply, "SyncHdr"), std::vector<std::string>{"401"});
    // Without credentials and with a made-up token the session stays unauthenticated.
    auto next = sync_message("dev-c", 1);
    reply = decoded(post(service, next, "/sync/" + tenant_ + "?s=1-00000000000000000000000000000000"));
    EXPECT_EQ(status_codes(reply, "SyncHdr"), std::vector<std::string>{"407"});
}

TEST_F(sync_service_test, a_new_session_of_a_device_takes_over_and_the_old_one_gets_busy) {
    sync_service first, second;
    auto url = "/sync/" + tenant_;
    auto old_session = decoded(post(first, alert_message("dev-busy"), url));
    ASSERT_EQ(status_codes(old_session, "SyncHdr"), std::vector<std::string>{"212"});
    EXPECT_EQ(status_codes(decoded(post(first, sync_message("dev-busy", 1), resp_path(old_session))), "Add"),
              std::vector<std::string>{"201"});
    // The client restarts (killed, or gave up waiting) with a new SessionID: it is not blocked.
    auto new_session = decoded(post(second, with_session(alert_message("dev-busy"), "2", "1"), url));
    ASSERT_EQ(status_codes(new_session, "SyncHdr"), std::vector<std::string>{"212"});
    // The abandoned session's next message, on any instance, gets 101 and changes nothing.
    auto late = sync_message("dev-busy", 3);
    late.header.msg_id = "3";
    auto reply = decoded(post(second, late, resp_path(old_session)));
    EXPECT_EQ(status_codes(reply, "SyncHdr"), std::vector<std::string>{"101"});
    EXPECT_TRUE(status_codes(reply, "Add").empty());
    // The new session goes on, and another device is not affected.
    EXPECT_EQ(status_codes(decoded(post(first, with_session(blank("dev-busy", "2"), "2", "2"), resp_path(new_session))),
                           "SyncHdr"),
              std::vector<std::string>{"200"});
    EXPECT_EQ(status_codes(decoded(post(first, with_session(alert_message("dev-other"), "1", "1"), url)), "SyncHdr"),
              std::vector<std::string>{"212"});
    // A client restarting with its last SessionID (MsgID 1) starts over instead of being refused.
    EXPECT_EQ(status_codes(decoded(post(second, alert_message("dev-busy"), url)), "SyncHdr"),
              std::vector<std::string>{"212"});
}

// Issue 36: a phone whose SessionID counter wraps or restarts (many count from 1 again after a restart) starts a
// session with the SessionID of an earlier one whose row still exists. Its message 1 was answered, its message 2 got
// busy (101): the new session had been matched to the old row, and every session since counted as newer.
TEST_F(sync_service_test, a_session_that_reuses_an_earlier_sessions_id_is_a_new_session) {
    sync_service service;
    auto url = "/sync/" + tenant_;
    for (const auto* id : {"1", "2", "3", "1", "1"}) {
        auto started = decoded(post(service, with_session(alert_message("dev-wraps"), id, "1"), url));
        ASSERT_EQ(status_codes(started, "SyncHdr"), std::vector<std::string>{"212"}) << "SessionID " << id;
        auto next = decoded(post(service, with_session(sync_message("dev-wraps", 1), id, "2"), resp_path(started)));
        EXPECT_EQ(status_codes(next, "SyncHdr"), std::vector<std::string>{"200"}) << "SessionID " << id;
        EXPECT_EQ(status_codes(next, "Add").size(), 1u) << "SessionID " << id;
    }
}

TEST_F(sync_service_test, a_wrong_password_in_a_new_session_does_not_take_over) {
    sync_service service;
    auto url = "/sync/" + tenant_;
    auto started = decoded(post(service, alert_message("dev-keep"), url));
    ASSERT_EQ(status_codes(started, "SyncHdr")[0], "212");
    auto intruder = with_session(alert_message("dev-keep"), "2", "1");
    intruder.header.cred->data = common::base64_encode("u1:guess");
    EXPECT_EQ(status_codes(decoded(post(service, intruder, url)), "SyncHdr")[0], "401");
    EXPECT_EQ(status_codes(decoded(post(service, sync_message("dev-keep", 1), resp_path(started))), "Add"),
              std::vector<std::string>{"201"});
}

TEST_F(sync_service_test, wrong_passwords_block_the_user_for_the_window_and_a_success_resets_only_its_own_counts) {
    service_settings settings;
    settings.auth_throttle = {3, std::chrono::seconds(60)};
    sync_service service(settings);
    auto url = "/sync/" + tenant_;
    auto attempt = [&](const std::string& device, const std::string& password, const std::string& session,
                       const std::string& address) {
        auto m = with_session(alert_message(device), session, "1");
        m.header.cred->data = common::base64_encode("u1:" + password);
        return post(service, m, url, address);
    };
    const std::string home = "192.0.2.1", elsewhere = "203.0.113.5", new_place = "198.51.100.3";
    for (auto s : {"1", "2"}) EXPECT_EQ(status_codes(decoded(attempt("d1", "bad", s, home)), "SyncHdr")[0], "401");
    // A success resets the counts of its device and address: d1 may try again. The user's failures stay (issue 35:
    // the user's own client logging in must not give a guesser elsewhere a fresh allowance).
    EXPECT_EQ(status_codes(decoded(attempt("d2", "pw", "3", home)), "SyncHdr")[0], "212");
    EXPECT_EQ(status_codes(decoded(attempt("d1", "bad", "4", elsewhere)), "SyncHdr")[0], "401");

    // Three failures within the window block the user on devices it never logged in from, at addresses it never
    // logged in from: the right password is refused there now too. Its own device keeps working, and so does a new
    // device at an address the user logged in from.
    auto refused = attempt("d8", "pw", "8", new_place);
    EXPECT_EQ(status_codes(decoded(refused), "SyncHdr")[0], "401");
    EXPECT_TRUE(has_retry_after(refused));
    EXPECT_EQ(status_codes(decoded(attempt("d2", "pw", "9", new_place)), "SyncHdr")[0], "212");
    EXPECT_EQ(status_codes(decoded(attempt("d8", "pw", "10", home)), "SyncHdr")[0], "212");
    // Other users of the tenant are not affected.
    persistence::add_user(*db_, tenant_, "u2", "pw2");
    auto other = with_session(alert_message("d9"), "9", "1");
    other.header.cred->data = common::base64_encode("u2:pw2");
    EXPECT_EQ(status_codes(decoded(post(service, other, url, new_place)), "SyncHdr")[0], "212");
}

// Asks the database's throttle and notes what the service asked of it.
class noting_throttle final : public persistence::auth_throttle {
  public:
    noting_throttle(persistence::database& db, std::vector<std::string>& calls) : real_(db, {}), calls_(calls) {}
    void record_failure(std::int64_t tenant, const std::string& user, const std::string& device,
                        const std::string& address) override {
        calls_.push_back("failure " + user);
        real_.record_failure(tenant, user, device, address);
    }
    void remember_client(std::int64_t tenant, std::int64_t user_id, const std::string& address) override {
        calls_.push_back("remember");
        real_.remember_client(tenant, user_id, address);
    }
    void reset(std::int64_t tenant, const std::string& user, const std::string& device,
               const std::string& address) override {
        calls_.push_back("reset " + user);
        real_.reset(tenant, user, device, address);
    }
    persistence::credential_check check(std::int64_t tenant, const std::string& user, const std::string& device,
                                        const std::string& address) override {
        calls_.push_back("check " + user);
        return real_.check(tenant, user, device, address);
    }

  private:
    persistence::pg_auth_throttle real_;
    std::vector<std::string>& calls_;
};

// The service counts logins in the throttle its settings give it (the front end's wiring, or a test's).
TEST_F(sync_service_test, logins_are_counted_in_the_throttle_the_settings_give) {
    std::vector<std::string> calls;
    service_settings settings;
    settings.throttle = [&calls](persistence::database& db) { return std::make_unique<noting_throttle>(db, calls); };
    sync_service service(settings);
    auto url = "/sync/" + tenant_;
    auto wrong = with_session(alert_message("dev-noted"), "1", "1");
    wrong.header.cred->data = common::base64_encode("u1:guess");
    EXPECT_EQ(status_codes(decoded(post(service, wrong, url)), "SyncHdr")[0], "401");
    EXPECT_EQ(calls, (std::vector<std::string>{"check u1", "failure u1"}));
    calls.clear();
    EXPECT_EQ(
        status_codes(decoded(post(service, with_session(alert_message("dev-noted"), "2", "1"), url)), "SyncHdr")[0],
        "212");
    EXPECT_EQ(calls, (std::vector<std::string>{"check u1", "reset u1", "remember"}))
        << "the failure on record is forgotten, the address remembered";
}

TEST_F(sync_service_test, a_changed_password_takes_effect_at_once_despite_the_credential_cache) {
    sync_service service;
    auto url = "/sync/" + tenant_;
    ASSERT_EQ(status_codes(decoded(post(service, alert_message("dev-pw"), url)), "SyncHdr")[0], "212");
    ASSERT_EQ(status_codes(decoded(post(service, with_session(alert_message("dev-pw2"), "2", "1"), url)), "SyncHdr")[0],
              "212");
    persistence::set_password(*db_, tenant_, "u1", "new-pw");
    EXPECT_EQ(status_codes(decoded(post(service, with_session(alert_message("dev-pw3"), "3", "1"), url)), "SyncHdr")[0],
              "401");
}

TEST(session_token, verifies_only_tokens_signed_with_the_secret) {
    auto token = make_session_token({7, 42}, "secret");
    EXPECT_EQ(token.substr(0, 5), "7.42-");
    EXPECT_EQ(parse_session_token(token, "secret"), (session_token{7, 42}));
    EXPECT_FALSE(parse_session_token(token, "other"));
    EXPECT_FALSE(parse_session_token("7.43" + token.substr(4), "secret")) << "another session";
    EXPECT_FALSE(parse_session_token("8.42" + token.substr(4), "secret")) << "another user";
    EXPECT_FALSE(parse_session_token("42" + token.substr(4), "secret")) << "the format before user keys";
    EXPECT_FALSE(parse_session_token("garbage", "secret"));
    EXPECT_FALSE(parse_session_token("1.-x", "secret"));
}

}  // namespace
}  // namespace syncml::session
