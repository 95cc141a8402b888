#include "src/app/janitor_runner.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <cstdlib>

#include "persistence/pg/database.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_query.hpp"

namespace syncml::server {
namespace {

double counter(prometheus::Registry& registry, const std::string& name, const std::string& label = "",
               const std::string& value = "") {
    for (const auto& family : registry.Collect()) {
        if (family.name != name) continue;
        for (const auto& metric : family.metric) {
            if (label.empty() ||
                (!metric.label.empty() && metric.label[0].name == label && metric.label[0].value == value)) {
                return metric.counter.value;
            }
        }
    }
    return -1;
}

TEST(janitor_runner, counts_what_a_pass_removed_and_a_pass_another_instance_holds) {
    const char* url = std::getenv("SYNCML_TEST_DATABASE_URL");
    if (url == nullptr || *url == '\0') GTEST_SKIP() << "SYNCML_TEST_DATABASE_URL not set";
    persistence::database db(url);
    persistence::apply_migrations(db);
    persistence::query_value(db,
                             "WITH added AS (INSERT INTO users (tenant_id, user_id, name, password_hash) SELECT "
                             "tenant_id, syncml_user_key(tenant_id, 'janitor-runner-test'), 'janitor-runner-test', "
                             "'x' FROM tenants WHERE name = 'default' ON CONFLICT DO NOTHING RETURNING 1) "
                             "SELECT count(*) FROM added");
    persistence::query_value(db,
                             "INSERT INTO sessions (tenant_id, user_id, device_uri, syncml_session_id, expires_at) "
                             "SELECT tenant_id, user_id, 'janitor-runner-test', '1', now() - interval '1 minute' "
                             "FROM users WHERE name = 'janitor-runner-test' RETURNING 1");
    prometheus::Registry registry;
    spdlog::logger log{"test", std::make_shared<spdlog::sinks::null_sink_mt>()};
    janitor_runner runner(url, std::chrono::milliseconds(0), registry, log);
    auto report = runner.run_once();
    ASSERT_TRUE(report.ran);
    EXPECT_GE(report.sessions, 1u);
    EXPECT_EQ(persistence::query_value(db, "SELECT count(*) FROM sessions WHERE device_uri = 'janitor-runner-test'"),
              "0");
    EXPECT_EQ(counter(registry, "syncml_janitor_runs_total", "result", "ran"), 1);
    EXPECT_GE(counter(registry, "syncml_janitor_removed_total", "what", "sessions"), 1);
    persistence::query_value(db,
                             "UPDATE janitor_lease SET holder = 'elsewhere', expires_at = now() + interval '1 minute' "
                             "RETURNING 1");
    EXPECT_FALSE(runner.run_once().ran);
    EXPECT_EQ(counter(registry, "syncml_janitor_runs_total", "result", "skipped"), 1);
    persistence::query_value(db, "UPDATE janitor_lease SET expires_at = now() RETURNING 1");
}

}  // namespace
}  // namespace syncml::server
