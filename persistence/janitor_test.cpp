#include "persistence/janitor.hpp"

#include <gtest/gtest.h>

#include "persistence/accounts.hpp"
#include "persistence/migrations.hpp"
#include "persistence/test_support.hpp"

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
    in_transaction(db, [](pqxx::work& tx) {
        tx.exec(
            "INSERT INTO sessions (tenant_id, device_uri, syncml_session_id, expires_at) "
            "SELECT t.tenant_id, 'dev' || g, g::text, now() + CASE WHEN g % 3 = 0 THEN interval '1 hour' "
            "ELSE interval '-1 second' END FROM tenants t, generate_series(1, 25) g");
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
    in_transaction(db, [](pqxx::work& tx) {
        tx.exec(
            "INSERT INTO sessions (tenant_id, device_uri, syncml_session_id, expires_at) "
            "SELECT tenant_id, 'dev', '1', now() - interval '1 minute' FROM tenants");
    });
    database worker(url());
    auto& connection = connection_of(worker);
    pqxx::work held(connection);
    held.exec("SELECT * FROM sessions FOR UPDATE");
    EXPECT_EQ(delete_expired_sessions(db), 0u);
    held.commit();
    EXPECT_EQ(delete_expired_sessions(db), 1u);
}

}  // namespace
}  // namespace syncml::persistence
