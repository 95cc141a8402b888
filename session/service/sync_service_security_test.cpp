// Issue 15: who may continue a session, and what a message that never authenticated may change (nothing).
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "common/crypto/base64.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/accounts/secret_key.hpp"
#include "persistence/pg/test_query.hpp"
#include "session/protocol/auth.hpp"
#include "session/service/sync_service.hpp"
#include "session/service/sync_service_test_support.hpp"

namespace syncml::session {
namespace {

using testing::with_session;

constexpr const char* k_phone_address = "192.0.2.1";
constexpr const char* k_attacker_address = "203.0.113.66";

class session_security_test : public testing::sync_service_test {
  protected:
    std::string url() const { return "/sync/" + tenant_; }

    // The phone authenticates (MsgID 1) and sends two contacts without Cred, ignoring RespURI (MsgID 2).
    void phone_syncs_two_contacts(sync_service& service, const std::string& device) {
        ASSERT_EQ(status_codes(decoded(post(service, alert_message(device), url())), "SyncHdr")[0], "212");
        last_reply_ = post(service, sync_message(device, 2), url());
        ASSERT_EQ(status_codes(decoded(last_reply_), "Add"), (std::vector<std::string>{"201", "201"}));
    }

    std::int64_t count(const std::string& query) { return std::stoll(persistence::query_value(*db_, query)); }

    std::int64_t rows_of_tenant(const std::string& table) {
        return count("SELECT count(*) FROM " + table +
                     " WHERE tenant_id = (SELECT tenant_id FROM tenants WHERE name = '" + tenant_ + "')");
    }

    std::int64_t live_items() {
        return count("SELECT count(*) FROM items i JOIN tenants t USING (tenant_id) WHERE t.name = '" + tenant_ +
                     "' AND NOT i.deleted");
    }

    sync_response last_reply_;
};

message without_cred(message m) {
    m.header.cred.reset();
    return m;
}

TEST_F(session_security_test, a_stranger_who_knows_device_id_and_session_id_can_neither_read_nor_change_the_session) {
    allow_address_continuation();
    sync_service service;
    phone_syncs_two_contacts(service, "IMEI:1");
    const auto items = live_items();

    // Read: a resend of the phone's last message does not return the stored reply.
    auto read = post(service, sync_message("IMEI:1", 2), url(), k_attacker_address);
    EXPECT_NE(read.body, last_reply_.body);
    EXPECT_EQ(status_codes(decoded(read), "SyncHdr")[0], "407");

    // Inject: a Sync with an Add changes nothing.
    auto inject = sync_message("IMEI:1", 1);
    inject.header.msg_id = "3";
    EXPECT_EQ(status_codes(decoded(post(service, inject, url(), k_attacker_address)), "SyncHdr")[0], "407");
    EXPECT_EQ(live_items(), items);

    // Wipe: Alert 203 (refresh from client) in a message of its own.
    auto wipe = without_cred(alert_message("IMEI:1"));
    wipe.header.msg_id = "4";
    std::get<alert>(wipe.body.commands[0].value).data = "203";
    EXPECT_EQ(status_codes(decoded(post(service, wipe, url(), k_attacker_address)), "SyncHdr")[0], "407");

    // Kill: MsgID 1 with the same SessionID, without credentials, even from the phone's own address.
    auto kill = without_cred(alert_message("IMEI:1"));
    EXPECT_EQ(status_codes(decoded(post(service, kill, url(), k_phone_address)), "SyncHdr")[0], "407");

    // The phone's session goes on from its address: its Map completes the session.
    auto map = blank("IMEI:1", "3");
    auto done = decoded(post(service, map, url()));
    EXPECT_EQ(status_codes(done, "SyncHdr")[0], "200");
    EXPECT_EQ(live_items(), items);
}

// Issue 35: behind a carrier's or an office's NAT everyone shares the phone's public address. By default a message
// from there with the phone's device id and live SessionID, without token or credentials, continues nothing.
TEST_F(session_security_test, by_default_the_phones_own_address_without_token_or_credentials_continues_nothing) {
    sync_service service;
    auto reply = decoded(post(service, alert_message("IMEI:nat"), url()));
    ASSERT_EQ(status_codes(reply, "SyncHdr")[0], "212");
    EXPECT_EQ(status_codes(decoded(post(service, sync_message("IMEI:nat", 1), url(), k_phone_address)), "SyncHdr")[0],
              "407");
    EXPECT_EQ(live_items(), 0);
    // The phone follows the RespURI and goes on.
    EXPECT_EQ(status_codes(decoded(post(service, sync_message("IMEI:nat", 1), resp_path(reply))), "Add"),
              std::vector<std::string>{"201"});
}

// With the tenant's opt-in a message from the phone's address continues its session, but the stored reply of a resend
// (the user's items) goes only to the token or the credentials; the device shows that it continues by address.
TEST_F(session_security_test, with_address_continuation_a_resend_gets_a_challenge_not_the_stored_reply) {
    allow_address_continuation();
    sync_service service;
    phone_syncs_two_contacts(service, "IMEI:resend");
    auto again = post(service, sync_message("IMEI:resend", 2), url());
    EXPECT_NE(again.body, last_reply_.body);
    EXPECT_EQ(status_codes(decoded(again), "SyncHdr")[0], "407");
    EXPECT_EQ(live_items(), 2);
    auto with_cred = sync_message("IMEI:resend", 2);
    with_cred.header.cred = alert_message("IMEI:resend").header.cred;
    EXPECT_EQ(post(service, with_cred, url()).body, last_reply_.body);
    EXPECT_EQ(count("SELECT count(*) FROM devices d JOIN tenants t USING (tenant_id) WHERE t.name = '" + tenant_ +
                    "' AND d.device_uri = 'IMEI:resend' AND d.address_continued_at IS NOT NULL"),
              1);
}

// Issue 35: guessed SessionIDs and password guesses cost the client's address; once it spent its budget its
// credentials are not even checked (503, Retry-After), while another address logs in as before.
TEST_F(session_security_test, an_address_that_guessed_sessions_and_passwords_is_refused_before_any_check) {
    auth::login_guard guard({.budget = {.per_second = 0.001, .burst = 4, .max_clients = 100}, .hashes = {}});
    service_settings settings;
    settings.guard = &guard;
    sync_service service(settings);
    for (int guess = 0; guess < 3; ++guess) {
        auto m = with_session(sync_message("IMEI:victim", 1), std::to_string(100 + guess), "2");
        EXPECT_EQ(status_codes(decoded(post(service, m, url(), k_attacker_address)), "SyncHdr")[0], "407");
    }
    auto wrong = alert_message("IMEI:guesser");
    wrong.header.cred->data = common::base64_encode("u1:guess");
    EXPECT_EQ(status_codes(decoded(post(service, wrong, url(), k_attacker_address)), "SyncHdr")[0], "401");
    const auto refused = post(service, alert_message("IMEI:guesser"), url(), k_attacker_address);
    EXPECT_EQ(refused.http_status, 503) << "even the right password is not checked now";
    EXPECT_TRUE(std::any_of(refused.headers.begin(), refused.headers.end(),
                            [](const auto& h) { return h.first == "Retry-After"; }));
    EXPECT_EQ(count("SELECT coalesce(sum(failures), 0) FROM auth_failures WHERE scope = 'user' AND subject = 'u1' AND "
                    "tenant_id = (SELECT tenant_id FROM tenants WHERE name = '" +
                    tenant_ + "')"),
              1)
        << "a refusal counts nothing against the user";
    EXPECT_EQ(status_codes(decoded(post(service, alert_message("IMEI:phone"), url(), k_phone_address)), "SyncHdr")[0],
              "212");
}

TEST_F(session_security_test, with_token_binding_only_the_resp_uri_token_continues_a_session_without_credentials) {
    change_tenant([](persistence::tenant_settings& s) { s.binding = persistence::session_binding::token; });
    sync_service service;
    auto reply = decoded(post(service, alert_message("IMEI:2"), url()));
    ASSERT_EQ(status_codes(reply, "SyncHdr")[0], "212");
    ASSERT_TRUE(reply.header.resp_uri);
    EXPECT_EQ(status_codes(decoded(post(service, sync_message("IMEI:2", 1), url())), "SyncHdr")[0], "407");
    auto path = reply.header.resp_uri->substr(reply.header.resp_uri->find("/sync"));
    // The token works from anywhere (a phone moving between networks).
    EXPECT_EQ(status_codes(decoded(post(service, sync_message("IMEI:2", 1), path, k_attacker_address)), "Add"),
              std::vector<std::string>{"201"});
}

// A session of one's own must not make another user's password guessable: a continuing message whose Cred names
// another user with a wrong password counts as that user's failed login (before, it went on in the session with
// nothing counted, and reset that user's failures).
TEST_F(session_security_test, wrong_credentials_of_another_user_in_a_continued_session_count_as_failed_logins) {
    persistence::add_user(*db_, tenant_, "u2", "pw2");
    sync_service service;
    auto reply = decoded(post(service, alert_message("IMEI:guess"), url()));
    ASSERT_EQ(status_codes(reply, "SyncHdr")[0], "212");
    ASSERT_TRUE(reply.header.resp_uri);
    auto path = reply.header.resp_uri->substr(reply.header.resp_uri->find("/sync"));
    const auto failures_of_u2 = [&] {
        return count(
            "SELECT coalesce(sum(failures), 0) FROM auth_failures WHERE scope = 'user' AND subject = 'u2' AND "
            "tenant_id = (SELECT tenant_id FROM tenants WHERE name = '" +
            tenant_ + "')");
    };
    for (int guess = 1; guess <= 3; ++guess) {
        auto m = sync_message("IMEI:guess", 1);
        m.header.msg_id = std::to_string(guess + 1);
        m.header.cred = alert_message("IMEI:guess").header.cred;
        m.header.cred->data = common::base64_encode("u2:guess" + std::to_string(guess));
        post(service, m, path);
        EXPECT_EQ(failures_of_u2(), guess) << "guess " << guess;
    }
}

// A wrong password in one's own continued session counts as nothing (an md5 phone's digest over an old nonce looks
// the same), and it must not clear the failures on record either: else guesses elsewhere could be wiped after each.
TEST_F(session_security_test, a_wrong_password_in_ones_own_continued_session_does_not_clear_failed_logins) {
    sync_service service;
    auto reply = decoded(post(service, alert_message("IMEI:own"), url()));
    ASSERT_EQ(status_codes(reply, "SyncHdr")[0], "212");
    ASSERT_TRUE(reply.header.resp_uri);
    auto path = reply.header.resp_uri->substr(reply.header.resp_uri->find("/sync"));
    auto wrong = alert_message("IMEI:elsewhere");
    wrong.header.cred->data = common::base64_encode("u1:guess");
    post(service, wrong, url());
    const auto failures_of_u1 = [&] {
        return count(
            "SELECT coalesce(sum(failures), 0) FROM auth_failures WHERE scope = 'user' AND subject = 'u1' AND "
            "tenant_id = (SELECT tenant_id FROM tenants WHERE name = '" +
            tenant_ + "')");
    };
    ASSERT_EQ(failures_of_u1(), 1);
    auto m = sync_message("IMEI:own", 2);
    m.header.msg_id = "2";
    m.header.cred = alert_message("IMEI:own").header.cred;
    m.header.cred->data = common::base64_encode("u1:another-guess");
    post(service, m, path);
    EXPECT_GE(failures_of_u1(), 1);
}

TEST_F(session_security_test, another_users_session_on_the_same_device_id_is_separate) {
    allow_address_continuation();
    persistence::add_user(*db_, tenant_, "u2", "pw2");
    sync_service service;
    phone_syncs_two_contacts(service, "IMEI:3");
    // u2 authenticates with the same device id and SessionID behind the phone's address: a session of its own, no
    // takeover, no stored reply.
    auto other = alert_message("IMEI:3");
    other.header.cred->data = common::base64_encode("u2:pw2");
    auto reply = post(service, other, url());
    EXPECT_EQ(status_codes(decoded(reply), "SyncHdr")[0], "212");
    EXPECT_NE(reply.body, last_reply_.body);
    // u1's message without token or credentials could now be either user's phone: a challenge (migration 0027). With
    // its credentials u1's session, not superseded, finishes.
    EXPECT_EQ(status_codes(decoded(post(service, blank("IMEI:3", "3"), url())), "SyncHdr")[0], "407");
    auto with_cred = blank("IMEI:3", "3");
    with_cred.header.cred = alert_message("IMEI:3").header.cred;
    EXPECT_EQ(status_codes(decoded(post(service, with_cred, url())), "SyncHdr")[0], "200");
}

// Issue 35: a co-user who replayed the phone's device id and SessionID with his own credentials from anywhere made
// the phone's next message without token or credentials get a challenge. Only sessions at its address count now.
TEST_F(session_security_test, another_users_session_of_the_device_id_elsewhere_leaves_its_continuation_alone) {
    allow_address_continuation();
    persistence::add_user(*db_, tenant_, "u2", "pw2");
    sync_service service;
    phone_syncs_two_contacts(service, "IMEI:11");
    auto other = alert_message("IMEI:11");
    other.header.cred->data = common::base64_encode("u2:pw2");
    ASSERT_EQ(status_codes(decoded(post(service, other, url(), k_attacker_address)), "SyncHdr")[0], "212");
    EXPECT_EQ(status_codes(decoded(post(service, blank("IMEI:11", "3"), url())), "SyncHdr")[0], "200");
}

// A phone whose credentials fail (a stale password, or its user blocked by failures from its address) is no less
// that user's phone: it may not go on by address in another user's session of its device id and SessionID, which
// the search without credentials would have found (u1 has no session of its own there).
TEST_F(session_security_test, a_message_whose_credentials_fail_goes_on_in_no_other_users_session) {
    persistence::add_user(*db_, tenant_, "u2", "pw2");
    sync_service service;
    auto other = alert_message("IMEI:9");
    other.header.cred->data = common::base64_encode("u2:pw2");
    ASSERT_EQ(status_codes(decoded(post(service, other, url())), "SyncHdr")[0], "212");
    auto stale = sync_message("IMEI:9", 2);
    stale.header.msg_id = "2";
    stale.header.cred = alert_message("IMEI:9").header.cred;
    stale.header.cred->data = common::base64_encode("u1:stale-password");
    EXPECT_NE(status_codes(decoded(post(service, stale, url())), "SyncHdr")[0], "200");
    EXPECT_EQ(live_items(), 0);
    // Naming an unknown user, neither.
    stale.header.cred->data = common::base64_encode("nobody:pw");
    EXPECT_NE(status_codes(decoded(post(service, stale, url())), "SyncHdr")[0], "200");
    EXPECT_EQ(live_items(), 0);
}

// Credentials that name nobody (md5 without LocName: the digest carries no name) count as none: a phone that repeats
// such a Cred in its session's later messages goes on by its address as before.
TEST_F(session_security_test, credentials_that_name_nobody_leave_address_binding_as_it_is) {
    allow_address_continuation();
    sync_service service;
    ASSERT_EQ(status_codes(decoded(post(service, alert_message("IMEI:10"), url())), "SyncHdr")[0], "212");
    auto next = sync_message("IMEI:10", 2);
    next.header.msg_id = "2";
    next.header.source.loc_name.reset();
    next.header.cred = credentials{meta_info{}, "c3RhbGUtZGlnZXN0"};
    next.header.cred->meta->type = "syncml:auth-md5";
    ASSERT_FALSE(credential_user(next.header));
    EXPECT_EQ(status_codes(decoded(post(service, next, url())), "Add"), (std::vector<std::string>{"201", "201"}));
    EXPECT_EQ(live_items(), 2);
}

TEST_F(session_security_test, a_changed_password_ends_address_bound_sessions) {
    allow_address_continuation();
    sync_service service;
    ASSERT_EQ(status_codes(decoded(post(service, alert_message("IMEI:4"), url())), "SyncHdr")[0], "212");
    persistence::set_password(*db_, tenant_, "u1", "new-pw");
    EXPECT_EQ(status_codes(decoded(post(service, sync_message("IMEI:4", 1), url())), "SyncHdr")[0], "407");
}

TEST_F(session_security_test, messages_that_never_authenticate_write_nothing) {
    allow_address_continuation();
    sync_service service;
    phone_syncs_two_contacts(service, "IMEI:5");
    const auto sessions = rows_of_tenant("sessions");
    const auto devices = rows_of_tenant("devices");
    for (int i = 0; i < 5; ++i) {
        auto anonymous = without_cred(alert_message("scanner-" + std::to_string(i)));
        EXPECT_EQ(status_codes(decoded(post(service, anonymous, url(), k_attacker_address)), "SyncHdr")[0], "407");
        auto wrong = alert_message("guesser-" + std::to_string(i));
        wrong.header.cred->data = common::base64_encode("u1:guess");
        EXPECT_EQ(status_codes(decoded(post(service, wrong, url(), k_attacker_address)), "SyncHdr")[0], "401");
    }
    EXPECT_EQ(rows_of_tenant("sessions"), sessions);
    EXPECT_EQ(rows_of_tenant("devices"), devices);
}

// md5: a device without a stored nonce answers the challenge's (stateless) nonce; a stranger's failed md5 login
// for that user and device leaves the stored nonce alone, so the real phone's next login still works.
TEST_F(session_security_test, md5_logins_work_and_failed_ones_never_rotate_the_devices_nonce) {
    service_settings settings;
    settings.auth_throttle.md5_key = persistence::secret_key::generate();
    persistence::add_user(*db_, tenant_, "m1", "pw", &*settings.auth_throttle.md5_key);
    sync_service service(settings);
    auto md5_message = [&](const std::string& session, const std::string& digest) {
        auto m = with_session(alert_message("IMEI:6"), session, "1");
        m.header.source.loc_name = "m1";
        m.header.cred = credentials{meta_info{}, digest};
        m.header.cred->meta->type = "syncml:auth-md5";
        return m;
    };
    const auto secret = persistence::md5_secret_of("m1", "pw");
    auto first = decoded(post(service, md5_message("1", "bogus"), url()));
    ASSERT_EQ(status_codes(first, "SyncHdr")[0], "401");
    auto chal = std::get<status>(first.body.commands[0].value).chal;
    ASSERT_TRUE(chal && chal->meta && chal->meta->next_nonce);
    auto nonce = common::base64_decode(*chal->meta->next_nonce).value();
    auto ok = decoded(post(service, md5_message("2", md5_digest(secret, nonce)), url()));
    ASSERT_EQ(status_codes(ok, "SyncHdr")[0], "212");
    EXPECT_EQ(count("SELECT count(*) FROM auth_failures WHERE scope = 'user_address' AND subject LIKE 'm1 %' AND "
                    "tenant_id = "
                    "(SELECT tenant_id FROM tenants WHERE name = '" +
                    tenant_ + "')"),
              0)
        << "a successful md5 login clears the failures at its address and counts none";
    auto next = common::base64_decode(*std::get<status>(ok.body.commands[0].value).chal->meta->next_nonce).value();
    EXPECT_NE(next, nonce);

    // A stranger fails with the user's name and the phone's id: the answer announces the stored nonce, unchanged.
    auto stranger = decoded(post(service, md5_message("3", "bogus"), url(), k_attacker_address));
    ASSERT_EQ(status_codes(stranger, "SyncHdr")[0], "401");
    EXPECT_EQ(common::base64_decode(*std::get<status>(stranger.body.commands[0].value).chal->meta->next_nonce).value(),
              next);
    auto again = decoded(post(service, md5_message("4", md5_digest(secret, next)), url()));
    EXPECT_EQ(status_codes(again, "SyncHdr")[0], "212");
}

// Issue 35: an admin's change reaches the sync path at once (within a second), not after the tenant cache's TTL.
TEST_F(session_security_test, a_tenant_setting_changed_by_an_admin_takes_effect_at_once) {
    sync_service service;  // the default tenant cache of 60 s
    ASSERT_EQ(status_codes(decoded(post(service, alert_message("IMEI:admin1"), url())), "SyncHdr")[0], "212");
    change_tenant([](persistence::tenant_settings& s) { s.auth_basic = false; });
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    EXPECT_EQ(status_codes(decoded(post(service, alert_message("IMEI:admin2"), url())), "SyncHdr")[0], "401");
}

TEST_F(session_security_test, a_tenant_without_basic_auth_refuses_it_and_challenges_md5) {
    change_tenant([](persistence::tenant_settings& s) { s.auth_basic = false; });
    sync_service service;
    auto reply = decoded(post(service, alert_message("IMEI:7"), url()));
    ASSERT_EQ(status_codes(reply, "SyncHdr")[0], "401");
    auto chal = std::get<status>(reply.body.commands[0].value).chal;
    ASSERT_TRUE(chal && chal->meta && chal->meta->type);
    EXPECT_EQ(*chal->meta->type, "syncml:auth-md5");
}

TEST_F(session_security_test, a_user_at_the_device_maximum_cannot_add_another_device) {
    change_tenant([](persistence::tenant_settings& s) { s.max_devices_per_user = 1; });
    sync_service service;
    ASSERT_EQ(status_codes(decoded(post(service, alert_message("IMEI:8"), url())), "SyncHdr")[0], "212");
    EXPECT_EQ(status_codes(decoded(post(service, alert_message("IMEI:9"), url())), "SyncHdr")[0], "403");
    EXPECT_EQ(
        status_codes(decoded(post(service, with_session(alert_message("IMEI:8"), "2", "1"), url())), "SyncHdr")[0],
        "212");
}

// Issue 35: a session that starts ends the device's older ones, so one user restarting a device in a loop cannot fill
// the tenant's live sessions (before: 101 first messages, then 503 for every other user for ten minutes).
TEST_F(session_security_test, one_user_restarting_a_device_does_not_fill_the_tenants_sessions) {
    change_tenant([](persistence::tenant_settings& s) { s.max_sessions = 2; });
    sync_service service;
    for (int i = 1; i <= 5; ++i) {
        auto restart = with_session(alert_message("IMEI:loop"), std::to_string(i), "1");
        EXPECT_EQ(status_codes(decoded(post(service, restart, url())), "SyncHdr")[0], "212") << "session " << i;
    }
    persistence::add_user(*db_, tenant_, "u2", "pw2");
    auto other = alert_message("IMEI:other");
    other.header.cred->data = common::base64_encode("u2:pw2");
    EXPECT_EQ(status_codes(decoded(post(service, other, url())), "SyncHdr")[0], "212");
}

TEST_F(session_security_test, a_session_beyond_the_tenants_maximum_is_told_to_come_back_later_and_leaves_no_row) {
    change_tenant([](persistence::tenant_settings& s) { s.max_sessions = 1; });
    sync_service service;
    auto started = decoded(post(service, alert_message("IMEI:10"), url()));
    ASSERT_EQ(status_codes(started, "SyncHdr")[0], "212");
    const auto sessions = rows_of_tenant("sessions");
    auto refused = post(service, alert_message("IMEI:11"), url());
    EXPECT_EQ(refused.http_status, 503);
    EXPECT_TRUE(std::any_of(refused.headers.begin(), refused.headers.end(),
                            [](const auto& h) { return h.first == "Retry-After"; }));
    EXPECT_EQ(rows_of_tenant("sessions"), sessions);
    // The live session goes on.
    EXPECT_EQ(status_codes(decoded(post(service, sync_message("IMEI:10", 2), resp_path(started))), "Add"),
              (std::vector<std::string>{"201", "201"}));
}

}  // namespace
}  // namespace syncml::session
