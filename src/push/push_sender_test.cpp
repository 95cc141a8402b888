#include "src/push/push_sender.hpp"

#include <gtest/gtest.h>

#include <prometheus/registry.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "common/crypto/base64.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/dav/dav_store.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/push/push_settings.hpp"
#include "persistence/sync/sync_store.hpp"
#include "push/notification/san.hpp"

// The sender against a real PostgreSQL and a recording HTTP client: who gets a notification, what it carries, and
// what happens when a transport fails, the budget runs out or the device has not synced since the last one.

namespace syncml::server {
namespace {

using namespace std::chrono_literals;

const std::string k_card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n";

class recording_client final : public push::http_client {
  public:
    push::http_response send(const push::http_request& request) override {
        requests.push_back(request);
        return {status, status == 0 ? "connection refused" : ""};
    }
    std::vector<push::http_request> requests;
    int status = 200;
};

// The value of a JSON string member in a flat object the webhook wrote (no escapes in what the tests send).
std::string member(const std::string& json, const std::string& name) {
    const auto key = "\"" + name + "\":\"";
    const auto at = json.find(key);
    if (at == std::string::npos) return {};
    const auto start = at + key.size();
    return json.substr(start, json.find('"', start) - start);
}

class push_sender_test : public persistence::testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        auto user = persistence::add_user(*db_, persistence::default_tenant, "ann", "pw");
        tenant_ = user.tenant_id;
        user_ = user.id;
        persistence::query_value(*db_, "UPDATE tenants SET push_enabled = true RETURNING 1");
        for (const char* device : {"phone-a", "phone-b", "phone-c"}) {
            ASSERT_TRUE(persistence::run_sync_transaction(*db_, [&](persistence::sync_store& s) {
                const auto id = s.device(tenant_, user_, device).id;
                stores_[device] =
                    s.device_store_of_kind(tenant_, user_, id, common::item_kind::contact, "./contacts").id;
            }));
        }
        persistence::push_settings a;
        a.phone_number = "+41791234567";
        a.server_password = "secret";
        persistence::set_device_push(*db_, persistence::default_tenant, "ann", "phone-a", a);
        persistence::set_device_push(*db_, persistence::default_tenant, "ann", "phone-b", {});
        config_.webhook_url = "http://relay.test/push";
        config_.settle = 0ms;
    }

    push_sender sender() { return push_sender(*db_, client_, config_, "https://sync.example.org", metrics_, *log_); }

    void dav_add(const std::string& name) {
        persistence::run_dav_transaction(*db_, [&](persistence::dav_store& s) {
            auto c =
                s.collection(common::tenant_id{tenant_}, common::user_id{user_}, common::item_kind::contact, ".vcf");
            s.create(c, name, k_card, {});
        });
    }
    void phone_add(const std::string& device, const std::string& luid) {
        ASSERT_TRUE(persistence::run_sync_transaction(*db_, [&](persistence::sync_store& s) {
            const auto datastore = s.datastore(tenant_, user_, common::item_kind::contact);
            const auto item = s.add_item(tenant_, datastore, k_card, {});
            s.set_mapping(tenant_, stores_[device], luid, item.guid, item.modseq);
        }));
    }
    std::vector<std::string> webhook_devices() const {
        std::vector<std::string> out;
        for (const auto& r : client_.requests) {
            if (r.url == config_.webhook_url) out.push_back(member(r.body, "device"));
        }
        std::sort(out.begin(), out.end());
        return out;
    }
    std::string value(const std::string& sql) { return persistence::query_value(*db_, sql); }
    double counter(prometheus::Family<prometheus::Counter>& family, const std::string& label,
                   const std::string& value) {
        return family.Add({{label, value}}).Value();
    }

    std::int64_t tenant_ = 0;
    std::int64_t user_ = 0;
    std::map<std::string, std::int64_t> stores_;
    recording_client client_;
    push_config config_;
    prometheus::Registry registry_;
    push_metrics metrics_{registry_};
    std::shared_ptr<spdlog::logger> log_ =
        std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>());
};

TEST_F(push_sender_test, a_dav_change_notifies_every_device_that_opted_in_with_a_notification_that_verifies) {
    dav_add("a.vcf");
    const auto pass = sender().run_once();
    EXPECT_EQ(pass.sent, 2);
    EXPECT_EQ(webhook_devices(), (std::vector<std::string>{"phone-a", "phone-b"})) << "phone-c did not opt in";
    for (const auto& r : client_.requests) {
        EXPECT_EQ(member(r.body, "user"), "ann");
        EXPECT_EQ(member(r.body, "content_type"), "application/vnd.syncml.ds.notification");
        const auto san = common::base64_decode(member(r.body, "notification")).value();
        const bool a = member(r.body, "device") == "phone-a";
        EXPECT_TRUE(push::san_digest_matches(san, "https://sync.example.org/sync", {a ? "secret" : "", ""}));
        EXPECT_NE(san.find("contacts"), std::string::npos);
        if (a) {
            EXPECT_EQ(member(r.body, "phone_number"), "+41791234567");
        }
    }
    EXPECT_EQ(counter(metrics_.sent, "transport", "webhook"), 2);
    // Sent: nothing waits any more.
    client_.requests.clear();
    EXPECT_EQ(sender().run_once().claimed, 0);
    EXPECT_TRUE(client_.requests.empty());
}

TEST_F(push_sender_test, never_notifies_the_device_that_made_the_change) {
    phone_add("phone-a", "L1");
    const auto pass = sender().run_once();
    EXPECT_EQ(webhook_devices(), (std::vector<std::string>{"phone-b"}));
    EXPECT_EQ(pass.dropped, 1);
    EXPECT_EQ(counter(metrics_.skipped, "reason", "nothing_new"), 1);
}

TEST_F(push_sender_test, sends_a_binary_sms_to_a_device_with_a_number) {
    config_.webhook_url.clear();
    config_.sms_url = "http://kannel.test/cgi-bin/sendsms?username=u&password=p";
    dav_add("a.vcf");
    const auto pass = sender().run_once();
    ASSERT_EQ(client_.requests.size(), 1u) << "phone-b has no number";
    EXPECT_EQ(client_.requests[0].method, "GET");
    EXPECT_NE(client_.requests[0].url.find("to=%2B41791234567&udh=%06%05%04%0B%84%23%F0&text=%00%06%03%CE%AF%87"),
              std::string::npos);
    EXPECT_EQ(pass.sent, 1);
    EXPECT_EQ(pass.dropped, 1);
    EXPECT_EQ(counter(metrics_.skipped, "reason", "no_route"), 1);
}

TEST_F(push_sender_test, retries_a_failed_send_later_and_keeps_the_changes) {
    client_.status = 503;
    dav_add("a.vcf");
    auto pass = sender().run_once();
    EXPECT_EQ(pass.failed, 2);
    EXPECT_EQ(counter(metrics_.failed, "transport", "webhook"), 2);
    EXPECT_EQ(value("SELECT count(*) FROM push_outbox WHERE attempts = 1 AND pending_since IS NOT NULL "
                    "AND due_at > now() + interval '5 seconds'"),
              "2");
    // Due again: the next pass sends.
    value("WITH u AS (UPDATE push_outbox SET due_at = now() RETURNING 1) SELECT count(*) FROM u");
    client_.status = 200;
    client_.requests.clear();
    pass = sender().run_once();
    EXPECT_EQ(pass.sent, 2);
    EXPECT_EQ(push_retry_delay(1), 10s);
    EXPECT_EQ(push_retry_delay(3), 40s);
    EXPECT_EQ(push_retry_delay(20), 3600s);
}

TEST_F(push_sender_test, waits_for_the_device_to_sync_before_notifying_it_again) {
    dav_add("a.vcf");
    sender().run_once();
    client_.requests.clear();
    dav_add("b.vcf");
    dav_add("c.vcf");
    auto pass = sender().run_once();
    EXPECT_EQ(pass.postponed, 2);
    EXPECT_TRUE(client_.requests.empty());
    EXPECT_EQ(metrics_.coalesced.Value(), 4) << "two changes for each of the two devices";
    // phone-b synced since: it gets the next one at once.
    value(
        "UPDATE device_stores SET last_sync_at = now() + interval '1 second', last_modseq_seen = 0 "
        "WHERE device_store_id = " +
        std::to_string(stores_["phone-b"]) + " RETURNING 1");
    value("WITH u AS (UPDATE push_outbox SET due_at = now() RETURNING 1) SELECT count(*) FROM u");
    pass = sender().run_once();
    EXPECT_EQ(webhook_devices(), (std::vector<std::string>{"phone-b"}));
}

TEST_F(push_sender_test, holds_notifications_over_the_tenants_daily_budget) {
    value("UPDATE tenants SET push_daily_budget = 1 RETURNING 1");
    dav_add("a.vcf");
    const auto pass = sender().run_once();
    EXPECT_EQ(pass.sent, 1);
    EXPECT_EQ(pass.postponed, 1);
    EXPECT_EQ(metrics_.over_budget.Value(), 1);
    EXPECT_EQ(value("SELECT count(*) FROM push_outbox WHERE last_result = 'over the tenant''s daily budget' "
                    "AND due_at > now()"),
              "1");
}

TEST_F(push_sender_test, drops_what_the_tenant_or_the_user_no_longer_wants) {
    value("UPDATE tenants SET push_enabled = false RETURNING 1");
    dav_add("a.vcf");
    auto pass = sender().run_once();
    EXPECT_EQ(pass.dropped, 2);
    EXPECT_TRUE(client_.requests.empty());
    EXPECT_EQ(counter(metrics_.skipped, "reason", "tenant_off"), 2);
    value("UPDATE tenants SET push_enabled = true RETURNING 1");
    value("UPDATE users SET disabled_at = now() RETURNING 1");
    dav_add("b.vcf");
    pass = sender().run_once();
    EXPECT_EQ(counter(metrics_.skipped, "reason", "user_disabled"), 2);
    EXPECT_TRUE(client_.requests.empty());
}

TEST_F(push_sender_test, names_the_server_by_its_tenants_sync_url_unless_configured) {
    EXPECT_EQ(sender().server_id("default"), "https://sync.example.org/sync");
    EXPECT_EQ(sender().server_id("acme"), "https://sync.example.org/sync/acme");
    config_.server_id = "SyncServer";
    EXPECT_EQ(sender().server_id("acme"), "SyncServer");
}

}  // namespace
}  // namespace syncml::server
