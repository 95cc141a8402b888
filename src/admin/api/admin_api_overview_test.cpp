// The admin page's routes (admin_api_overview.hpp) through admin_api::answer, as a worker runs a request: with a token
// for all tenants and one limited to the test's tenant, against the test database.
#include "src/admin/api/admin_api_overview.hpp"

#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "persistence/accounts/admin_audit.hpp"
#include "persistence/accounts/admin_tokens.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/worker_pool.hpp"
#include "src/admin/api/admin_api.hpp"
#include "src/admin/cli/own_tenant_test_support.hpp"
#include "src/admin/common/json_reader.hpp"
#include "src/frontends/sync_activity.hpp"

namespace syncml::server {
namespace {

using result = session::engine_metrics::message_result;

class admin_overview_db : public testing::own_tenant_test {
  protected:
    void SetUp() override {
        open_tenant("overview-test");
        if (IsSkipped()) return;
        all_name_ = tenant_ + "-all";
        all_token_ = persistence::create_admin_token(*db_, all_name_, std::nullopt);
        tenant_token_ = persistence::create_admin_token(*db_, tenant_ + "-own", tenant_);
        pool_ = std::make_unique<persistence::worker_pool>(
            persistence::pool_settings{.urls = {std::getenv("SYNCML_TEST_DATABASE_URL")}, .threads = 1});
        activity_.record({.tenant = tenant_,
                          .user = "ann",
                          .device = "IMEI:1",
                          .address = "192.0.2.1",
                          .result = result::auth_failed,
                          .session_done = false},
                         now());
        activity_.record({.tenant = tenant_,
                          .user = "",
                          .device = "IMEI:1",
                          .address = "192.0.2.1",
                          .result = result::ok,
                          .session_done = true},
                         now());
        api_ = std::make_unique<admin_api>(*pool_, registry_, log_, std::nullopt,
                                           admin_instance{.version = "9.8.7",
                                                          .started_at = now() - 90,
                                                          .ready =
                                                              [](std::string& reason) {
                                                                  reason = "database at db.internal unreachable";
                                                                  return false;
                                                              },
                                                          .activity = &activity_});
    }
    void TearDown() override {
        if (db_) persistence::delete_admin_token(*db_, all_name_);
        testing::own_tenant_test::TearDown();
    }

    static std::int64_t now() {
        return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    }

    http_reply ask(const std::string& method, const std::string& target, const std::string& token,
                   const std::string& body = {}) {
        return api_->answer(*db_, {.method = method,
                                   .target = target,
                                   .content_type = body.empty() ? "" : "application/json",
                                   .authorization = "Bearer " + token,
                                   .body = body});
    }
    static json_value json(const http_reply& reply) {
        auto parsed = parse_json(reply.body, {.max_bytes = 1 << 20, .max_depth = 16});
        EXPECT_TRUE(parsed.value) << parsed.error << ": " << reply.body;
        return parsed.value.value_or(json_value{});
    }
    static std::string header(const http_reply& reply, const std::string& name) {
        for (const auto& [key, value] : reply.headers) {
            if (key == name) return value;
        }
        return {};
    }
    std::int64_t add_device(std::int64_t user_id, const std::string& uri, bool synced) {
        const auto id = std::stoll(
            persistence::query_value(*db_, "INSERT INTO devices (tenant_id, user_id, device_uri, last_seen) VALUES (" +
                                               std::to_string(ann_.tenant_id) + ", " + std::to_string(user_id) + ", '" +
                                               uri + "', now()) RETURNING device_id"));
        persistence::query_value(
            *db_,
            "INSERT INTO device_stores (tenant_id, user_id, device_id, datastore_id, remote_uri, "
            "needs_slow_sync, last_sync_at) SELECT tenant_id, user_id, " +
                std::to_string(id) + ", datastore_id, './contacts', " + (synced ? "false, now()" : "true, NULL") +
                " FROM datastores WHERE tenant_id = " + std::to_string(ann_.tenant_id) +
                " AND user_id = " + std::to_string(user_id) + " AND name = 'contacts' RETURNING device_id");
        return id;
    }

    std::string all_name_;
    std::string all_token_;
    std::string tenant_token_;
    std::unique_ptr<persistence::worker_pool> pool_;
    prometheus::Registry registry_;
    spdlog::logger log_{"test", std::make_shared<spdlog::sinks::null_sink_mt>()};
    sync_activity activity_;
    std::unique_ptr<admin_api> api_;
};

TEST_F(admin_overview_db, status_tells_version_uptime_readiness_schema_and_the_token_and_hides_why_from_a_tenant) {
    auto reply = ask("GET", "/admin/v1/status", all_token_);
    ASSERT_EQ(reply.status, 200) << reply.body;
    auto status = json(reply);
    EXPECT_EQ(status.find("version")->text, "9.8.7");
    EXPECT_GE(*status.find("uptime_seconds")->integer(), 90);
    EXPECT_FALSE(status.find("ready")->boolean);
    EXPECT_EQ(status.find("reason")->text, "database at db.internal unreachable");
    EXPECT_GT(*status.find("database")->find("schema_version")->integer(), 30);
    EXPECT_EQ(status.find("token")->find("name")->text, all_name_);
    EXPECT_EQ(status.find("token")->find("tenant")->type, json_value::kind::null);

    status = json(ask("GET", "/admin/v1/status", tenant_token_));
    EXPECT_EQ(status.find("reason")->type, json_value::kind::null);
    EXPECT_EQ(status.find("token")->find("tenant")->text, tenant_);
    EXPECT_EQ(ask("GET", "/admin/v1/status", "syncml_nothing").status, 401);
}

TEST_F(admin_overview_db, activity_and_failed_logins_are_the_tenants_own_for_a_tenant_token) {
    auto activity = json(ask("GET", "/admin/v1/activity?tenant=" + tenant_, all_token_));
    const auto& minutes = activity.find("minutes")->items;
    ASSERT_EQ(minutes.size(), 60u);
    EXPECT_EQ(*minutes.back().find("sessions")->integer(), 1);
    EXPECT_EQ(*minutes.back().find("errors")->integer(), 1);
    EXPECT_EQ(json(ask("GET", "/admin/v1/activity", tenant_token_)).find("tenant")->text, tenant_);
    EXPECT_EQ(ask("GET", "/admin/v1/activity?tenant=default", tenant_token_).status, 404);
    EXPECT_EQ(ask("GET", "/admin/v1/activity?tenant=no-such-tenant", all_token_).status, 404);

    const auto logins = json(ask("GET", "/admin/v1/failed-logins", tenant_token_));
    ASSERT_EQ(logins.items.size(), 1u);
    EXPECT_EQ(logins.items[0].find("user")->text, "ann");
    EXPECT_EQ(logins.items[0].find("address")->text, "192.0.2.1");
    EXPECT_EQ(ask("GET", "/admin/v1/failed-logins?limit=0", all_token_).status, 400);
}

TEST_F(admin_overview_db, a_tenants_devices_come_a_page_at_a_time_with_last_sync_slow_sync_and_last_error) {
    const auto bob = persistence::add_user(*db_, tenant_, "bob", "pw");
    add_device(ann_.id, "IMEI:1", true);
    add_device(bob.id, "IMEI:2", false);
    auto first = ask("GET", "/admin/v1/tenants/" + tenant_ + "/devices?limit=1", tenant_token_);
    ASSERT_EQ(first.status, 200) << first.body;
    auto page = json(first);
    ASSERT_EQ(page.items.size(), 1u);
    const auto& one = page.items[0];
    EXPECT_EQ(one.find("device")->text, "IMEI:1");
    EXPECT_EQ(one.find("user")->text, "ann");
    EXPECT_EQ(one.find("last_sync")->type, json_value::kind::string);
    EXPECT_FALSE(one.find("needs_slow_sync")->boolean);
    EXPECT_EQ(one.find("last_error")->find("message")->text, "authentication failed");
    const std::string link = header(first, "Link");
    ASSERT_TRUE(link.starts_with("</admin/v1/tenants/" + tenant_ + "/devices?limit=1&after=")) << link;
    const std::string next = link.substr(1, link.find('>') - 1);
    page = json(ask("GET", next, tenant_token_));
    ASSERT_EQ(page.items.size(), 1u);
    EXPECT_EQ(page.items[0].find("device")->text, "IMEI:2");
    EXPECT_TRUE(page.items[0].find("needs_slow_sync")->boolean);
    EXPECT_EQ(page.items[0].find("last_error")->type, json_value::kind::null);

    // A reset shows: the device's next sync is a slow one.
    ASSERT_EQ(ask("POST", "/admin/v1/tenants/" + tenant_ + "/devices/IMEI%3A1/reset", tenant_token_).status, 200);
    page = json(ask("GET", "/admin/v1/tenants/" + tenant_ + "/devices", tenant_token_));
    ASSERT_EQ(page.items.size(), 2u);
    EXPECT_TRUE(page.items[0].find("needs_slow_sync")->boolean);
    EXPECT_EQ(ask("GET", "/admin/v1/tenants/" + tenant_ + "/devices?after=x", all_token_).status, 400);
    EXPECT_EQ(ask("GET", "/admin/v1/tenants/default/devices", tenant_token_).status, 404);
}

TEST_F(admin_overview_db, users_come_a_page_at_a_time_when_asked_and_all_at_once_as_before) {
    persistence::add_user(*db_, tenant_, "bob", "pw");
    persistence::add_user(*db_, tenant_, "cy", "pw");
    const std::string users = "/admin/v1/tenants/" + tenant_ + "/users";
    auto all = ask("GET", users, tenant_token_);
    EXPECT_EQ(json(all).items.size(), 3u);
    EXPECT_EQ(header(all, "Link"), "");
    auto first = ask("GET", users + "?limit=2", tenant_token_);
    ASSERT_EQ(json(first).items.size(), 2u);
    EXPECT_EQ(header(first, "Link"), "<" + users + "?limit=2&after=bob>; rel=\"next\"");
    const auto rest = json(ask("GET", users + "?limit=2&after=bob", tenant_token_));
    ASSERT_EQ(rest.items.size(), 1u);
    EXPECT_EQ(rest.items[0].find("name")->text, "cy");
}

TEST_F(admin_overview_db, a_tenant_token_sees_creates_and_revokes_only_its_tenants_tokens_and_changes_are_audited) {
    auto listed = json(ask("GET", "/admin/v1/tokens", tenant_token_));
    ASSERT_EQ(listed.items.size(), 1u);
    EXPECT_EQ(listed.items[0].find("name")->text, tenant_ + "-own");

    const std::string made = tenant_ + "-made";
    auto created =
        ask("POST", "/admin/v1/tokens", tenant_token_, "{\"name\": \"" + made + "\", \"tenant\": \"" + tenant_ + "\"}");
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string token = json(created).find("token")->text;
    EXPECT_TRUE(token.starts_with("syncml_"));
    EXPECT_EQ(ask("GET", "/admin/v1/status", token).status, 200);
    EXPECT_EQ(ask("POST", "/admin/v1/tokens", tenant_token_, "{\"name\": \"" + tenant_ + "-wide\"}").status, 403);
    EXPECT_EQ(ask("POST", "/admin/v1/tokens", tenant_token_, "{\"name\": \"x\", \"tenant\": \"default\"}").status, 403);
    EXPECT_EQ(
        ask("POST", "/admin/v1/tokens", tenant_token_, "{\"name\": \"" + made + "\", \"tenant\": \"" + tenant_ + "\"}")
            .status,
        409);
    EXPECT_EQ(ask("POST", "/admin/v1/tokens", all_token_, "{\"name\": \"bad name\"}").status, 400);
    EXPECT_EQ(ask("POST", "/admin/v1/tokens", all_token_, "{\"name\": \"x\", \"scope\": 1}").status, 400);

    EXPECT_EQ(ask("DELETE", "/admin/v1/tokens/" + all_name_, tenant_token_).status, 404);
    EXPECT_EQ(ask("DELETE", "/admin/v1/tokens/" + made, tenant_token_).status, 204);
    EXPECT_EQ(ask("GET", "/admin/v1/status", token).status, 401);
    const auto audit = persistence::list_audit(*db_, tenant_, 10);
    ASSERT_GE(audit.size(), 3u);
    EXPECT_EQ(audit[0].entry.action, "token.delete");
    EXPECT_EQ(audit[0].entry.target, "token " + made);
    EXPECT_EQ(audit[0].entry.actor, "token:" + tenant_ + "-own");
    EXPECT_EQ(audit[0].entry.result, "ok");
    const auto create = std::find_if(audit.begin(), audit.end(), [](const auto& r) {
        return r.entry.action == "token.create" && r.entry.result == "ok";
    });
    ASSERT_NE(create, audit.end());
    EXPECT_EQ(create->entry.target, "token " + made);
}

}  // namespace
}  // namespace syncml::server
