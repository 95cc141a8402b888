#include "persistence/accounts/auth_throttle.hpp"

#include <gtest/gtest.h>

#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using namespace std::chrono_literals;

class auth_throttle_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        tenant_ = add_tenant(*db_, "acme").id;
    }

    // As if every failure on record had happened `by` earlier.
    void age_windows(std::chrono::seconds by) {
        in_transaction(*db_, [&](pqxx::work& tx) {
            tx.exec_params0(
                "UPDATE auth_failures SET window_start = window_start - make_interval(secs => $1), "
                "last_failure = last_failure - make_interval(secs => $1)",
                static_cast<double>(by.count()));
        });
    }

    void add_device(std::int64_t user_id, const std::string& device) {
        in_transaction(*db_, [&](pqxx::work& tx) {
            tx.exec_params0("INSERT INTO devices (tenant_id, user_id, device_uri) VALUES ($1, $2, $3)", tenant_,
                            user_id, device);
        });
    }

    std::int64_t tenant_ = 0;
};

TEST_F(auth_throttle_test, blocks_a_user_after_the_allowed_failures_until_the_window_passes) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    auto blocked_for = [&](const std::string& user, const std::string& device) {
        return throttle.check(tenant_, user, device, "198.51.100.7").blocked;
    };
    throttle.record_failure(tenant_, "alice", "phone-1", "192.0.2.1");
    throttle.record_failure(tenant_, "alice", "phone-2", "192.0.2.2");
    EXPECT_EQ(blocked_for("alice", "phone-3"), 0s);
    throttle.record_failure(tenant_, "alice", "phone-3", "192.0.2.3");
    auto wait = blocked_for("alice", "phone-9");
    EXPECT_GT(wait, 50s);
    EXPECT_LE(wait, 60s);
    // Other users and devices with fewer failures are not affected.
    EXPECT_EQ(blocked_for("bob", "phone-1"), 0s);
    age_windows(61s);
    EXPECT_EQ(blocked_for("alice", "phone-9"), 0s);
}

// Issue 35: the user-wide counter no longer starts afresh after each window, which gave a guesser the allowed
// failures again every few minutes: each failure beyond them doubles the block, and only a quiet backoff_cap
// forgets them.
TEST_F(auth_throttle_test, blocks_twice_as_long_after_each_further_failure_until_a_quiet_spell_forgets_them) {
    pg_auth_throttle throttle(*db_, {3, 60s, std::nullopt, 600s});
    auto blocked_for = [&] { return throttle.check(tenant_, "alice", "phone-9", "198.51.100.7").blocked; };
    for (auto address : {"192.0.2.1", "192.0.2.2", "192.0.2.3"}) {
        throttle.record_failure(tenant_, "alice", "", address);
    }
    EXPECT_GT(blocked_for(), 50s);
    age_windows(61s);
    ASSERT_EQ(blocked_for(), 0s);
    throttle.record_failure(tenant_, "alice", "", "192.0.2.4");
    EXPECT_GT(blocked_for(), 110s) << "the fourth failure blocks for two windows";
    EXPECT_LE(blocked_for(), 120s);
    age_windows(121s);
    throttle.record_failure(tenant_, "alice", "", "192.0.2.5");
    EXPECT_GT(blocked_for(), 230s) << "the fifth for four";
    age_windows(241s);
    throttle.record_failure(tenant_, "alice", "", "192.0.2.6");
    EXPECT_GT(blocked_for(), 470s) << "the sixth for eight";
    age_windows(481s);
    throttle.record_failure(tenant_, "alice", "", "192.0.2.7");
    EXPECT_GT(blocked_for(), 590s) << "the seventh for sixteen, cut to the cap";
    EXPECT_LE(blocked_for(), 600s);
    age_windows(601s);
    throttle.record_failure(tenant_, "alice", "", "192.0.2.8");
    EXPECT_EQ(blocked_for(), 0s) << "a failure after a quiet cap starts a new count";
}

TEST_F(auth_throttle_test, strangers_never_lock_a_user_out_of_a_device_that_authenticated_before) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    auto alice = add_user(*db_, "acme", "alice", "pw");
    in_transaction(*db_, [&](pqxx::work& tx) {
        tx.exec_params0("INSERT INTO devices (tenant_id, user_id, device_uri, nonce) VALUES ($1, $2, 'IMEI:1', 'n1')",
                        tenant_, alice.id);
    });
    // Someone who knows her name guesses alice's password from elsewhere.
    for (auto device : {"other", "other", "IMEI:2", "IMEI:3"}) {
        throttle.record_failure(tenant_, "alice", device, "203.0.113.66");
    }
    auto own = throttle.check(tenant_, "alice", "IMEI:1", "192.0.2.10");
    EXPECT_EQ(own.blocked, 0s);
    EXPECT_TRUE(own.known_device);
    EXPECT_EQ(own.device_nonce, "n1");
    // A device alice never used is blocked, and so is the guesser's address for alice, even with her phone's id.
    auto fresh = throttle.check(tenant_, "alice", "new-phone", "192.0.2.10");
    EXPECT_GT(fresh.blocked, 0s);
    EXPECT_FALSE(fresh.known_device);
    EXPECT_GT(throttle.check(tenant_, "alice", "IMEI:1", "203.0.113.66").blocked, 0s);
}

// Issue 35: a guesser who knows alice's phone's id got the allowed failures at every address he rotated to (50
// guesses from 5 addresses were all checked). The failures naming that id now add up wherever they come from and
// block the id at every address alice has not logged in from; where she has, her phone goes on syncing.
TEST_F(auth_throttle_test, rotating_addresses_with_her_phones_id_adds_up_and_spares_only_her_own_addresses) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    auto alice = add_user(*db_, "acme", "alice", "pw");
    add_device(alice.id, "IMEI:1");
    const std::string home = "192.0.2.10";
    throttle.remember_client(tenant_, alice.id, home);
    int checked = 0;
    for (int i = 0; i < 10; ++i) {
        const auto address = "203.0.113." + std::to_string(i + 1);
        if (throttle.check(tenant_, "alice", "IMEI:1", address).blocked > 0s) continue;
        ++checked;
        throttle.record_failure(tenant_, "alice", "IMEI:1", address);
    }
    EXPECT_EQ(checked, 3) << "the allowed failures in all, not per address";
    EXPECT_GT(throttle.check(tenant_, "alice", "IMEI:1", "198.51.100.1").blocked, 0s);
    EXPECT_EQ(throttle.check(tenant_, "alice", "IMEI:1", home).blocked, 0s) << "her phone at home";
}

// An IPv6 subscriber picks any address of its /64: counters and known addresses are per /64, as the login guard's.
TEST_F(auth_throttle_test, counts_an_ipv6_client_by_its_64) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    auto alice = add_user(*db_, "acme", "alice", "pw");
    add_device(alice.id, "IMEI:1");
    for (auto address : {"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:a::3"}) {
        throttle.record_failure(tenant_, "alice", "other", address);
    }
    EXPECT_GT(throttle.check(tenant_, "alice", "IMEI:1", "2001:db8:1:2::99").blocked, 0s);
    EXPECT_EQ(throttle.check(tenant_, "alice", "IMEI:1", "2001:db8:1:3::1").blocked, 0s);
    throttle.remember_client(tenant_, alice.id, "2001:db8:1:3::1");
    EXPECT_TRUE(throttle.check(tenant_, "alice", "", "2001:db8:1:3::ffff").known_address);
}

// A DAV client has no device id: strangers' failures for the user name elsewhere block it only until it has logged
// in once from its address; then only failures from that address do.
TEST_F(auth_throttle_test, strangers_never_lock_a_user_out_of_a_dav_client_that_logged_in_before) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    auto alice = add_user(*db_, "acme", "alice", "pw");
    const std::string home = "192.0.2.10", guesser = "203.0.113.66";
    EXPECT_FALSE(throttle.check(tenant_, "alice", "", home).known_address);
    throttle.remember_client(tenant_, alice.id, home);
    auto known = throttle.check(tenant_, "alice", "", home);
    EXPECT_TRUE(known.known_address);
    EXPECT_FALSE(known.address_stale);
    for (int i = 0; i < 4; ++i) throttle.record_failure(tenant_, "alice", "", guesser);
    EXPECT_EQ(throttle.check(tenant_, "alice", "", home).blocked, 0s) << "her own client keeps working";
    EXPECT_GT(throttle.check(tenant_, "alice", "", "198.51.100.9").blocked, 0s) << "a new address is blocked";
    EXPECT_GT(throttle.check(tenant_, "alice", "", guesser).blocked, 0s);
    EXPECT_EQ(throttle.check(tenant_, "alice", "new-phone", home).blocked, 0s)
        << "a new phone at an address she logged in from is not blocked by strangers either";
    for (int i = 0; i < 3; ++i) throttle.record_failure(tenant_, "alice", "", home);
    EXPECT_GT(throttle.check(tenant_, "alice", "", home).blocked, 0s) << "failures from its own address block it";
    // A login a day old is refreshed; one 30 days old no longer counts.
    query_value(*db_, "UPDATE known_clients SET last_login = now() - interval '2 days' RETURNING 1");
    EXPECT_TRUE(throttle.check(tenant_, "alice", "", home).address_stale);
    query_value(*db_, "UPDATE known_clients SET last_login = now() - interval '31 days' RETURNING 1");
    EXPECT_FALSE(throttle.check(tenant_, "alice", "", home).known_address);
    throttle.remember_client(tenant_, alice.id, home);
    auto refreshed = throttle.check(tenant_, "alice", "", home);
    EXPECT_TRUE(refreshed.known_address);
    EXPECT_FALSE(refreshed.address_stale);
}

TEST_F(auth_throttle_test, blocks_a_device_that_tries_many_user_names_and_a_success_resets_it) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    for (auto user : {"a", "b", "c"}) throttle.record_failure(tenant_, user, "scanner", "203.0.113.9");
    EXPECT_GT(throttle.check(tenant_, "d", "scanner", "203.0.113.9").blocked, 0s);
    EXPECT_EQ(throttle.check(tenant_, "d", "phone", "203.0.113.9").blocked, 0s);
    // Tenants are separate.
    auto other = add_tenant(*db_, "other").id;
    EXPECT_EQ(throttle.check(other, "d", "scanner", "203.0.113.9").blocked, 0s);
    throttle.reset(tenant_, "d", "scanner", "203.0.113.9");
    EXPECT_EQ(throttle.check(tenant_, "d", "scanner", "203.0.113.9").blocked, 0s);
}

// A failure forgets the user's windows long past (such as failures at other addresses); those of other users and
// device ids are the janitor's (janitor_test), so that no statement of a login reads across users.
TEST_F(auth_throttle_test, forgets_the_users_windows_long_past) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    throttle.record_failure(tenant_, "old", "old-phone", "192.0.2.1");
    throttle.record_failure(tenant_, "alice", "", "192.0.2.1");
    age_windows(120s);
    throttle.record_failure(tenant_, "alice", "", "192.0.2.2");
    auto rows = in_transaction(*db_, [](pqxx::work& tx) {
        return tx.exec1("SELECT string_agg(subject, ',' ORDER BY subject) FROM auth_failures")[0].as<std::string>();
    });
    EXPECT_EQ(rows, "alice,alice 192.0.2.2,old,old 192.0.2.1,old old-phone,old-phone")
        << "user-wide counters stay until a quiet backoff_cap";
}

// On a distributed database auth_failures is spread by shard_key: a user's counters go with the user's rows, a device
// id's counter by a key of its own.
TEST_F(auth_throttle_test, keeps_the_device_counter_under_the_device_key) {
    pg_auth_throttle throttle(*db_, {2, 60s});
    for (auto user : {"a", "b"}) throttle.record_failure(tenant_, user, "scanner", "203.0.113.9");
    auto counts = in_transaction(*db_, [&](pqxx::work& tx) {
        return tx.exec_params1(
            "SELECT count(*) FILTER (WHERE shard_key <> CASE scope WHEN 'device' THEN syncml_device_key($1, subject) "
            "ELSE syncml_user_key($1, split_part(subject, ' ', 1)) END), count(*) FROM auth_failures",
            tenant_);
    });
    EXPECT_EQ(counts[0].as<int>(), 0) << "every row under its key";
    EXPECT_EQ(counts[1].as<int>(), 7);  // a, b, each at the address and with the device, scanner
    // The device's counter blocks a user it never failed for, on a device that user has not authenticated from.
    EXPECT_GT(throttle.check(tenant_, "c", "scanner", "198.51.100.1").blocked, 50s);
    auto c = add_user(*db_, "acme", "c", "pw");
    in_transaction(*db_, [&](pqxx::work& tx) {
        tx.exec_params0("INSERT INTO devices (tenant_id, user_id, device_uri) VALUES ($1, $2, 'scanner')", tenant_,
                        c.id);
    });
    auto known = throttle.check(tenant_, "c", "scanner", "198.51.100.1");
    EXPECT_EQ(known.blocked, 0s) << "a device the user authenticated from before";
    EXPECT_TRUE(known.failures_on_record) << "a success resets the device's counter";
    throttle.reset(tenant_, "c", "scanner", "198.51.100.1");
    EXPECT_EQ(throttle.check(tenant_, "d", "scanner", "198.51.100.1").blocked, 0s);
}

TEST_F(auth_throttle_test, finds_the_stored_password_hash_that_changes_with_the_password) {
    auto user = add_user(*db_, "acme", "alice", "pw1");
    auto before = find_stored_credentials(*db_, tenant_, "alice");
    ASSERT_TRUE(before);
    EXPECT_EQ(before->user_id, user.id);
    EXPECT_TRUE(before->password_hash.starts_with("pbkdf2-sha256$"));
    set_password(*db_, "acme", "alice", "pw2");
    EXPECT_NE(find_stored_credentials(*db_, tenant_, "alice")->password_hash, before->password_hash);
    EXPECT_FALSE(find_stored_credentials(*db_, tenant_, "nobody"));
}

TEST_F(auth_throttle_test, one_check_tells_the_block_whether_to_reset_and_the_stored_credentials) {
    const auto key = secret_key::generate();
    pg_auth_throttle throttle(*db_, {2, 60s, key});
    auto user = add_user(*db_, "acme", "alice", "pw", &key);
    auto clean = throttle.check(tenant_, "alice", "phone", "192.0.2.1");
    EXPECT_EQ(clean.blocked, 0s);
    EXPECT_FALSE(clean.failures_on_record);
    ASSERT_TRUE(clean.account);
    EXPECT_EQ(clean.account->user_id, user.id);
    EXPECT_EQ(clean.account->password_hash, find_stored_credentials(*db_, tenant_, "alice")->password_hash);
    EXPECT_EQ(clean.account->md5_secret, md5_secret_of("alice", "pw"));
    EXPECT_EQ(clean.account->needs_upgrade, needs_rehash(clean.account->password_hash));

    throttle.record_failure(tenant_, "alice", "phone", "192.0.2.1");
    auto once = throttle.check(tenant_, "alice", "other-phone", "192.0.2.1");
    EXPECT_EQ(once.blocked, 0s);
    EXPECT_TRUE(once.failures_on_record);
    throttle.record_failure(tenant_, "mallory", "phone", "192.0.2.1");
    auto blocked = throttle.check(tenant_, "alice", "phone", "192.0.2.1");
    EXPECT_GT(blocked.blocked, 50s);
    ASSERT_TRUE(blocked.account);

    auto unknown = throttle.check(tenant_, "nobody", "", "");
    EXPECT_FALSE(unknown.account);
    EXPECT_FALSE(unknown.failures_on_record);
    throttle.reset(tenant_, "alice", "phone", "192.0.2.1");
    EXPECT_FALSE(throttle.check(tenant_, "alice", "phone", "192.0.2.1").failures_on_record);
}

// Issue 35: the user's own client logging in every minute must not wipe a guesser's failures elsewhere (before, each
// success reset the user-wide counter and gave the guesser a fresh allowance).
TEST_F(auth_throttle_test, a_success_resets_its_own_address_and_device_but_not_the_users_failures_elsewhere) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    auto alice = add_user(*db_, "acme", "alice", "pw");
    in_transaction(*db_, [&](pqxx::work& tx) {
        tx.exec_params0("INSERT INTO devices (tenant_id, user_id, device_uri) VALUES ($1, $2, 'IMEI:1')", tenant_,
                        alice.id);
    });
    for (int i = 0; i < 2; ++i) throttle.record_failure(tenant_, "alice", "guess-" + std::to_string(i), "203.0.113.66");
    throttle.record_failure(tenant_, "alice", "IMEI:1", "192.0.2.10");
    throttle.reset(tenant_, "alice", "IMEI:1", "192.0.2.10");
    EXPECT_GT(throttle.check(tenant_, "alice", "guess-3", "198.51.100.9").blocked, 0s)
        << "three failures of alice within the window block new devices, whatever succeeded since";
    EXPECT_EQ(throttle.check(tenant_, "alice", "IMEI:1", "192.0.2.10").blocked, 0s);
    EXPECT_FALSE(throttle.check(tenant_, "alice", "IMEI:1", "192.0.2.10").failures_on_record)
        << "nothing left that its next success would reset";
}

TEST_F(auth_throttle_test, a_disabled_user_looks_like_an_unknown_one) {
    add_user(*db_, "acme", "alice", "pw");
    pg_auth_throttle throttle(*db_, {});
    EXPECT_TRUE(throttle.check(tenant_, "alice", "IMEI:1", "192.0.2.10").account);
    set_user_disabled(*db_, "acme", "alice", true);
    EXPECT_FALSE(throttle.check(tenant_, "alice", "IMEI:1", "192.0.2.10").account);
}

}  // namespace
}  // namespace syncml::persistence
