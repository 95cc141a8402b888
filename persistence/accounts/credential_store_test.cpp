#include "persistence/accounts/credential_store.hpp"

#include <gtest/gtest.h>

#include "common/crypto/base64.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/auth_throttle.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

class credential_store_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        tenant_settings no_md5;
        no_md5.auth_md5 = false;
        md5_tenant_ = add_tenant(*db_, "md5").id;
        plain_tenant_ = add_tenant(*db_, "plain", no_md5).id;
    }

    // The user's row as stored: sealed md5 secret (empty for NULL), legacy plaintext, hash, credentials_changed_at.
    struct row {
        std::string sealed;
        std::optional<std::string> legacy;
        std::string hash;
        std::string changed_at;
    };
    row stored(std::int64_t tenant, const std::string& user) {
        return in_transaction(*db_, [&](pqxx::work& tx) {
            auto r = tx.exec_params1(
                "SELECT md5_secret_sealed, legacy_md5_secret, password_hash, credentials_changed_at::text "
                "FROM users WHERE tenant_id = $1 AND name = $2",
                tenant, user);
            row out;
            if (!r[0].is_null()) out.sealed = pqxx::binarystring(r[0]).str();
            if (!r[1].is_null()) out.legacy = r[1].as<std::string>();
            out.hash = r[2].as<std::string>();
            out.changed_at = r[3].as<std::string>();
            return out;
        });
    }
    void set_column(std::int64_t tenant, const std::string& user, const std::string& assignment,
                    const std::string& value) {
        in_transaction(*db_, [&](pqxx::work& tx) {
            tx.exec_params("UPDATE users SET " + assignment + " WHERE tenant_id = $1 AND name = $2", tenant, user,
                           value);
        });
    }

    secret_key key_ = secret_key::generate();
    std::int64_t md5_tenant_ = 0;
    std::int64_t plain_tenant_ = 0;
};

TEST_F(credential_store_test, keeps_no_md5_secret_for_a_tenant_with_md5_off) {
    add_user(*db_, "plain", "alice", "pw", &key_);
    EXPECT_TRUE(stored(plain_tenant_, "alice").sealed.empty());
    EXPECT_FALSE(stored(plain_tenant_, "alice").legacy);
    EXPECT_FALSE(md5_secret(*db_, "plain", "alice", &key_));
    set_password(*db_, "plain", "alice", "pw2", &key_);
    EXPECT_TRUE(stored(plain_tenant_, "alice").sealed.empty());
    EXPECT_TRUE(find_stored_credentials(*db_, plain_tenant_, "alice", &key_)->md5_secret.empty());
}

TEST_F(credential_store_test, stores_the_md5_secret_encrypted_and_opens_it_with_the_key_only) {
    add_user(*db_, "md5", "Bruce2", "OhBehave", &key_);
    const auto at_rest = stored(md5_tenant_, "Bruce2");
    ASSERT_FALSE(at_rest.sealed.empty());
    EXPECT_EQ(at_rest.sealed.find("PtEdr8lBQ45IbT1bZIkrOQ=="), std::string::npos);
    EXPECT_EQ(at_rest.sealed.find(common::base64_decode("PtEdr8lBQ45IbT1bZIkrOQ==").value()), std::string::npos);
    EXPECT_FALSE(at_rest.legacy);
    EXPECT_EQ(md5_secret(*db_, "md5", "Bruce2", &key_), "PtEdr8lBQ45IbT1bZIkrOQ==");
    EXPECT_EQ(find_stored_credentials(*db_, md5_tenant_, "Bruce2", &key_)->md5_secret, "PtEdr8lBQ45IbT1bZIkrOQ==");
    const auto other = secret_key::generate();
    EXPECT_FALSE(md5_secret(*db_, "md5", "Bruce2", &other));
    EXPECT_FALSE(md5_secret(*db_, "md5", "Bruce2", nullptr));
}

TEST_F(credential_store_test, a_sealed_secret_copied_to_another_user_does_not_open) {
    add_user(*db_, "md5", "alice", "pw", &key_);
    add_user(*db_, "md5", "mallory", "other", &key_);
    in_transaction(*db_, [&](pqxx::work& tx) {
        tx.exec_params(
            "UPDATE users SET md5_secret_sealed = (SELECT md5_secret_sealed FROM users WHERE tenant_id = $1 AND "
            "name = 'alice') WHERE tenant_id = $1 AND name = 'mallory'",
            md5_tenant_);
    });
    EXPECT_FALSE(md5_secret(*db_, "md5", "mallory", &key_));
}

TEST_F(credential_store_test, turning_md5_off_drops_the_secrets_and_on_again_stores_none_until_a_login) {
    add_user(*db_, "md5", "alice", "pw", &key_);
    const auto before = stored(md5_tenant_, "alice").changed_at;
    auto settings = find_tenant(*db_, "md5")->settings;
    settings.auth_md5 = false;
    update_tenant(*db_, "md5", settings);
    EXPECT_TRUE(stored(md5_tenant_, "alice").sealed.empty());
    EXPECT_NE(stored(md5_tenant_, "alice").changed_at, before);

    settings.auth_md5 = true;
    update_tenant(*db_, "md5", settings);
    EXPECT_FALSE(md5_secret(*db_, "md5", "alice", &key_));
    auto creds = find_stored_credentials(*db_, md5_tenant_, "alice", &key_);
    EXPECT_TRUE(creds->needs_upgrade);
    EXPECT_TRUE(upgrade_credentials(*db_, md5_tenant_, "alice", "pw", *creds, &key_));
    EXPECT_EQ(md5_secret(*db_, "md5", "alice", &key_), md5_secret_of("alice", "pw"));
    EXPECT_FALSE(find_stored_credentials(*db_, md5_tenant_, "alice", &key_)->needs_upgrade);
}

TEST_F(credential_store_test, a_login_upgrades_an_older_hash_without_ending_sessions) {
    add_user(*db_, "plain", "alice", "pw", &key_);
    set_column(plain_tenant_, "alice", "password_hash = $3", hash_password("pw", 100));
    const auto old = stored(plain_tenant_, "alice");
    auto creds = find_stored_credentials(*db_, plain_tenant_, "alice", &key_);
    ASSERT_TRUE(creds);
    EXPECT_TRUE(creds->needs_upgrade);

    EXPECT_TRUE(upgrade_credentials(*db_, plain_tenant_, "alice", "pw", *creds, &key_));
    const auto now = stored(plain_tenant_, "alice");
    EXPECT_TRUE(now.hash.starts_with("pbkdf2-sha256$" + std::to_string(pbkdf2_iterations()) + "$"));
    EXPECT_TRUE(verify_password("pw", now.hash));
    EXPECT_EQ(now.changed_at, old.changed_at);
    EXPECT_FALSE(find_stored_credentials(*db_, plain_tenant_, "alice", &key_)->needs_upgrade);
    EXPECT_TRUE(now.sealed.empty());
}

TEST_F(credential_store_test, an_upgrade_never_overwrites_a_password_changed_meanwhile) {
    add_user(*db_, "plain", "alice", "pw", &key_);
    set_column(plain_tenant_, "alice", "password_hash = $3", hash_password("pw", 100));
    const auto verified = find_stored_credentials(*db_, plain_tenant_, "alice", &key_).value();
    set_password(*db_, "plain", "alice", "new", &key_);
    EXPECT_FALSE(upgrade_credentials(*db_, plain_tenant_, "alice", "pw", verified, &key_));
    EXPECT_TRUE(verify_password("new", stored(plain_tenant_, "alice").hash));
}

TEST_F(credential_store_test, set_password_records_when_the_credentials_changed) {
    add_user(*db_, "md5", "alice", "pw", &key_);
    const auto before = stored(md5_tenant_, "alice");
    set_password(*db_, "md5", "alice", "pw2", &key_);
    const auto after = stored(md5_tenant_, "alice");
    EXPECT_NE(after.changed_at, before.changed_at);
    EXPECT_NE(after.sealed, before.sealed);
    EXPECT_EQ(md5_secret(*db_, "md5", "alice", &key_), md5_secret_of("alice", "pw2"));
}

TEST_F(credential_store_test, start_up_seals_the_plaintext_secrets_of_older_databases_and_refuses_another_key) {
    const auto other = secret_key::generate();
    add_user(*db_, "md5", "alice", "pw");
    add_user(*db_, "plain", "bob", "pw");
    set_column(md5_tenant_, "alice", "legacy_md5_secret = $3, md5_secret_sealed = NULL", md5_secret_of("alice", "pw"));
    set_column(plain_tenant_, "bob", "legacy_md5_secret = $3", md5_secret_of("bob", "pw"));
    // Until the key is prepared the plaintext still serves md5 logins.
    EXPECT_EQ(md5_secret(*db_, "md5", "alice", &key_), md5_secret_of("alice", "pw"));

    const auto done = prepare_secret_key(*db_, &key_);
    EXPECT_EQ(done.sealed, 1);
    EXPECT_EQ(done.dropped, 1);
    EXPECT_FALSE(stored(md5_tenant_, "alice").legacy);
    EXPECT_FALSE(stored(plain_tenant_, "bob").legacy);
    EXPECT_EQ(md5_secret(*db_, "md5", "alice", &key_), md5_secret_of("alice", "pw"));
    EXPECT_EQ(prepare_secret_key(*db_, &key_).sealed, 0);
    EXPECT_THROW(prepare_secret_key(*db_, &other), std::runtime_error);
}

TEST_F(credential_store_test, a_new_key_is_accepted_while_nothing_is_sealed) {
    const auto other = secret_key::generate();
    prepare_secret_key(*db_, &other);
    EXPECT_NO_THROW(prepare_secret_key(*db_, &key_));
    add_user(*db_, "md5", "alice", "pw", &key_);
    EXPECT_NO_THROW(prepare_secret_key(*db_, &key_));
}

// Without a configured key the database's own serves (instances with their own data directories agree on it);
// configuring a key later moves the secrets to it and deletes the database's key.
TEST_F(credential_store_test, uses_the_databases_own_key_until_one_is_configured_then_moves_to_it) {
    add_user(*db_, "md5", "alice", "pw");
    EXPECT_FALSE(stored(md5_tenant_, "alice").sealed.empty());
    EXPECT_EQ(md5_secret(*db_, "md5", "alice"), md5_secret_of("alice", "pw"));
    EXPECT_EQ(find_stored_credentials(*db_, md5_tenant_, "alice")->md5_secret, md5_secret_of("alice", "pw"));
    pg_auth_throttle throttle(*db_, {});
    EXPECT_EQ(throttle.check(md5_tenant_, "alice", "phone", "").account->md5_secret, md5_secret_of("alice", "pw"));
    EXPECT_EQ(prepare_secret_key(*db_, nullptr).resealed, 0);

    EXPECT_EQ(prepare_secret_key(*db_, &key_).resealed, 1);
    EXPECT_EQ(md5_secret(*db_, "md5", "alice", &key_), md5_secret_of("alice", "pw"));
    const auto keys = in_transaction(*db_, [](pqxx::work& tx) {
        return tx.exec1("SELECT count(*) FROM server_secrets WHERE name = 'md5_secret_key'")[0].as<int>();
    });
    EXPECT_EQ(keys, 0);
    const auto other = secret_key::generate();
    EXPECT_THROW(prepare_secret_key(*db_, &other), std::runtime_error);
}

// Restore (issue 39) asks the restored database which key its secrets need before a server is started.
TEST_F(credential_store_test, the_key_record_tells_which_key_a_start_would_accept) {
    const auto other = secret_key::generate();
    auto record = read_secret_key_record(*db_);
    EXPECT_EQ(record.sealed, 0);
    EXPECT_TRUE(record.accepts(&other)) << "nothing sealed: any key";
    prepare_secret_key(*db_, &key_);
    add_user(*db_, "md5", "alice", "pw", &key_);
    record = read_secret_key_record(*db_);
    EXPECT_EQ(record.sealed, 1);
    EXPECT_EQ(record.fingerprint, key_.fingerprint());
    EXPECT_FALSE(record.database_fingerprint);
    EXPECT_TRUE(record.accepts(&key_));
    EXPECT_FALSE(record.accepts(&other));
    EXPECT_FALSE(record.accepts(nullptr));
    EXPECT_THROW(prepare_secret_key(*db_, &other), std::runtime_error) << "what accepts() foretold";
}

TEST_F(credential_store_test, the_key_record_accepts_any_key_over_the_databases_own) {
    add_user(*db_, "md5", "alice", "pw");
    prepare_secret_key(*db_, nullptr);
    const auto record = read_secret_key_record(*db_);
    ASSERT_TRUE(record.database_fingerprint);
    EXPECT_EQ(record.fingerprint, record.database_fingerprint);
    EXPECT_TRUE(record.accepts(nullptr));
    EXPECT_TRUE(record.accepts(&key_));
    EXPECT_NO_THROW(prepare_secret_key(*db_, &key_));
}

// A lost key (or a secret sealed under another one) must not keep md5 logins broken for good.
TEST_F(credential_store_test, a_login_replaces_an_md5_secret_that_does_not_open) {
    const auto lost = secret_key::generate();
    add_user(*db_, "md5", "alice", "pw", &lost);
    auto creds = find_stored_credentials(*db_, md5_tenant_, "alice", &key_).value();
    EXPECT_TRUE(creds.md5_secret.empty());
    EXPECT_TRUE(creds.needs_upgrade);
    EXPECT_TRUE(upgrade_credentials(*db_, md5_tenant_, "alice", "pw", creds, &key_));
    EXPECT_EQ(md5_secret(*db_, "md5", "alice", &key_), md5_secret_of("alice", "pw"));
}

}  // namespace
}  // namespace syncml::persistence
