#include "persistence/accounts/accounts.hpp"

#include <gtest/gtest.h>

#include "persistence/accounts/auth_throttle.hpp"
#include "persistence/accounts/password_hash.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

// Whether the user's stored hash takes the password: false for an unknown tenant or user, or a disabled one (the
// account auth/login.cpp checks a login against).
bool password_accepted(database& db, std::string_view tenant, std::string_view user, std::string_view password) {
    const auto found = find_tenant(db, tenant);
    if (!found) return false;
    const auto check = pg_auth_throttle(db, {}).check(found->id, std::string(user), "", "");
    return check.account && verify_password(password, check.account->password_hash);
}

class accounts_test : public testing::migrated_database_test {
  protected:
    database& db() { return *db_; }

    // What the protocol engine does when a device first syncs: a device row and a device store; and a session, a
    // resume pointer and a match key of the user's contacts.
    std::int64_t add_device_with_store(std::string_view tenant, std::string_view user, const std::string& uri) {
        const auto owner = find_user(db(), tenant, user).value();
        return in_transaction(db(), [&](pqxx::work& tx) {
            const auto device =
                tx.exec_params1(
                      "INSERT INTO devices (tenant_id, user_id, device_uri, last_seen) VALUES ($1, $2, $3, now()) "
                      "RETURNING device_id",
                      owner.tenant_id, owner.id, uri)[0]
                    .as<std::int64_t>();
            tx.exec_params(
                "INSERT INTO device_stores (tenant_id, user_id, device_id, datastore_id, remote_uri, "
                "client_last_anchor, "
                "server_last_anchor, last_modseq_seen, needs_slow_sync) "
                "SELECT $1, $3, $2, datastore_id, './contacts', 'c1', 's1', 42, false FROM datastores "
                "WHERE tenant_id = $1 AND user_id = $3 AND name = 'contacts'",
                owner.tenant_id, device, owner.id);
            tx.exec_params(
                "INSERT INTO sessions (tenant_id, device_uri, syncml_session_id, device_id, user_id, expires_at) "
                "VALUES ($1, $2, '1', $3, $4, now() + interval '5 minutes')",
                owner.tenant_id, uri, device, owner.id);
            tx.exec_params(
                "INSERT INTO resume_pointers (tenant_id, user_id, device_uri, pointer, syncml_session_id, expires_at) "
                "VALUES ($1, $2, $3, 'resume:1', '1', now() + interval '5 minutes')",
                owner.tenant_id, owner.id, uri);
            tx.exec_params(
                "INSERT INTO item_match_keys (tenant_id, user_id, datastore_id, match_key, item_id) "
                "SELECT $1, $2, datastore_id, 'uid:' || $3, 1 FROM datastores "
                "WHERE tenant_id = $1 AND user_id = $2 AND name = 'contacts'",
                owner.tenant_id, owner.id, uri);
            return device;
        });
    }

    // The rows of `table` by `column`: "IMEI:1=1,IMEI:2=1".
    std::string rows_by_device(const std::string& table, const std::string& column = "device_uri") {
        return in_transaction(db(), [&](pqxx::work& tx) {
            return tx
                .exec1("SELECT coalesce(string_agg(k || '=' || n, ',' ORDER BY k), '') FROM (SELECT " + column +
                       " AS k, count(*) AS n FROM " + table + " GROUP BY 1) c")[0]
                .as<std::string>();
        });
    }
};

TEST_F(accounts_test, a_users_id_is_the_key_of_its_tenant_and_name) {
    auto alice = add_user(db(), default_tenant, "alice", "pw");
    const auto key = in_transaction(db(), [&](pqxx::work& tx) {
        return tx.exec_params1("SELECT syncml_user_key($1, 'alice')", alice.tenant_id)[0].as<std::int64_t>();
    });
    EXPECT_EQ(alice.id, key);
    delete_user(db(), default_tenant, "alice");
    EXPECT_EQ(add_user(db(), default_tenant, "alice", "pw2").id, key) << "the same name gets the same id again";
    EXPECT_THROW(add_user(db(), default_tenant, "alice", "pw3"), already_exists);
}

TEST_F(accounts_test, add_list_find_and_delete_tenants) {
    tenant_settings settings;
    settings.on_conflict = conflict_policy::newest_wins;
    settings.auth_basic = false;
    settings.max_sessions = 7;
    const auto added = add_tenant(db(), "acme", settings);
    EXPECT_EQ(added.name, "acme");
    EXPECT_GT(added.id, 0);

    const auto found = find_tenant(db(), "acme");
    ASSERT_TRUE(found);
    EXPECT_EQ(found->id, added.id);
    EXPECT_EQ(found->settings.on_conflict, conflict_policy::newest_wins);
    EXPECT_FALSE(found->settings.auth_basic);
    EXPECT_TRUE(found->settings.auth_md5);
    EXPECT_EQ(found->settings.max_sessions, 7);

    const auto all = list_tenants(db());
    ASSERT_EQ(all.size(), 2u);  // sorted: acme, default
    EXPECT_EQ(all[0].name, "acme");
    EXPECT_EQ(all[1].name, default_tenant);

    delete_tenant(db(), "acme");
    EXPECT_FALSE(find_tenant(db(), "acme"));
    EXPECT_THROW(delete_tenant(db(), "acme"), not_found);
}

TEST_F(accounts_test, update_a_tenants_settings) {
    add_tenant(db(), "acme");
    tenant_settings settings;
    settings.on_conflict = conflict_policy::duplicate;
    settings.auth_md5 = false;
    settings.max_object_bytes = 2048;
    const auto updated = update_tenant(db(), "acme", settings);
    EXPECT_EQ(updated.settings.on_conflict, conflict_policy::duplicate);
    const auto found = find_tenant(db(), "acme").value();
    EXPECT_EQ(found.settings.on_conflict, conflict_policy::duplicate);
    EXPECT_FALSE(found.settings.auth_md5);
    EXPECT_TRUE(found.settings.auth_basic);
    EXPECT_EQ(found.settings.max_object_bytes, 2048);
    EXPECT_EQ(find_tenant(db(), "default").value().settings.on_conflict, conflict_policy::merge);
    EXPECT_THROW(update_tenant(db(), "nowhere", settings), not_found);
    settings.max_sessions = 0;
    EXPECT_THROW(update_tenant(db(), "acme", settings), std::invalid_argument);
}

TEST_F(accounts_test, reject_duplicate_and_malformed_tenants) {
    add_tenant(db(), "acme");
    EXPECT_THROW(add_tenant(db(), "acme"), already_exists);
    EXPECT_THROW(add_tenant(db(), ""), std::invalid_argument);
    EXPECT_THROW(add_tenant(db(), "-leading-dash"), std::invalid_argument);
    EXPECT_THROW(add_tenant(db(), "has space"), std::invalid_argument);
    EXPECT_THROW(add_tenant(db(), std::string(64, 'a')), std::invalid_argument);
    tenant_settings tiny;
    tiny.max_message_bytes = 10;
    EXPECT_THROW(add_tenant(db(), "tiny", tiny), std::invalid_argument);
    EXPECT_THROW(delete_tenant(db(), default_tenant), std::invalid_argument);
}

TEST_F(accounts_test, add_users_with_their_standard_datastores) {
    const auto user = add_user(db(), "default", "alice", "s3cret");
    EXPECT_GT(user.id, 0);
    EXPECT_THROW(add_user(db(), "default", "alice", "other"), already_exists);
    EXPECT_THROW(add_user(db(), "nowhere", "bob", "pw"), not_found);
    EXPECT_THROW(add_user(db(), "default", "bad:name", "pw"), std::invalid_argument);
    EXPECT_THROW(add_user(db(), "default", "bob", ""), std::invalid_argument);

    add_user(db(), "default", "bob", "pw");
    const auto users = list_users(db(), "default");
    ASSERT_EQ(users.size(), 2u);
    EXPECT_EQ(users[0].name, "alice");
    EXPECT_EQ(users[1].name, "bob");
    EXPECT_THROW(list_users(db(), "nowhere"), not_found);

    const auto stores = in_transaction(db(), [&](pqxx::work& tx) {
        return tx
            .exec_params1(
                "SELECT string_agg(kind, ',' ORDER BY kind) FROM datastores WHERE tenant_id = $1 "
                "AND user_id = $2",
                user.tenant_id, user.id)[0]
            .as<std::string>();
    });
    EXPECT_EQ(stores, "calendar,contacts,memos,tasks");
}

TEST_F(accounts_test, verify_passwords_and_md5_secrets_per_tenant) {
    const auto key = secret_key::generate();
    add_tenant(db(), "acme");
    add_user(db(), "default", "Bruce2", "OhBehave", &key);
    add_user(db(), "acme", "Bruce2", "different", &key);

    EXPECT_TRUE(password_accepted(db(), "default", "Bruce2", "OhBehave"));
    EXPECT_FALSE(password_accepted(db(), "default", "Bruce2", "different"));
    EXPECT_TRUE(password_accepted(db(), "acme", "Bruce2", "different"));
    EXPECT_FALSE(password_accepted(db(), "default", "nobody", "OhBehave"));
    EXPECT_FALSE(password_accepted(db(), "nowhere", "Bruce2", "OhBehave"));

    EXPECT_EQ(md5_secret(db(), "default", "Bruce2", &key), "PtEdr8lBQ45IbT1bZIkrOQ==");
    EXPECT_NE(md5_secret(db(), "acme", "Bruce2", &key), md5_secret(db(), "default", "Bruce2", &key));
    EXPECT_FALSE(md5_secret(db(), "default", "nobody", &key));

    set_password(db(), "default", "Bruce2", "new one", &key);
    EXPECT_FALSE(password_accepted(db(), "default", "Bruce2", "OhBehave"));
    EXPECT_TRUE(password_accepted(db(), "default", "Bruce2", "new one"));
    EXPECT_EQ(md5_secret(db(), "default", "Bruce2", &key), md5_secret_of("Bruce2", "new one"));
    EXPECT_THROW(set_password(db(), "default", "nobody", "x", &key), not_found);
}

TEST_F(accounts_test, list_a_users_devices) {
    add_user(db(), "default", "alice", "pw");
    EXPECT_TRUE(list_devices(db(), "default", "alice").empty());
    add_device_with_store("default", "alice", "IMEI:123");
    const auto devices = list_devices(db(), "default", "alice");
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].device_uri, "IMEI:123");
    EXPECT_EQ(devices[0].stores, 1);
    ASSERT_TRUE(devices[0].last_seen);
    EXPECT_EQ(devices[0].last_seen->size(), 20u);  // 2026-01-01T00:00:00Z
    EXPECT_THROW(list_devices(db(), "default", "nobody"), not_found);
}

TEST_F(accounts_test, reset_a_device_so_that_its_next_sync_is_slow) {
    add_user(db(), "default", "alice", "pw");
    add_user(db(), "default", "bob", "pw");
    add_device_with_store("default", "alice", "IMEI:123");
    add_device_with_store("default", "bob", "IMEI:999");

    EXPECT_EQ(reset_device(db(), "default", "IMEI:123"), 1);
    const auto state = in_transaction(db(), [](pqxx::work& tx) {
        return tx.exec(
            "SELECT d.device_uri, s.client_last_anchor IS NULL AND s.server_last_anchor IS NULL, "
            "s.last_modseq_seen, s.needs_slow_sync, "
            "(SELECT count(*) FROM sessions x WHERE x.device_uri = d.device_uri) "
            "FROM device_stores s JOIN devices d USING (tenant_id, device_id) ORDER BY d.device_uri");
    });
    ASSERT_EQ(state.size(), 2u);
    EXPECT_TRUE(state[0][1].as<bool>());
    EXPECT_EQ(state[0][2].as<int>(), 0);
    EXPECT_TRUE(state[0][3].as<bool>());
    EXPECT_EQ(state[0][4].as<int>(), 0);
    // The other device is untouched.
    EXPECT_FALSE(state[1][1].as<bool>());
    EXPECT_EQ(state[1][2].as<int>(), 42);
    EXPECT_FALSE(state[1][3].as<bool>());
    EXPECT_EQ(state[1][4].as<int>(), 1);
    EXPECT_EQ(rows_by_device("resume_pointers"), "IMEI:999=1") << "the reset device's resume pointers go";

    EXPECT_THROW(reset_device(db(), "default", "IMEI:unknown"), not_found);
    EXPECT_THROW(reset_device(db(), "nowhere", "IMEI:123"), not_found);
}

TEST_F(accounts_test, delete_a_tenant_with_everything_it_owns) {
    add_tenant(db(), "acme");
    add_user(db(), "acme", "alice", "pw");
    add_device_with_store("acme", "alice", "IMEI:1");
    // A tenant with users goes only when that is what the admin asked for.
    EXPECT_THROW(delete_tenant(db(), "acme"), std::invalid_argument);
    EXPECT_TRUE(find_tenant(db(), "acme"));
    delete_tenant(db(), "acme", true);
    const auto left = in_transaction(db(), [](pqxx::work& tx) {
        return tx
            .exec1(
                "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM devices) + "
                "(SELECT count(*) FROM datastores) + (SELECT count(*) FROM sessions) + "
                "(SELECT count(*) FROM resume_pointers) + (SELECT count(*) FROM item_match_keys)")[0]
            .as<int>();
    });
    EXPECT_EQ(left, 0);
}

TEST_F(accounts_test, delete_a_user_with_its_devices_and_datastores) {
    add_user(db(), "default", "alice", "pw");
    add_user(db(), "default", "bob", "pw");
    add_device_with_store("default", "alice", "IMEI:1");
    add_device_with_store("default", "bob", "IMEI:2");
    delete_user(db(), "default", "alice");
    EXPECT_FALSE(find_user(db(), "default", "alice"));
    EXPECT_TRUE(find_user(db(), "default", "bob"));
    EXPECT_FALSE(password_accepted(db(), "default", "alice", "pw"));
    const auto left = in_transaction(db(), [](pqxx::work& tx) {
        return tx.exec1("SELECT (SELECT count(*) FROM devices) + (SELECT count(*) FROM datastores)")[0].as<int>();
    });
    EXPECT_EQ(left, 5);  // bob's device and four datastores
    EXPECT_EQ(rows_by_device("item_match_keys", "match_key"), "uid:IMEI:2=1") << "match keys have no foreign key";
    EXPECT_EQ(rows_by_device("resume_pointers"), "IMEI:2=1");
    EXPECT_THROW(delete_user(db(), "default", "alice"), not_found);
}

TEST_F(accounts_test, a_disabled_user_cannot_log_in_until_enabled_and_its_sessions_end) {
    add_user(db(), "default", "alice", "pw");
    const auto changed_before = in_transaction(
        db(), [](pqxx::work& tx) { return tx.exec1("SELECT credentials_changed_at FROM users")[0].as<std::string>(); });
    set_user_disabled(db(), "default", "alice", true);
    EXPECT_FALSE(password_accepted(db(), "default", "alice", "pw"));
    EXPECT_TRUE(list_users(db(), "default").at(0).disabled);
    const auto changed_after = in_transaction(
        db(), [](pqxx::work& tx) { return tx.exec1("SELECT credentials_changed_at FROM users")[0].as<std::string>(); });
    EXPECT_NE(changed_after, changed_before);
    set_user_disabled(db(), "default", "alice", false);
    EXPECT_TRUE(password_accepted(db(), "default", "alice", "pw"));
    EXPECT_FALSE(list_users(db(), "default").at(0).disabled);
    EXPECT_THROW(set_user_disabled(db(), "default", "nobody", true), not_found);
}

TEST_F(accounts_test, delete_a_device_of_a_user_and_keep_the_users_items) {
    add_user(db(), "default", "alice", "pw");
    add_user(db(), "default", "bob", "pw");
    add_device_with_store("default", "alice", "IMEI:1");
    add_device_with_store("default", "bob", "IMEI:1");
    EXPECT_THROW(delete_device(db(), "default", "alice", "IMEI:2"), not_found);
    delete_device(db(), "default", "alice", "IMEI:1");
    EXPECT_TRUE(list_devices(db(), "default", "alice").empty());
    // Bob's device of the same id is another device.
    EXPECT_EQ(list_devices(db(), "default", "bob").size(), 1u);
    const auto left = in_transaction(db(), [](pqxx::work& tx) {
        return tx.exec1("SELECT (SELECT count(*) FROM device_stores) * 100 + (SELECT count(*) FROM datastores)")[0]
            .as<int>();
    });
    EXPECT_EQ(left, 108);  // bob's device store; both users' four datastores
    EXPECT_EQ(rows_by_device("resume_pointers"), "IMEI:1=1") << "bob's";
}

TEST(conflict_policy, round_trips_through_text) {
    for (auto policy : {conflict_policy::merge, conflict_policy::server_wins, conflict_policy::client_wins,
                        conflict_policy::newest_wins, conflict_policy::duplicate}) {
        EXPECT_EQ(parse_conflict_policy(to_string(policy)), policy);
    }
    EXPECT_EQ(parse_conflict_policy("server-wins"), conflict_policy::server_wins);
    EXPECT_FALSE(parse_conflict_policy("whatever"));
}

}  // namespace
}  // namespace syncml::persistence
