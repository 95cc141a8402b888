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

    void age_windows(std::chrono::seconds by) {
        in_transaction(*db_, [&](pqxx::work& tx) {
            tx.exec_params0("UPDATE auth_failures SET window_start = window_start - make_interval(secs => $1)",
                            static_cast<double>(by.count()));
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
    // The next failure opens a new window with a single failure.
    throttle.record_failure(tenant_, "alice", "phone-1", "192.0.2.1");
    EXPECT_EQ(blocked_for("alice", "phone-9"), 0s);
}

TEST_F(auth_throttle_test, strangers_never_lock_a_user_out_of_a_device_that_authenticated_before) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    auto alice = add_user(*db_, "acme", "alice", "pw");
    in_transaction(*db_, [&](pqxx::work& tx) {
        tx.exec_params0("INSERT INTO devices (tenant_id, user_id, device_uri, nonce) VALUES ($1, $2, 'IMEI:1', 'n1')",
                        tenant_, alice.id);
    });
    // Someone guesses alice's password, even pretending to be her phone, from elsewhere.
    for (auto device : {"IMEI:1", "IMEI:1", "IMEI:1", "other"}) {
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

// A DAV client has no device id: strangers' failures for the user name elsewhere block it only until it has logged
// in once from its address; then only failures from that address do.
TEST_F(auth_throttle_test, strangers_never_lock_a_user_out_of_a_dav_client_that_logged_in_before) {
    pg_auth_throttle throttle(*db_, {3, 60s});
    auto alice = add_user(*db_, "acme", "alice", "pw");
    const std::string home = "192.0.2.10", guesser = "203.0.113.66";
    EXPECT_FALSE(throttle.check(tenant_, "alice", "", home).known_client);
    throttle.remember_client(tenant_, alice.id, home);
    auto known = throttle.check(tenant_, "alice", "", home);
    EXPECT_TRUE(known.known_client);
    EXPECT_FALSE(known.client_stale);
    for (int i = 0; i < 4; ++i) throttle.record_failure(tenant_, "alice", "", guesser);
    EXPECT_EQ(throttle.check(tenant_, "alice", "", home).blocked, 0s) << "her own client keeps working";
    EXPECT_GT(throttle.check(tenant_, "alice", "", "198.51.100.9").blocked, 0s) << "a new address is blocked";
    EXPECT_GT(throttle.check(tenant_, "alice", "", guesser).blocked, 0s);
    EXPECT_GT(throttle.check(tenant_, "alice", "new-phone", home).blocked, 0s)
        << "a SyncML device is judged by its device row, not by the address";
    for (int i = 0; i < 3; ++i) throttle.record_failure(tenant_, "alice", "", home);
    EXPECT_GT(throttle.check(tenant_, "alice", "", home).blocked, 0s) << "failures from its own address block it";
    // A login a day old is refreshed; one 30 days old no longer counts.
    query_value(*db_, "UPDATE known_clients SET last_login = now() - interval '2 days' RETURNING 1");
    EXPECT_TRUE(throttle.check(tenant_, "alice", "", home).client_stale);
    query_value(*db_, "UPDATE known_clients SET last_login = now() - interval '31 days' RETURNING 1");
    EXPECT_FALSE(throttle.check(tenant_, "alice", "", home).known_client);
    throttle.remember_client(tenant_, alice.id, home);
    auto refreshed = throttle.check(tenant_, "alice", "", home);
    EXPECT_TRUE(refreshed.known_client);
    EXPECT_FALSE(refreshed.client_stale);
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
    EXPECT_EQ(rows, "alice,alice 192.0.2.2,old,old 192.0.2.1,old-phone");
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
    EXPECT_EQ(counts[1].as<int>(), 5);  // a, b, a at the address, b at the address, scanner
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
