#include "persistence/sync/detail/sync_store_session.hpp"

#include <gtest/gtest.h>

#include <future>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/sync/sync_store_session_fixture.hpp"

namespace syncml::persistence {
namespace {

using namespace std::chrono_literals;

TEST_F(sync_store_session_test, a_newer_authenticated_session_of_the_device_supersedes_an_older_one) {
    add_session("1", true, 30s);
    EXPECT_FALSE(superseded("1"));
    add_session("2", true, 5s);
    EXPECT_TRUE(superseded("1"));
    EXPECT_FALSE(superseded("2"));
    // The row opened (not only locked) tells the same.
    tx([&](sync_store& s) { EXPECT_TRUE(s.open_session(tenant_, "phone", "1").superseded); });
    // Other devices are separate.
    add_session("3", true, 40s);
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec("UPDATE sessions SET device_uri = 'tablet' WHERE syncml_session_id = '3'");
    });
    tx([&](sync_store& s) { EXPECT_FALSE(s.lock_session(tenant_, "tablet", "3")->superseded); });
}

// A session is its user's: another user's newer session on the same device (each user's rows live on the shard of
// the user) leaves it alone, as does a resume pointer.
TEST_F(sync_store_session_test, another_users_newer_session_or_a_resume_pointer_supersedes_nothing) {
    add_session("1", true, 30s);
    add_session("2", false, 5s);
    EXPECT_FALSE(superseded("1"));
    tx([&](sync_store& s) { s.set_resume_pointer(tenant_, "phone", "resume:1", "1"); });
    EXPECT_FALSE(superseded("1"));
}

TEST_F(sync_store_session_test, open_message_session_creates_keeps_a_live_row_and_restarts_an_expired_one) {
    session_record first;
    tx([&](sync_store& s) {
        first = s.open_message_session(tenant_, message_of("7", "1", user_)).value();
        EXPECT_GT(first.id, 0);
        EXPECT_TRUE(first.last_msg_id.empty());
        auto device = first.device;
        EXPECT_GT(device.id, 0);
        s.set_device_devinf(tenant_, device.id, "<DevInf/>");
        first.user_id = user_;
        first.state = "state-1";
        first.last_msg_id = "1";
        first.last_reply = "reply-1";
        first.last_request_digest = std::string("\0digest\xff", 8);
        first.device = device;
        s.save_session(tenant_, first);
    });
    // The next message finds the row with its device (no lookup of its own) and its stored reply.
    tx([&](sync_store& s) {
        auto again = s.open_message_session(tenant_, message_of("7", "2", user_)).value();
        EXPECT_EQ(again.id, first.id);
        EXPECT_EQ(again.state, "state-1");
        EXPECT_EQ(again.last_reply, "reply-1");
        EXPECT_EQ(again.last_request_digest, std::string("\0digest\xff", 8));
        EXPECT_EQ(again.device.id, first.device.id);
        EXPECT_EQ(again.device_user_id, user_);
        EXPECT_EQ(again.device.devinf, "<DevInf/>");
        auto by_key = s.lock_session_by_key(tenant_, first.id);
        ASSERT_TRUE(by_key);
        EXPECT_EQ(by_key->device.id, first.device.id);
        EXPECT_EQ(by_key->last_request_digest, again.last_request_digest);
        again.finished = true;
        s.save_session(tenant_, again);
    });
    EXPECT_EQ(sql_value("SELECT finished_at IS NOT NULL FROM sessions WHERE syncml_session_id = '7'"), "t");
    in_transaction(*db_,
                   [&](pqxx::work& t) { t.exec("UPDATE sessions SET expires_at = now() - interval '1 second'"); });
    tx([&](sync_store& s) {
        EXPECT_FALSE(s.lock_session(tenant_, "phone", "7"));
        auto fresh = s.open_message_session(tenant_, message_of("7", "2", user_)).value();
        EXPECT_EQ(fresh.id, first.id);
        EXPECT_TRUE(fresh.state.empty());
        EXPECT_TRUE(fresh.last_msg_id.empty());
        EXPECT_TRUE(fresh.last_request_digest.empty());
        EXPECT_EQ(fresh.user_id, user_);
        EXPECT_EQ(fresh.device.id, first.device.id);
    });
    EXPECT_EQ(sql_value("SELECT finished_at IS NULL AND expires_at > now() FROM sessions"), "t");
}

TEST_F(sync_store_session_test, saving_extends_the_expiry_only_when_it_is_five_minutes_old) {
    std::int64_t key = 0;
    tx([&](sync_store& s) { key = s.open_session(tenant_, "phone", "9").id; });
    auto save = [&] {
        tx([&](sync_store& s) {
            auto rec = s.lock_session_by_key(tenant_, key);
            ASSERT_TRUE(rec);
            s.save_session(tenant_, *rec);
        });
    };
    const std::string minutes_left = "SELECT round(extract(epoch FROM expires_at - now()) / 60) FROM sessions";
    in_transaction(*db_,
                   [&](pqxx::work& t) { t.exec("UPDATE sessions SET expires_at = now() + interval '27 minutes'"); });
    save();
    EXPECT_EQ(sql_value(minutes_left), "27");
    in_transaction(*db_,
                   [&](pqxx::work& t) { t.exec("UPDATE sessions SET expires_at = now() + interval '24 minutes'"); });
    save();
    EXPECT_EQ(sql_value(minutes_left), "30");
}

TEST_F(sync_store_session_test, the_device_lock_excludes_other_transactions_until_commit) {
    database other(url());
    std::promise<void> locked;
    std::promise<void> release;
    auto holder = std::async(std::launch::async, [&] {
        database db(url());
        return run_sync_transaction(db, [&](sync_store& s) {
            s.lock_device(tenant_, "phone");
            locked.set_value();
            release.get_future().wait();
        });
    });
    locked.get_future().wait();
    auto waiter = std::async(std::launch::async, [&] {
        return run_sync_transaction(other, [&](sync_store& s) { s.lock_device(tenant_, "phone"); });
    });
    EXPECT_EQ(waiter.wait_for(300ms), std::future_status::timeout);
    // Another device is not affected.
    tx([&](sync_store& s) { s.lock_device(tenant_, "tablet"); });
    release.set_value();
    EXPECT_TRUE(holder.get());
    ASSERT_EQ(waiter.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(waiter.get());
    // A failed transaction releases the lock too.
    EXPECT_THROW(run_sync_transaction(*db_,
                                      [&](sync_store& s) {
                                          s.lock_device(tenant_, "phone");
                                          throw std::runtime_error("engine failed");
                                      }),
                 std::runtime_error);
    auto after_failure = std::async(std::launch::async, [&] {
        return run_sync_transaction(other, [&](sync_store& s) { s.lock_device(tenant_, "phone"); });
    });
    ASSERT_EQ(after_failure.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(after_failure.get());
}

TEST_F(sync_store_session_test, open_message_session_upserts_the_device_when_the_session_starts) {
    session_record first;
    tx([&](sync_store& s) {
        first = s.open_message_session(tenant_, message_of("5", "1", user_)).value();
        EXPECT_GT(first.id, 0);
        EXPECT_TRUE(first.device_touched);
        EXPECT_GT(first.device.id, 0);
        EXPECT_EQ(first.device_user_id, user_);
        first.user_id = user_;
        first.last_msg_id = "1";
        first.last_reply = "reply-1";
        s.save_session(tenant_, first);
    });
    EXPECT_EQ(sql_value("SELECT count(*) FROM devices WHERE last_seen IS NOT NULL"), "1");
    // Later messages, by RespURI key or by the address that authenticated, read the device with the session row.
    tx([&](sync_store& s) {
        auto by_key = s.open_message_session(tenant_, message_of("5", "2", 0, first.id)).value();
        EXPECT_EQ(by_key.id, first.id);
        EXPECT_FALSE(by_key.device_touched);
        EXPECT_EQ(by_key.device.id, first.device.id);
        EXPECT_EQ(by_key.last_reply, "reply-1");
        auto by_address = s.open_message_session(tenant_, message_of("5", "2", 0)).value();
        EXPECT_EQ(by_address.id, first.id);
        EXPECT_EQ(by_address.device.id, first.device.id);
    });
    // A key of another session (or SessionID) is no way into this one, nor is another address.
    tx([&](sync_store& s) {
        EXPECT_FALSE(s.open_message_session(tenant_, message_of("6", "2", 0, first.id)));
        EXPECT_FALSE(s.open_message_session(tenant_, message_of("5", "2", 0, std::nullopt, "203.0.113.5")));
    });
    // A resend of the last message touches nothing; another user of the device gets a session and a device row of
    // its own.
    auto other_user = add_user(*db_, "acme", "v", "pw").id;
    tx([&](sync_store& s) {
        EXPECT_FALSE(s.open_message_session(tenant_, message_of("5", "1", user_))->device_touched);
    });
    tx_of(other_user, [&](sync_store& s) {
        auto rec = s.open_message_session(tenant_, message_of("5", "1", other_user)).value();
        EXPECT_NE(rec.id, first.id);
        EXPECT_TRUE(rec.last_reply.empty());
        EXPECT_TRUE(rec.device_touched);
        EXPECT_EQ(rec.device_user_id, other_user);
        EXPECT_NE(rec.device.id, first.device.id);
    });
}

// What a message without credentials can reach: issue 15's session hijack.
TEST_F(sync_store_session_test, open_message_session_without_credentials_reaches_only_a_bound_live_session) {
    std::int64_t key = 0;
    tx([&](sync_store& s) {
        auto rec = s.open_message_session(tenant_, message_of("S", "1", user_)).value();
        key = rec.id;
        rec.last_msg_id = "1";
        rec.last_reply = "reply";
        s.save_session(tenant_, rec);
    });
    auto reaches = [&](const message_session& m) {
        std::optional<session_record> found;
        tx([&](sync_store& s) { found = s.open_message_session(tenant_, m); });
        return found.has_value();
    };
    EXPECT_TRUE(reaches(message_of("S", "2", 0)));
    EXPECT_TRUE(reaches(message_of("S", "2", 0, key, "203.0.113.5")));
    // MsgID 1 without credentials never touches a live session, token or not.
    EXPECT_FALSE(reaches(message_of("S", "1", 0)));
    EXPECT_FALSE(reaches(message_of("S", "1", 0, key)));
    // Address binding off (session_binding = token): only the token.
    auto token_only = message_of("S", "2", 0);
    token_only.address_idle = std::chrono::seconds(0);
    EXPECT_FALSE(reaches(token_only));
    // Idle longer than the window: the address no longer counts, the token still does.
    in_transaction(
        *db_, [&](pqxx::work& t) { t.exec0("UPDATE sessions SET updated_at = updated_at - interval '6 minutes'"); });
    EXPECT_FALSE(reaches(message_of("S", "2", 0)));
    EXPECT_TRUE(reaches(message_of("S", "2", 0, key)));
    // The password changed since the session authenticated: neither.
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec0("UPDATE sessions SET updated_at = now()");
        t.exec_params0("UPDATE users SET credentials_changed_at = now() WHERE tenant_id = $1", tenant_);
    });
    EXPECT_FALSE(reaches(message_of("S", "2", 0)));
    EXPECT_FALSE(reaches(message_of("S", "2", 0, key)));
    // Valid credentials continue it and bind it again; past its absolute lifetime it starts afresh.
    EXPECT_TRUE(reaches(message_of("S", "2", user_)));
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec0(
            "UPDATE sessions SET created_at = created_at - interval '5 hours', "
            "authenticated_at = now() + interval '1 second'");
    });
    EXPECT_FALSE(reaches(message_of("S", "2", 0, key)));
    tx([&](sync_store& s) {
        auto fresh = s.open_message_session(tenant_, message_of("S", "2", user_)).value();
        EXPECT_EQ(fresh.id, key);
        EXPECT_TRUE(fresh.state.empty());
        EXPECT_TRUE(fresh.last_reply.empty());
    });
}

// Behind one address (a carrier's NAT) another user starts a session with the phone's device id and SessionID and
// credentials of his own: a message without token or credentials could be either's, so it continues neither (it
// gets a challenge); with credentials each goes on in his own.
TEST_F(sync_store_session_test, a_continuation_by_address_that_two_users_sessions_match_continues_neither) {
    const auto bob = add_user(*db_, "acme", "bob", "pw").id;
    auto start = [&](std::int64_t user) {
        std::int64_t id = 0;
        tx_of(user, [&](sync_store& s) {
            auto rec = s.open_message_session(tenant_, message_of("S", "1", user)).value();
            rec.user_id = user;
            rec.last_msg_id = "1";
            s.save_session(tenant_, rec);
            id = rec.id;
        });
        return id;
    };
    // Whose session a message reaches; without credentials or token nobody is the owner (one database).
    auto reached = [&](const message_session& m) {
        std::optional<session_record> found;
        tx_of(m.user, [&](sync_store& s) { found = s.open_message_session(tenant_, m); });
        return found ? found->user_id : 0;
    };
    const auto alices = start(user_);
    EXPECT_EQ(reached(message_of("S", "2", 0)), user_);
    start(bob);
    EXPECT_EQ(reached(message_of("S", "2", 0)), 0);
    EXPECT_EQ(reached(message_of("S", "2", user_)), user_);
    EXPECT_EQ(reached(message_of("S", "2", bob)), bob);
    // bob's session idle beyond the address window: the message could still be his phone, so it continues nothing.
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec_params0("UPDATE sessions SET updated_at = updated_at - interval '6 minutes' WHERE user_id = $1", bob);
    });
    EXPECT_EQ(reached(message_of("S", "2", 0)), 0);
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec0("UPDATE sessions SET updated_at = now()");
        t.exec_params0("UPDATE sessions SET client_address = '203.0.113.5' WHERE user_id = $1", user_);
    });
    // Alice's session last authenticated elsewhere: bob's is the only one at the address, but hers started first and
    // the message could be her phone, moved here.
    EXPECT_EQ(reached(message_of("S", "2", 0)), 0) << "bob's is the only one at the address";
    // At her address, bob's later session elsewhere changes nothing (issue 35: else anyone with an account could stop
    // her phone's continuation from anywhere by replaying its device id and SessionID with his own credentials).
    EXPECT_EQ(reached(message_of("S", "2", 0, std::nullopt, "203.0.113.5")), user_);
    // Once bob's session has expired, alice's goes on by address again (from its own address).
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec_params0("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", bob);
        t.exec_params0("UPDATE sessions SET client_address = '192.0.2.1' WHERE user_id = $1", user_);
    });
    tx_of(0, [&](sync_store& s) { EXPECT_EQ(s.open_message_session(tenant_, message_of("S", "2", 0))->id, alices); });
}

TEST_F(sync_store_session_test, open_message_session_refuses_a_new_device_beyond_the_users_maximum) {
    auto m = message_of("1", "1", user_);
    m.max_devices = 1;
    tx([&](sync_store& s) { EXPECT_FALSE(s.open_message_session(tenant_, m)->device_refused); });
    auto second = message_of("1", "1", user_, std::nullopt, "192.0.2.1", "second-phone");
    second.max_devices = 1;
    tx([&](sync_store& s) {
        auto rec = s.open_message_session(tenant_, second).value();
        EXPECT_TRUE(rec.device_refused);
        EXPECT_FALSE(rec.device_touched);
    });
    // The known device goes on.
    m.session_id = "2";
    tx([&](sync_store& s) { EXPECT_FALSE(s.open_message_session(tenant_, m)->device_refused); });
}

TEST_F(sync_store_session_test, open_message_session_refuses_a_session_beyond_the_tenants_live_maximum) {
    auto start = [&](const std::string& device, const std::string& session_id, const std::string& msg_id) {
        auto m = message_of(session_id, msg_id, user_, std::nullopt, "192.0.2.1", device);
        m.max_sessions = 2;
        std::optional<session_record> rec;
        tx([&](sync_store& s) {
            rec = s.open_message_session(tenant_, m);
            if (rec && !rec->sessions_refused) s.save_session(tenant_, *rec);
        });
        return rec.value();
    };
    EXPECT_FALSE(start("a", "1", "1").sessions_refused);
    EXPECT_FALSE(start("b", "1", "1").sessions_refused);
    auto refused = start("c", "1", "1");
    EXPECT_TRUE(refused.sessions_refused);
    EXPECT_EQ(refused.id, 0);
    EXPECT_EQ(sql_value("SELECT count(*) FROM sessions WHERE device_uri = 'c'"), "0");
    // A live session goes on at the limit, with the next message or a restart with MsgID 1.
    EXPECT_FALSE(start("a", "1", "2").sessions_refused);
    EXPECT_FALSE(start("a", "1", "1").sessions_refused);
    // A finished session, and one idle for more than 10 minutes, free their places.
    in_transaction(*db_,
                   [&](pqxx::work& t) { t.exec0("UPDATE sessions SET finished_at = now() WHERE device_uri = 'a'"); });
    EXPECT_FALSE(start("c", "1", "1").sessions_refused);
    EXPECT_TRUE(start("d", "1", "1").sessions_refused);
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec0("UPDATE sessions SET updated_at = now() - interval '11 minutes' WHERE device_uri = 'b'");
    });
    EXPECT_FALSE(start("d", "1", "1").sessions_refused);
    // Another tenant's sessions never count.
    auto other = add_tenant(*db_, "other").id;
    auto other_user = add_user(*db_, "other", "v", "pw").id;
    auto m = message_of("1", "1", other_user, std::nullopt, "192.0.2.1", "e");
    m.max_sessions = 2;
    tx_of(other_user, [&](sync_store& s) { EXPECT_FALSE(s.open_message_session(other, m)->sessions_refused); });
}

// The lock and the lookups are one statement: they must still see what the previous holder of the device lock
// committed while this message waited for it, or two messages of one device could run on the same state.
TEST_F(sync_store_session_test, open_message_session_waits_for_the_device_and_sees_what_the_holder_committed) {
    std::int64_t key = 0;
    tx([&](sync_store& s) { key = s.open_message_session(tenant_, message_of("8", "1", user_))->id; });
    std::promise<void> locked;
    std::promise<void> release;
    auto holder = std::async(std::launch::async, [&] {
        database db(url());
        return run_sync_transaction(db, [&](sync_store& s) {
            auto rec = s.open_message_session(tenant_, message_of("8", "2", 0, key)).value();
            locked.set_value();
            release.get_future().wait();
            rec.state = "after-2";
            rec.last_msg_id = "2";
            rec.device = s.device(tenant_, user_, "phone");
            s.save_session(tenant_, rec);
        });
    });
    locked.get_future().wait();
    session_record seen;
    auto waiter = std::async(std::launch::async, [&] {
        database db(url());
        return run_sync_transaction(
            db, [&](sync_store& s) { seen = s.open_message_session(tenant_, message_of("8", "3", 0, key)).value(); });
    });
    EXPECT_EQ(waiter.wait_for(300ms), std::future_status::timeout);
    // Other devices are not affected.
    tx([&](sync_store& s) {
        s.open_message_session(tenant_, message_of("8", "1", user_, std::nullopt, "192.0.2.1", "tablet"));
    });
    release.set_value();
    EXPECT_TRUE(holder.get());
    ASSERT_EQ(waiter.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(waiter.get());
    EXPECT_EQ(seen.state, "after-2");
    // The device row is new and read without a row lock: only a snapshot taken after the lock sees it.
    EXPECT_GT(seen.device.id, 0);
    EXPECT_EQ(seen.device_user_id, user_);
}

}  // namespace
}  // namespace syncml::persistence
