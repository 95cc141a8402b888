#include "persistence/maintenance/tenant_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using tenant_figures_test = testing::database_test;

void exec(database& db, const std::string& statement) {
    in_transaction(db, [&](pqxx::work& tx) { tx.exec0(statement); });
}

const tenant_figures& of(const std::vector<tenant_figures>& all, const std::string& tenant) {
    return *std::find_if(all.begin(), all.end(), [&](const tenant_figures& f) { return f.tenant == tenant; });
}

TEST_F(tenant_figures_test, counts_users_devices_bytes_sessions_and_users_near_quota_per_tenant) {
    database db(url());
    apply_migrations(db);
    tenant_settings small;
    small.max_sessions = 3;
    small.max_user_bytes = 1000;
    add_tenant(db, "acme", small);
    add_tenant(db, "empty");
    for (const char* user : {"a", "b", "c"}) add_user(db, "acme", user, "pw");
    add_user(db, "default", "d", "pw");
    // acme: a has 950 bytes (95% of 1000), b 100; a's two devices synced within the hour, b's one yesterday.
    exec(db,
         "UPDATE datastores d SET stored_bytes = CASE u.name WHEN 'a' THEN 950 WHEN 'b' THEN 100 ELSE 0 END FROM users "
         "u "
         "WHERE d.tenant_id = u.tenant_id AND d.user_id = u.user_id AND d.name = 'contacts'");
    exec(db,
         "INSERT INTO devices (tenant_id, user_id, device_uri, last_seen) SELECT tenant_id, user_id, 'dev' || g, "
         "CASE name WHEN 'b' THEN now() - interval '1 day' ELSE now() - interval '5 minutes' END FROM users, "
         "generate_series(1, CASE name WHEN 'a' THEN 2 ELSE 1 END) g");
    // Live: unfinished, a message 1 minute ago. Not live: finished, idle for 20 minutes, expired.
    exec(db,
         "INSERT INTO sessions (tenant_id, user_id, device_uri, syncml_session_id, expires_at, updated_at, "
         "finished_at) SELECT tenant_id, user_id, 'dev1', s::text, now() + interval '20 minutes', now() - CASE s WHEN "
         "4 THEN interval '20 minutes' ELSE interval '1 minute' END, CASE s WHEN 3 THEN now() END FROM users, "
         "generate_series(1, 4) s WHERE name = 'a'");
    const auto all = read_tenant_figures(db, std::chrono::hours(4));
    ASSERT_EQ(all.size(), 3U);
    const auto& acme = of(all, "acme");
    EXPECT_EQ(acme.users, 3);
    EXPECT_EQ(acme.devices, 4);
    EXPECT_EQ(acme.active_devices, 3);
    EXPECT_EQ(acme.stored_bytes, 1050);
    EXPECT_EQ(acme.live_sessions, 2);
    EXPECT_EQ(acme.max_sessions, 3);
    EXPECT_EQ(acme.users_near_quota, 1);
    EXPECT_EQ(of(all, "default").users, 1);
    EXPECT_EQ(of(all, "default").users_near_quota, 0) << "0 bytes are far from a 1 GiB quota";
    const auto& empty = of(all, "empty");
    EXPECT_EQ(empty.users + empty.devices + empty.stored_bytes + empty.live_sessions, 0);
}

}  // namespace
}  // namespace syncml::persistence
