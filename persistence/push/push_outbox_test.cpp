#include "persistence/push/push_outbox.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "persistence/accounts/accounts.hpp"
#include "persistence/dav/dav_store.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/push/push_settings.hpp"
#include "persistence/sync/sync_store.hpp"

// The outbox of server-alerted sync against a real PostgreSQL: the trigger every writer goes through, what a claim
// reads, and the outcomes.

namespace syncml::persistence {
namespace {

using namespace std::chrono_literals;

const std::string k_card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n";

class push_outbox_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        auto user = add_user(*db_, default_tenant, "ann", "pw");
        tenant_ = user.tenant_id;
        user_ = user.id;
        exec("UPDATE tenants SET push_enabled = true");
        for (const char* device : {"phone-a", "phone-b", "phone-c"}) {
            ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
                const auto id = s.device(tenant_, user_, device).id;
                devices_[device] = id;
                stores_[device] = s.device_store_of_kind(tenant_, user_, id, common::item_kind::contact,
                                                         std::string("./") + device + "/contacts")
                                      .id;
            }));
        }
        set_device_push(*db_, default_tenant, "ann", "phone-a", {});
        set_device_push(*db_, default_tenant, "ann", "phone-b", {});
    }

    void exec(const std::string& sql) {
        in_transaction(*db_, [&](pqxx::work& tx) { tx.exec(sql); });
    }
    std::string value(const std::string& query) { return query_value(*db_, query); }

    // A CardDAV client adds a contact.
    void dav_add(const std::string& name) {
        run_dav_transaction(*db_, [&](dav_store& s) {
            auto c =
                s.collection(common::tenant_id{tenant_}, common::user_id{user_}, common::item_kind::contact, ".vcf");
            s.create(c, name, k_card, {});
        });
    }
    // The phone sends a contact (Add, then its mapping), as the engine stores it.
    void phone_add(const std::string& device, const std::string& luid) {
        ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
            const auto datastore = s.datastore(tenant_, user_, common::item_kind::contact);
            const auto item = s.add_item(tenant_, datastore, k_card, {});
            s.set_mapping(tenant_, stores_[device], luid, item.guid, item.modseq);
        }));
    }
    push_key key(const std::string& device) { return {tenant_, user_, devices_[device]}; }
    bool pending(const std::string& device) {
        return value("SELECT count(*) FROM push_outbox WHERE pending_since IS NOT NULL AND device_id = " +
                     std::to_string(devices_[device])) == "1";
    }
    std::optional<claimed_push> claim(const std::string& device, std::chrono::seconds lease = 60s) {
        return claim_push(*db_, key(device), lease);
    }

    std::int64_t tenant_ = 0;
    std::int64_t user_ = 0;
    std::map<std::string, std::int64_t> devices_, stores_;
};

TEST_F(push_outbox_test, a_change_marks_every_opted_in_device_pending_in_its_own_transaction) {
    EXPECT_FALSE(pending("phone-a"));
    dav_add("a.vcf");
    EXPECT_TRUE(pending("phone-a"));
    EXPECT_TRUE(pending("phone-b"));
    EXPECT_FALSE(pending("phone-c")) << "did not opt in";
    EXPECT_EQ(value("SELECT count(*) FROM push_outbox"), "2");

    // A change that rolls back leaves nothing.
    exec("UPDATE push_outbox SET pending_since = NULL, changes = 0");
    EXPECT_THROW(run_dav_transaction(*db_,
                                     [&](dav_store& s) {
                                         auto c = s.collection(common::tenant_id{tenant_}, common::user_id{user_},
                                                               common::item_kind::contact, ".vcf");
                                         s.create(c, "b.vcf", k_card, {});
                                         throw std::runtime_error("rolled back");
                                     }),
                 std::runtime_error);
    EXPECT_FALSE(pending("phone-a"));
}

TEST_F(push_outbox_test, fifty_changes_are_one_pending_notification) {
    for (int i = 0; i < 50; ++i) dav_add("c" + std::to_string(i) + ".vcf");
    EXPECT_EQ(value("SELECT changes FROM push_outbox WHERE device_id = " + std::to_string(devices_["phone-a"])), "50");
    const auto due = due_pushes(*db_, 0ms, 0ms, 10);
    EXPECT_EQ(due.size(), 2u);
    EXPECT_EQ(pending_pushes(*db_), 2);
    // Changes still coming in: not due until they settle (or the first waited max_wait).
    EXPECT_TRUE(due_pushes(*db_, 60s, 120s, 10).empty());
    EXPECT_EQ(due_pushes(*db_, 60s, 0ms, 10).size(), 2u);
}

TEST_F(push_outbox_test, the_device_that_made_the_change_has_nothing_to_fetch) {
    phone_add("phone-a", "L1");
    // Both are marked (the trigger does not know who wrote); the claim reads who has something to fetch.
    auto a = claim("phone-a");
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->stores.empty()) << "its own change";
    auto b = claim("phone-b");
    ASSERT_TRUE(b);
    ASSERT_EQ(b->stores.size(), 1u);
    EXPECT_EQ(b->stores[0].kind, "contacts");
    EXPECT_EQ(b->stores[0].client_uri, "./phone-b/contacts");
    EXPECT_EQ(b->device_uri, "phone-b");
    EXPECT_EQ(b->user_name, "ann");
    EXPECT_EQ(b->tenant_name, "default");
    EXPECT_TRUE(b->tenant_push);
    EXPECT_TRUE(b->user_enabled);
    EXPECT_EQ(b->changes, 1);
    EXPECT_FALSE(b->unanswered_for_seconds);
    EXPECT_FALSE(b->quiet_for_seconds);

    push_dropped(*db_, *a, "nothing new");
    EXPECT_FALSE(pending("phone-a"));
}

TEST_F(push_outbox_test, a_claim_is_exclusive_until_its_outcome_or_its_lease_ends) {
    dav_add("a.vcf");
    auto first = claim("phone-a");
    ASSERT_TRUE(first);
    EXPECT_FALSE(claim("phone-a")) << "leased";
    EXPECT_EQ(due_pushes(*db_, 0ms, 0ms, 10).size(), 1u) << "only phone-b's";

    push_failed(*db_, *first, 0s, "gateway down");
    auto again = claim("phone-a", 0s);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->attempts, 1);
    // A lease that ran out (a sender that died) is taken by the next one.
    auto taken = claim("phone-a");
    ASSERT_TRUE(taken);
    push_postponed(*db_, *taken, 3600s, "quiet hours");
    EXPECT_FALSE(claim("phone-a")) << "not due";
    EXPECT_EQ(value("SELECT last_result || ' ' || attempts FROM push_outbox WHERE device_id = " +
                    std::to_string(devices_["phone-a"])),
              "quiet hours 1");
}

TEST_F(push_outbox_test, a_change_while_sending_stays_pending_and_waits_for_the_device) {
    dav_add("a.vcf");
    auto claimed = claim("phone-a");
    ASSERT_TRUE(claimed);
    dav_add("b.vcf");
    push_sent(*db_, *claimed, "sent");
    EXPECT_TRUE(pending("phone-a"));
    EXPECT_EQ(value("SELECT changes FROM push_outbox WHERE device_id = " + std::to_string(devices_["phone-a"])), "1");

    // Notified and not synced since: the re-notify interval applies.
    auto next = claim("phone-a");
    ASSERT_TRUE(next);
    ASSERT_TRUE(next->unanswered_for_seconds);
    EXPECT_LT(*next->unanswered_for_seconds, 60);
    push_postponed(*db_, *next, 0s, "re-notify interval");
    // Once it synced, a new change goes at once.
    exec("UPDATE device_stores SET last_sync_at = now() + interval '1 second'");
    next = claim("phone-a");
    ASSERT_TRUE(next);
    EXPECT_FALSE(next->unanswered_for_seconds);
    push_sent(*db_, *next, "sent");
    EXPECT_FALSE(pending("phone-a"));
}

TEST_F(push_outbox_test, only_the_datastores_the_device_opted_in_for) {
    push_settings calendar_only;
    calendar_only.datastores = {"calendar"};
    set_device_push(*db_, default_tenant, "ann", "phone-a", calendar_only);
    dav_add("a.vcf");
    EXPECT_FALSE(pending("phone-a"));
    EXPECT_TRUE(pending("phone-b"));
}

TEST_F(push_outbox_test, reads_the_quiet_hours_in_the_devices_time_zone) {
    push_settings quiet;
    // From an hour ago until an hour from now, in Tokyo.
    quiet.time_zone = "Asia/Tokyo";
    quiet.quiet_start = value("SELECT to_char(now() AT TIME ZONE 'Asia/Tokyo' - interval '1 hour', 'HH24:MI')");
    quiet.quiet_end = value("SELECT to_char(now() AT TIME ZONE 'Asia/Tokyo' + interval '1 hour', 'HH24:MI')");
    set_device_push(*db_, default_tenant, "ann", "phone-a", quiet);
    dav_add("a.vcf");
    auto claimed = claim("phone-a");
    ASSERT_TRUE(claimed);
    ASSERT_TRUE(claimed->quiet_for_seconds);
    EXPECT_GT(*claimed->quiet_for_seconds, 3500);
    EXPECT_LE(*claimed->quiet_for_seconds, 3660);
    EXPECT_EQ(claimed->settings.time_zone, "Asia/Tokyo");
}

TEST_F(push_outbox_test, counts_the_daily_budget_per_tenant) {
    EXPECT_TRUE(take_push_budget(*db_, tenant_, 2));
    EXPECT_TRUE(take_push_budget(*db_, tenant_, 2));
    EXPECT_FALSE(take_push_budget(*db_, tenant_, 2));
    EXPECT_TRUE(take_push_budget(*db_, tenant_, 0)) << "no budget";
    EXPECT_EQ(value("SELECT sent FROM push_budget"), "3");
}

TEST_F(push_outbox_test, settings_are_validated_shown_and_cleared) {
    push_settings s;
    s.phone_number = "+41791234567";
    s.server_password = "secret";
    s.datastores = {"contacts", "tasks"};
    s.quiet_start = "22:00";
    s.quiet_end = "07:00";
    s.time_zone = "Europe/Zurich";
    set_device_push(*db_, default_tenant, "ann", "phone-c", s);
    auto shown = device_push(*db_, default_tenant, "ann", "phone-c");
    ASSERT_TRUE(shown);
    EXPECT_EQ(shown->settings, s);
    EXPECT_FALSE(shown->pending);
    dav_add("a.vcf");
    shown = device_push(*db_, default_tenant, "ann", "phone-c");
    EXPECT_TRUE(shown->pending);
    EXPECT_EQ(shown->changes, 1);
    EXPECT_TRUE(shown->due_at);

    for (const char* bad : {"0041791234567", "+0791234567", "+41 79 123", "+1234"}) {
        auto wrong = s;
        wrong.phone_number = bad;
        EXPECT_THROW(set_device_push(*db_, default_tenant, "ann", "phone-c", wrong), std::invalid_argument) << bad;
    }
    auto wrong = s;
    wrong.datastores = {"mail"};
    EXPECT_THROW(set_device_push(*db_, default_tenant, "ann", "phone-c", wrong), std::invalid_argument);
    wrong = s;
    wrong.quiet_end = "25:00";
    EXPECT_THROW(set_device_push(*db_, default_tenant, "ann", "phone-c", wrong), std::invalid_argument);
    wrong = s;
    wrong.time_zone = "Mars/Olympus";
    EXPECT_THROW(set_device_push(*db_, default_tenant, "ann", "phone-c", wrong), std::invalid_argument);
    EXPECT_THROW(set_device_push(*db_, default_tenant, "ann", "phone-x", s), not_found);
    EXPECT_EQ(device_push(*db_, default_tenant, "ann", "phone-c")->settings, s) << "a refused change stores nothing";

    EXPECT_TRUE(clear_device_push(*db_, default_tenant, "ann", "phone-c"));
    EXPECT_FALSE(clear_device_push(*db_, default_tenant, "ann", "phone-c"));
    EXPECT_FALSE(device_push(*db_, default_tenant, "ann", "phone-c"));
    EXPECT_EQ(value("SELECT count(*) FROM push_outbox WHERE device_id = " + std::to_string(devices_["phone-c"])), "0");
}

}  // namespace
}  // namespace syncml::persistence
