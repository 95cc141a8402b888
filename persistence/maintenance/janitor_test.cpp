#include "persistence/maintenance/janitor.hpp"

#include <gtest/gtest.h>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using janitor_test = testing::database_test;

int count_sessions(database& db) {
    return in_transaction(db, [](pqxx::work& tx) { return tx.exec1("SELECT count(*) FROM sessions")[0].as<int>(); });
}

TEST_F(janitor_test, deletes_expired_sessions_of_every_tenant_in_batches) {
    database db(url());
    apply_migrations(db);
    add_tenant(db, "acme");
    for (const char* tenant : {"default", "acme"}) add_user(db, tenant, "u", "pw");
    in_transaction(db, [](pqxx::work& tx) {
        tx.exec(
            "INSERT INTO sessions (tenant_id, user_id, device_uri, syncml_session_id, expires_at) "
            "SELECT u.tenant_id, u.user_id, 'dev' || g, g::text, now() + CASE WHEN g % 3 = 0 THEN interval '1 hour' "
            "ELSE interval '-1 second' END FROM users u, generate_series(1, 25) g");
    });
    ASSERT_EQ(count_sessions(db), 50);
    // 2 tenants x 17 expired sessions (g % 3 != 0 for 17 of 1..25), in batches of 5.
    EXPECT_EQ(delete_expired_sessions(db, 5), 34u);
    EXPECT_EQ(count_sessions(db), 16);
    EXPECT_EQ(delete_expired_sessions(db, 5), 0u);
}

TEST_F(janitor_test, leaves_a_session_alone_while_a_worker_holds_it) {
    database db(url());
    apply_migrations(db);
    add_user(db, "default", "u", "pw");
    in_transaction(db, [](pqxx::work& tx) {
        tx.exec(
            "INSERT INTO sessions (tenant_id, user_id, device_uri, syncml_session_id, expires_at) "
            "SELECT tenant_id, user_id, 'dev', '1', now() - interval '1 minute' FROM users");
    });
    database worker(url());
    auto& connection = connection_of(worker);
    pqxx::work held(connection);
    held.exec("SELECT * FROM sessions FOR UPDATE");
    EXPECT_EQ(delete_expired_sessions(db), 0u);
    held.commit();
    EXPECT_EQ(delete_expired_sessions(db), 1u);
}

std::string value_of(database& db, const std::string& query) {
    return in_transaction(db, [&](pqxx::work& tx) { return tx.exec1(query)[0].as<std::string>("NULL"); });
}

void exec(database& db, const std::string& statement) {
    in_transaction(db, [&](pqxx::work& tx) { tx.exec0(statement); });
}

TEST_F(janitor_test, one_pass_at_a_time_over_all_instances) {
    database db(url());
    apply_migrations(db);
    exec(db, "UPDATE janitor_lease SET holder = 'other', expires_at = now() + interval '1 minute'");
    EXPECT_FALSE(run_janitor(db, "me").ran);
    exec(db, "UPDATE janitor_lease SET expires_at = now() - interval '1 second'");
    EXPECT_TRUE(run_janitor(db, "me").ran);
    // A finished pass frees the lease at once.
    EXPECT_TRUE(run_janitor(db, "other").ran);
}

// Two tenants with one user each, a datastore "contacts" and two device stores: "seen" saw every change up to
// modseq 10, "behind" only up to 3.
class janitor_retention_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        for (const char* tenant : {"acme", "keeper"}) {
            add_tenant(*db_, tenant);
            add_user(*db_, tenant, "u", "pw");
        }
        exec(*db_,
             "INSERT INTO devices (tenant_id, user_id, device_uri) SELECT tenant_id, user_id, d "
             "FROM users, unnest(ARRAY['seen', 'behind']) d");
        exec(*db_,
             "INSERT INTO device_stores (tenant_id, user_id, device_id, datastore_id, remote_uri, client_last_anchor, "
             "server_last_anchor, last_modseq_seen, needs_slow_sync) SELECT d.tenant_id, d.user_id, d.device_id, "
             "s.datastore_id, "
             "'./c', 'a', 'b', CASE d.device_uri WHEN 'seen' THEN 10 ELSE 3 END, false FROM devices d "
             "JOIN datastores s ON s.tenant_id = d.tenant_id AND s.kind = 'contacts'");
    }

    // An item of the tenant's contacts at `modseq`, last changed `days` ago.
    void add_item(const std::string& tenant, int modseq, bool deleted, int days) {
        exec(*db_,
             "INSERT INTO items (tenant_id, user_id, datastore_id, content_type, content, modseq, deleted, updated_at) "
             "SELECT s.tenant_id, s.user_id, s.datastore_id, 'text/vcard', 'x', " +
                 std::to_string(modseq) + ", " + (deleted ? "true" : "false") + ", now() - interval '" +
                 std::to_string(days) +
                 " days' FROM datastores s JOIN tenants t USING (tenant_id) "
                 "WHERE t.name = '" +
                 tenant + "' AND s.kind = 'contacts'");
    }

    std::string items_of(const std::string& tenant) {
        return value_of(*db_,
                        "SELECT string_agg(modseq::text, ',' ORDER BY modseq) FROM items JOIN tenants t "
                        "USING (tenant_id) WHERE t.name = '" +
                            tenant + "'");
    }

    std::string slow_devices_of(const std::string& tenant) {
        return value_of(*db_,
                        "SELECT string_agg(d.device_uri, ',' ORDER BY d.device_uri) FROM device_stores ds "
                        "JOIN devices d USING (tenant_id, device_id) JOIN tenants t ON t.tenant_id = ds.tenant_id "
                        "WHERE t.name = '" +
                            tenant + "' AND ds.needs_slow_sync AND ds.client_last_anchor IS NULL");
    }
};

TEST_F(janitor_retention_test, purges_old_tombstones_and_gives_devices_that_missed_them_a_slow_sync) {
    exec(*db_, "UPDATE tenants SET tombstone_retention_days = 200 WHERE name = 'keeper'");
    for (const char* tenant : {"acme", "keeper"}) {
        add_item(tenant, 2, true, 100);   // an old delete that every device saw
        add_item(tenant, 5, true, 100);   // an old delete that "behind" has not seen
        add_item(tenant, 6, true, 10);    // a recent delete
        add_item(tenant, 7, false, 400);  // an old item that is not deleted
    }
    auto report = run_janitor(*db_, "me", janitor_settings{.batch = 1});
    EXPECT_TRUE(report.ran);
    EXPECT_EQ(report.tombstones, 2u);
    EXPECT_EQ(report.slow_syncs_forced, 1u);
    EXPECT_EQ(items_of("acme"), "6,7");
    EXPECT_EQ(slow_devices_of("acme"), "behind");
    // A tenant that keeps tombstones longer keeps these.
    EXPECT_EQ(items_of("keeper"), "2,5,6,7");
    EXPECT_EQ(slow_devices_of("keeper"), "NULL");
    EXPECT_EQ(run_janitor(*db_, "me").tombstones, 0u);
}

TEST_F(janitor_retention_test, deletes_old_failed_login_counters_and_abandoned_chunks) {
    exec(
        *db_,
        "INSERT INTO auth_failures (tenant_id, shard_key, scope, subject, failures, window_start, last_failure) "
        "SELECT tenant_id, syncml_user_key(tenant_id, s), 'user', s, 3, now() - CASE s WHEN 'new' THEN interval '1 "
        "minute' ELSE interval '3 days' END, now() - CASE s WHEN 'old' THEN interval '3 days' ELSE interval '1 minute' "
        "END FROM tenants, unnest(ARRAY['old', 'new', 'backing-off']) s WHERE name = 'acme'");
    // "seen" stopped sending its object two days ago; "behind" is still sending one (its first chunk is old).
    exec(
        *db_,
        "INSERT INTO incoming_chunks (tenant_id, user_id, device_store_id, byte_offset, data, created_at) "
        "SELECT ds.tenant_id, ds.user_id, ds.device_store_id, o, 'x', now() - CASE WHEN d.device_uri = 'seen' OR o = 0 "
        "THEN interval '2 days' ELSE interval '1 minute' END FROM device_stores ds JOIN devices d "
        "USING (tenant_id, device_id), generate_series(0, 2) o JOIN tenants t ON true "
        "WHERE t.tenant_id = ds.tenant_id AND t.name = 'acme'");
    auto report = run_janitor(*db_, "me", janitor_settings{.batch = 2});
    EXPECT_EQ(report.auth_failures, 1u);
    EXPECT_EQ(report.chunks, 3u);
    // A user-wide counter whose streak began long ago but whose last failure is recent still counts (issue 35).
    EXPECT_EQ(value_of(*db_, "SELECT string_agg(subject, ',' ORDER BY subject) FROM auth_failures"), "backing-off,new");
    EXPECT_EQ(value_of(*db_, "SELECT count(*) FROM incoming_chunks"), "3");
}

TEST_F(janitor_retention_test, forgets_dav_client_addresses_not_seen_for_30_days) {
    exec(*db_,
         "INSERT INTO known_clients (tenant_id, user_id, address, last_login) "
         "SELECT u.tenant_id, u.user_id, a, now() - CASE a WHEN '192.0.2.1' THEN interval '31 days' "
         "ELSE interval '29 days' END FROM (SELECT * FROM users ORDER BY user_id LIMIT 1) u, "
         "unnest(ARRAY['192.0.2.1', '192.0.2.2']) a");
    auto report = run_janitor(*db_, "me", janitor_settings{.batch = 1});
    EXPECT_EQ(report.known_clients, 1u);
    EXPECT_EQ(value_of(*db_, "SELECT string_agg(address, ',') FROM known_clients"), "192.0.2.2");
}

TEST_F(janitor_retention_test, forgets_session_routes_and_starts_not_refreshed_for_two_days) {
    exec(*db_,
         "INSERT INTO session_routes (device_key, tenant_id, device_uri, client_address, user_id, updated_at, "
         "stale_at) SELECT syncml_device_key(u.tenant_id, d), u.tenant_id, d, '192.0.2.1', u.user_id, now() - CASE d "
         "WHEN 'old' THEN interval '49 hours' ELSE interval '47 hours' END, now() FROM (SELECT * FROM users ORDER BY "
         "user_id LIMIT 1) u, unnest(ARRAY['old', 'young']) d");
    exec(*db_,
         "INSERT INTO session_starts (device_key, tenant_id, device_uri, user_id, syncml_session_id, started_at) "
         "SELECT syncml_device_key(u.tenant_id, d), u.tenant_id, d, u.user_id, '1', now() - CASE d WHEN 'old' THEN "
         "interval '49 hours' ELSE interval '47 hours' END FROM (SELECT * FROM users ORDER BY user_id LIMIT 1) u, "
         "unnest(ARRAY['old', 'young']) d");
    auto report = run_janitor(*db_, "me", janitor_settings{.batch = 1});
    EXPECT_EQ(report.session_routes, 2u);
    EXPECT_EQ(value_of(*db_, "SELECT string_agg(device_uri, ',') FROM session_routes"), "young");
    EXPECT_EQ(value_of(*db_, "SELECT string_agg(device_uri, ',') FROM session_starts"), "young");
}

// Resume pointers have a table of their own (migration 0023) and expire like sessions.
TEST_F(janitor_retention_test, deletes_expired_resume_pointers) {
    exec(*db_,
         "INSERT INTO resume_pointers (tenant_id, user_id, device_uri, pointer, syncml_session_id, expires_at) "
         "SELECT tenant_id, user_id, device_uri, 'resume:' || device_id, '1', now() + CASE device_uri WHEN 'seen' "
         "THEN interval '-1 second' ELSE interval '1 hour' END FROM devices");
    auto report = run_janitor(*db_, "me", janitor_settings{.batch = 1});
    EXPECT_EQ(report.resume_pointers, 2u);
    EXPECT_EQ(report.sessions, 0u);
    EXPECT_EQ(value_of(*db_, "SELECT string_agg(DISTINCT device_uri, ',') || count(*) FROM resume_pointers"),
              "behind2");
    exec(*db_, "UPDATE resume_pointers SET expires_at = now() - interval '1 second'");
    EXPECT_EQ(delete_expired_sessions(*db_, 1), 2u) << "with the sessions";
}

TEST_F(janitor_retention_test, deletes_audit_entries_older_than_the_audit_age) {
    exec(*db_,
         "INSERT INTO admin_audit (at, actor, action, result) SELECT now() - make_interval(days => d), 'cli', "
         "'user.create', 'ok' FROM unnest(ARRAY[400, 397, 30, 0]) d");
    auto report = run_janitor(*db_, "me", janitor_settings{.batch = 1});
    EXPECT_EQ(report.audit_entries, 2u);
    EXPECT_EQ(value_of(*db_, "SELECT count(*) FROM admin_audit"), "2");
    report = run_janitor(*db_, "me", janitor_settings{.audit_age = std::chrono::hours(24 * 7)});
    EXPECT_EQ(report.audit_entries, 1u);
}

}  // namespace
}  // namespace syncml::persistence
