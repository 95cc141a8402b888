#include "persistence/dav/dav_store.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "persistence/accounts/accounts.hpp"
#include "persistence/maintenance/janitor.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

const std::string k_card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a\r\nFN:A\r\nEND:VCARD\r\n";

std::vector<std::string> names_of(const std::vector<dav_resource>& resources) {
    std::vector<std::string> out;
    for (const auto& r : resources) out.push_back(r.name);
    return out;
}

class dav_store_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        auto user = add_user(*db_, default_tenant, "ann", "pw");
        tenant_ = user.tenant_id;
        user_ = user.id;
    }
    template <class Fn>
    void tx(Fn&& fn) {
        run_dav_transaction(*db_, [&](dav_store& store) { fn(store); });
    }
    dav_collection contacts(dav_store& s) {
        return s.collection(common::tenant_id{tenant_}, common::user_id{user_}, common::item_kind::contact, ".vcf");
    }
    dav_collection contacts() {
        dav_collection c;
        tx([&](dav_store& s) { c = contacts(s); });
        return c;
    }
    std::string value(const std::string& query) { return query_value(*db_, query); }

    int64_t tenant_ = 0;
    int64_t user_ = 0;
};

TEST_F(dav_store_test, collection_is_the_users_datastore_with_its_counters) {
    int64_t from_sync = 0;
    ASSERT_TRUE(run_sync_transaction(
        *db_, [&](sync_store& s) { from_sync = s.datastore(tenant_, user_, common::item_kind::contact); }));
    auto c = contacts();
    EXPECT_EQ(c.tenant.value(), tenant_);
    EXPECT_EQ(c.datastore.value(), from_sync);
    EXPECT_EQ(c.modseq, 0);
    EXPECT_EQ(c.purged_modseq, 0);
    EXPECT_EQ(c.suffix, ".vcf");
    dav_collection calendar;
    tx([&](dav_store& s) {
        calendar = s.collection(common::tenant_id{tenant_}, common::user_id{user_}, common::item_kind::event, ".ics");
    });
    EXPECT_NE(calendar.datastore, c.datastore) << "created when missing";
    EXPECT_EQ(contacts().datastore, c.datastore);
    EXPECT_EQ(value("UPDATE datastores SET purged_modseq = 4, modseq = 9 WHERE datastore_id = " +
                    std::to_string(c.datastore.value()) + " RETURNING 1"),
              "1");
    auto again = contacts();
    EXPECT_EQ(again.modseq, 9);
    EXPECT_EQ(again.purged_modseq, 4);
}

TEST_F(dav_store_test, create_names_an_item_that_named_finds_by_that_name) {
    dav_resource created;
    tx([&](dav_store& s) { created = s.create(contacts(s), "a b.vcf", k_card, {"name:a"}); });
    EXPECT_EQ(created.name, "a b.vcf");
    EXPECT_FALSE(created.guid.empty());
    EXPECT_GT(created.item_id, 0);
    EXPECT_EQ(created.modseq, 1);
    EXPECT_EQ(contacts().modseq, 1);
    tx([&](dav_store& s) {
        auto c = contacts(s);
        auto found = s.named(c, {"a b.vcf"}, false);
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found[0].name, "a b.vcf");
        EXPECT_EQ(found[0].guid, created.guid);
        EXPECT_EQ(found[0].item_id, created.item_id);
        EXPECT_EQ(found[0].modseq, 1);
        EXPECT_FALSE(found[0].deleted);
        EXPECT_EQ(found[0].content, k_card);
        EXPECT_TRUE(s.named(c, {created.guid + ".vcf"}, false).empty()) << "a named item has only its name";
        EXPECT_TRUE(s.named(c, {"b.vcf"}, false).empty());
        EXPECT_TRUE(s.named(c, {}, false).empty());
        auto listed = s.live_after(c, 0, 0);
        ASSERT_EQ(listed.size(), 1u);
        EXPECT_EQ(listed[0].name, "a b.vcf");
        EXPECT_EQ(listed[0].content, "");
        auto calendar =
            s.collection(common::tenant_id{tenant_}, common::user_id{user_}, common::item_kind::event, ".ics");
        EXPECT_TRUE(s.named(calendar, {"a b.vcf"}, false).empty()) << "names are per collection";
    });
}

TEST_F(dav_store_test, an_item_written_by_syncml_is_named_by_its_guid_and_suffix) {
    std::string guid;
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        guid = s.add_item(tenant_, s.datastore(tenant_, user_, common::item_kind::contact), k_card, {}).guid;
    }));
    tx([&](dav_store& s) {
        auto c = contacts(s);
        s.create(c, "mine.vcf", k_card, {});
        auto found = s.named(c, {guid + ".vcf", "mine.vcf", "missing.vcf", guid}, false);
        std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.item_id < b.item_id; });
        ASSERT_EQ(names_of(found), (std::vector<std::string>{guid + ".vcf", "mine.vcf"}));
        EXPECT_EQ(found[0].guid, guid);
        EXPECT_EQ(found[0].content, k_card);
        EXPECT_EQ(names_of(s.live_after(c, 0, 0)), (std::vector<std::string>{guid + ".vcf", "mine.vcf"}));
        auto as_ics =
            s.collection(common::tenant_id{tenant_}, common::user_id{user_}, common::item_kind::contact, ".ics");
        EXPECT_TRUE(s.named(as_ics, {guid + ".vcf"}, false).empty()) << "the suffix is the collection's";
        EXPECT_EQ(names_of(s.named(as_ics, {guid + ".ics"}, false)), std::vector<std::string>{guid + ".ics"});
    });
}

TEST_F(dav_store_test, named_for_update_locks_the_items_until_commit) {
    dav_resource created;
    tx([&](dav_store& s) { created = s.create(contacts(s), "a.vcf", k_card, {}); });
    tx([&](dav_store& s) {
        auto found = s.named(contacts(s), {"a.vcf", "missing.vcf"}, true);
        ASSERT_EQ(names_of(found), std::vector<std::string>{"a.vcf"});
        EXPECT_EQ(found[0].content, k_card);
        pqxx::connection other(url());
        pqxx::work w(other);
        EXPECT_THROW(
            w.exec("SELECT 1 FROM items WHERE item_id = " + std::to_string(created.item_id) + " FOR UPDATE NOWAIT"),
            pqxx::sql_error);
    });
    pqxx::connection other(url());
    pqxx::work w(other);
    EXPECT_EQ(
        w.exec("SELECT 1 FROM items WHERE item_id = " + std::to_string(created.item_id) + " FOR UPDATE NOWAIT").size(),
        1u)
        << "released at commit";
}

TEST_F(dav_store_test, replace_gives_the_item_new_content_at_a_new_modseq) {
    dav_resource created;
    tx([&](dav_store& s) { created = s.create(contacts(s), "a.vcf", k_card, {"k:old"}); });
    tx([&](dav_store& s) {
        auto c = contacts(s);
        auto current = s.named(c, {"a.vcf"}, true).at(0);
        EXPECT_EQ(s.replace(c, current, "new", {"k:new"}), 2);
    });
    tx([&](dav_store& s) {
        auto c = contacts(s);
        EXPECT_EQ(c.modseq, 2);
        auto found = s.named(c, {"a.vcf"}, false);
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found[0].content, "new");
        EXPECT_EQ(found[0].modseq, 2);
        EXPECT_EQ(found[0].item_id, created.item_id);
    });
    EXPECT_EQ(value("SELECT string_agg(match_key, ',') FROM item_match_keys WHERE item_id = " +
                    std::to_string(created.item_id)),
              "k:new");
}

TEST_F(dav_store_test, remove_leaves_a_tombstone_that_changed_since_reports_by_name) {
    std::string synced;
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto ds = s.datastore(tenant_, user_, common::item_kind::contact);
        s.add_item(tenant_, ds, "first", {});
        synced = s.add_item(tenant_, ds, k_card, {}).guid;
    }));
    tx([&](dav_store& s) {
        auto c = contacts(s);
        s.create(c, "a.vcf", k_card, {});
        s.create(c, "b.vcf", k_card, {});
        EXPECT_EQ(s.live_count(c), 4);
        EXPECT_EQ(s.remove(c, s.named(c, {"a.vcf"}, true).at(0)), 5);
        EXPECT_EQ(s.remove(c, s.named(c, {synced + ".vcf"}, true).at(0)), 6);
    });
    tx([&](dav_store& s) {
        auto c = contacts(s);
        EXPECT_EQ(c.modseq, 6);
        EXPECT_EQ(s.live_count(c), 2);
        EXPECT_TRUE(s.named(c, {"a.vcf", synced + ".vcf"}, false).empty());
        EXPECT_EQ(s.live_after(c, 0, 0).size(), 2u);
        auto changed = s.changed_since(c, 3, 0);
        ASSERT_EQ(names_of(changed), (std::vector<std::string>{"b.vcf", "a.vcf", synced + ".vcf"}));
        EXPECT_FALSE(changed[0].deleted);
        EXPECT_EQ(changed[0].modseq, 4);
        EXPECT_TRUE(changed[1].deleted);
        EXPECT_EQ(changed[1].modseq, 5);
        EXPECT_TRUE(changed[2].deleted);
        for (const auto& r : changed) EXPECT_EQ(r.content, "") << r.name;
        EXPECT_EQ(s.changed_since(c, 0, 0).size(), 4u) << "one row per item, at its last change";
        EXPECT_TRUE(s.changed_since(c, 6, 0).empty());
        EXPECT_EQ(names_of(s.changed_since(c, 3, 2)), (std::vector<std::string>{"b.vcf", "a.vcf"})) << "limit";
        const auto live = s.live_after(c, 0, 0);
        ASSERT_EQ(live.size(), 2u);
        EXPECT_LT(live[0].item_id, live[1].item_id);
        EXPECT_EQ(live[1].name, "b.vcf");
        EXPECT_EQ(names_of(s.live_after(c, 0, 1)), std::vector<std::string>{live[0].name});
        EXPECT_EQ(names_of(s.live_after(c, live[0].item_id, 5)), std::vector<std::string>{live[1].name});
        EXPECT_TRUE(s.live_after(c, live[1].item_id, 0).empty());
        auto calendar =
            s.collection(common::tenant_id{tenant_}, common::user_id{user_}, common::item_kind::event, ".ics");
        EXPECT_EQ(s.live_count(calendar), 0);
        EXPECT_TRUE(s.changed_since(calendar, 0, 0).empty());
    });
}

// A listing reads pages without content and plans its batches of contents by their sizes: every statement that
// returns resources says how many bytes each content holds, in bytes, not characters.
TEST_F(dav_store_test, resources_carry_the_size_of_their_content_in_bytes_even_without_it) {
    const std::string accented =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:e\r\nFN:\xc3\x89mile \xc3\x89t\xc3\xa9\r\nEND:VCARD\r\n";
    tx([&](dav_store& s) {
        auto c = contacts(s);
        s.create(c, "a.vcf", k_card, {"uid:a"});
        s.create(c, "e.vcf", accented, {"uid:e"});
        s.remove(c, s.create(c, "gone.vcf", "tombstone", {}));
    });
    tx([&](dav_store& s) {
        auto c = contacts(s);
        const auto page = s.live_after(c, 0, 0);
        ASSERT_EQ(names_of(page), (std::vector<std::string>{"a.vcf", "e.vcf"}));
        EXPECT_EQ(page[0].content_bytes, k_card.size());
        EXPECT_EQ(page[1].content_bytes, accented.size()) << "octets: the name has three two-byte letters";
        EXPECT_EQ(page[1].content, "");
        const auto changed = s.changed_since(c, 0, 0);
        ASSERT_EQ(names_of(changed), (std::vector<std::string>{"a.vcf", "e.vcf", "gone.vcf"}));
        EXPECT_EQ(changed[1].content_bytes, accented.size());
        EXPECT_EQ(changed[2].content_bytes, std::string("tombstone").size()) << "a tombstone keeps its content";
        const auto found = s.named(c, {"e.vcf"}, false);
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found[0].content, accented);
        EXPECT_EQ(found[0].content_bytes, accented.size());
        const auto holders = s.holding_key(c, "uid:e");
        ASSERT_EQ(holders.size(), 1u);
        EXPECT_EQ(holders[0].content_bytes, accented.size());
    });
}

TEST_F(dav_store_test, a_deleted_items_name_can_be_given_to_a_new_item) {
    dav_resource first, second;
    tx([&](dav_store& s) {
        auto c = contacts(s);
        first = s.create(c, "a.vcf", k_card, {});
        s.remove(c, first);
    });
    tx([&](dav_store& s) { second = s.create(contacts(s), "a.vcf", "again", {}); });
    EXPECT_NE(second.item_id, first.item_id);
    tx([&](dav_store& s) {
        auto c = contacts(s);
        auto found = s.named(c, {"a.vcf"}, false);
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found[0].content, "again");
        auto changed = s.changed_since(c, 0, 0);
        ASSERT_EQ(changed.size(), 2u);
        EXPECT_TRUE(changed[0].deleted);
        EXPECT_EQ(changed[0].name, first.guid + ".vcf") << "the tombstone no longer holds the name";
        EXPECT_EQ(changed[1].name, "a.vcf");
        EXPECT_FALSE(changed[1].deleted);
    });
}

TEST_F(dav_store_test, dav_writes_are_server_changes_for_syncml_devices) {
    dav_resource created;
    tx([&](dav_store& s) { created = s.create(contacts(s), "a.vcf", k_card, {}); });
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto ds = s.datastore(tenant_, user_, common::item_kind::contact);
        auto phone = s.device_store(tenant_, s.device(tenant_, user_, "phone").id, ds, "./c").id;
        auto changes = s.changes(tenant_, phone, 0, s.current_modseq(tenant_, ds), true);
        ASSERT_EQ(changes.size(), 1u);
        EXPECT_EQ(changes[0].guid, created.guid);
    }));
}

TEST_F(dav_store_test, purging_tombstones_raises_purged_modseq) {
    tx([&](dav_store& s) {
        auto c = contacts(s);
        s.remove(c, s.create(c, "a.vcf", k_card, {}));  // modseq 2
        s.remove(c, s.create(c, "b.vcf", k_card, {}));  // modseq 4
        s.create(c, "c.vcf", k_card, {});               // modseq 5
    });
    EXPECT_EQ(value("UPDATE items SET updated_at = now() - interval '1000 days' WHERE deleted AND modseq = 2 "
                    "RETURNING 1"),
              "1");
    auto report = run_janitor(*db_, "test");
    EXPECT_EQ(report.tombstones, 1u);
    tx([&](dav_store& s) {
        auto c = contacts(s);
        EXPECT_EQ(c.purged_modseq, 2);
        EXPECT_EQ(c.modseq, 5);
        EXPECT_EQ(names_of(s.changed_since(c, 0, 0)), (std::vector<std::string>{"b.vcf", "c.vcf"}));
    });
    EXPECT_EQ(value("SELECT count(*) FROM dav_names"), "2") << "the purged tombstone's name went with it";
}

// Every row a DAV write adds names its user, and a collection reaches only its user's rows: another user's
// datastore id (guessed, or from a sync token) lists nothing, names nothing and changes nothing.
TEST_F(dav_store_test, a_collection_never_reaches_another_users_items_even_by_a_guessed_datastore_id) {
    dav_resource anns, gone;
    tx([&](dav_store& s) {
        auto c = contacts(s);
        anns = s.create(c, "a.vcf", k_card, {"uid:a"});
        gone = s.create(c, "gone.vcf", k_card, {"uid:gone"});
        s.remove(c, gone);
    });
    const auto ann = contacts();
    const int64_t bob = add_user(*db_, default_tenant, "bob", "pw").id;
    dav_collection bobs;
    dav_resource bob_item;
    tx([&](dav_store& s) {
        bobs = s.collection(common::tenant_id{tenant_}, common::user_id{bob}, common::item_kind::contact, ".vcf");
        bob_item = s.create(bobs, "b.vcf", k_card, {"uid:a"});
    });
    const auto owner_of = [&](const std::string& table, int64_t item) {
        return value("SELECT string_agg(DISTINCT user_id::text, ',') FROM " + table +
                     " WHERE item_id = " + std::to_string(item));
    };
    EXPECT_EQ(owner_of("items", bob_item.item_id), std::to_string(bob));
    EXPECT_EQ(owner_of("dav_names", bob_item.item_id), std::to_string(bob));
    EXPECT_EQ(owner_of("item_match_keys", bob_item.item_id), std::to_string(bob));
    EXPECT_EQ(owner_of("dav_names", anns.item_id), std::to_string(user_));

    auto guessed = bobs;
    guessed.datastore = ann.datastore;
    tx([&](dav_store& s) {
        EXPECT_EQ(s.collection(common::tenant_id{tenant_}, common::user_id{bob}, common::item_kind::contact, ".vcf")
                      .datastore,
                  bobs.datastore);
        EXPECT_TRUE(s.named(guessed, {"a.vcf", anns.guid + ".vcf", "gone.vcf"}, true).empty());
        EXPECT_TRUE(s.live_after(guessed, 0, 0).empty());
        EXPECT_TRUE(s.changed_since(guessed, 0, 0).empty());
        EXPECT_TRUE(s.holding_key(guessed, "uid:a").empty());
        EXPECT_EQ(names_of(s.holding_key(bobs, "uid:a")), std::vector<std::string>{"b.vcf"});
    });
    EXPECT_ANY_THROW(tx([&](dav_store& s) { s.lock_collection(guessed); }));
    EXPECT_ANY_THROW(tx([&](dav_store& s) { s.live_count(guessed); }));
    EXPECT_ANY_THROW(tx([&](dav_store& s) { s.create(guessed, "gone.vcf", "bob's", {}); }));
    EXPECT_ANY_THROW(tx([&](dav_store& s) { s.replace(guessed, anns, "bob's", {}); }));
    EXPECT_ANY_THROW(tx([&](dav_store& s) { s.remove(guessed, anns); }));
    tx([&](dav_store& s) {
        auto c = contacts(s);
        EXPECT_EQ(c.modseq, ann.modseq);
        auto found = s.named(c, {"a.vcf"}, false);
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found[0].content, k_card);
        EXPECT_EQ(names_of(s.changed_since(c, 0, 0)), (std::vector<std::string>{"a.vcf", "gone.vcf"}))
            << "the tombstone keeps its name";
    });
    EXPECT_EQ(value("SELECT count(*) FROM items WHERE datastore_id = " + std::to_string(ann.datastore.value())), "2");
}

// Two PUTs of one new name, the second looking the name up before the first commits: the second runs again and
// replaces the first's item instead of failing on the unique name.
TEST_F(dav_store_test, a_create_that_loses_the_race_for_a_name_runs_again_and_finds_the_winner) {
    const auto c = contacts();
    const std::string card_b = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:b\r\nFN:B\r\nEND:VCARD\r\n";
    std::promise<void> a_created, b_looked;
    auto b_looked_done = b_looked.get_future();
    auto a = std::async(std::launch::async, [&] {
        database own(url());
        run_dav_transaction(own, [&](dav_store& s) {
            if (s.named(c, {"x.vcf"}, true).empty()) s.create(c, "x.vcf", k_card, {});
            a_created.set_value();
            b_looked_done.wait();
        });
    });
    a_created.get_future().wait();
    int attempts = 0;
    bool looked = false;
    std::string outcome;
    EXPECT_NO_THROW(run_dav_transaction(*db_, [&](dav_store& s) {
        ++attempts;
        auto found = s.named(c, {"x.vcf"}, true);
        if (!looked) b_looked.set_value();
        looked = true;
        if (found.empty()) {
            s.create(c, "x.vcf", card_b, {});  // waits for the first to commit, then finds the name taken
            outcome = "created";
        } else {
            s.replace(c, found[0], card_b, {});
            outcome = "replaced";
        }
    }));
    a.get();
    EXPECT_EQ(attempts, 2);
    EXPECT_EQ(outcome, "replaced");
    tx([&](dav_store& s) {
        EXPECT_EQ(names_of(s.live_after(c, 0, 0)), std::vector<std::string>{"x.vcf"});
        auto found = s.named(c, {"x.vcf"}, false);
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found[0].content, card_b);
    });
}

// The tenant's item limit holds for concurrent creates: the second counts after the first committed.
TEST_F(dav_store_test, live_count_waits_for_a_concurrent_create_to_commit) {
    const auto c = contacts();
    std::promise<void> a_created;
    auto a = std::async(std::launch::async, [&] {
        database own(url());
        run_dav_transaction(own, [&](dav_store& s) {
            EXPECT_EQ(s.live_count(c), 0);
            s.create(c, "a.vcf", k_card, {});
            a_created.set_value();
            // Long enough that a count which did not wait would run before this commit.
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        });
    });
    a_created.get_future().wait();
    int64_t counted = -1;
    tx([&](dav_store& s) { counted = s.live_count(c); });
    a.get();
    EXPECT_EQ(counted, 1);
}

}  // namespace
}  // namespace syncml::persistence
