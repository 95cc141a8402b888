// datastores.stored_bytes (migration 0033), which the per-user storage quota reads (storage_quota.hpp): every item
// write keeps it equal to the bytes of the datastore's live items, on the SyncML paths (single writes, batches, a
// refresh's deletes) and the DAV path alike, and the migration fills it for the items that exist.

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "persistence/accounts/accounts.hpp"
#include "persistence/dav/dav_store.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

// Two bytes for the ë: the quota counts bytes, not characters.
std::string card(const std::string& name, std::size_t note_bytes = 0) {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zoë " + name + "\r\nNOTE:" + std::string(note_bytes, 'n') +
           "\r\nEND:VCARD\r\n";
}

int64_t size_of(const std::string& content) { return static_cast<int64_t>(content.size()); }

class stored_bytes_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        auto user = add_user(*db_, default_tenant, "ann", "pw");
        tenant_ = user.tenant_id;
        user_ = user.id;
        tx([&](sync_store& s) {
            contacts_ = s.datastore(tenant_, user_, common::item_kind::contact);
            calendar_ = s.datastore(tenant_, user_, common::item_kind::event);
            device_store_ = s.device_store(tenant_, s.device(tenant_, user_, "IMEI:1").id, contacts_, "./c").id;
        });
    }
    template <class Fn>
    void tx(Fn&& fn) {
        ASSERT_TRUE(run_sync_transaction(*db_, user_, [&](sync_store& store) { fn(store); }));
    }
    int64_t counted() {
        int64_t bytes = -1;
        tx([&](sync_store& s) { bytes = s.user_stored_bytes(tenant_); });
        return bytes;
    }
    // What the counters must equal: the live items summed (the very sum the quota must not need on a write).
    int64_t summed(int64_t datastore = 0) {
        return std::stoll(
            query_value(*db_, "SELECT coalesce(sum(octet_length(content)), 0) FROM items WHERE NOT deleted" +
                                  (datastore ? " AND datastore_id = " + std::to_string(datastore) : std::string())));
    }
    int64_t column(int64_t datastore) {
        return std::stoll(
            query_value(*db_, "SELECT stored_bytes FROM datastores WHERE datastore_id = " + std::to_string(datastore)));
    }

    int64_t tenant_ = 0, user_ = 0, contacts_ = 0, calendar_ = 0, device_store_ = 0;
};

TEST_F(stored_bytes_test, single_writes_add_replace_and_delete_their_bytes) {
    std::string a, b;
    tx([&](sync_store& s) {
        a = s.add_item(tenant_, contacts_, card("a"), {}).guid;
        b = s.add_item(tenant_, calendar_, card("b", 100), {}).guid;
    });
    EXPECT_EQ(counted(), size_of(card("a")) + size_of(card("b", 100))) << "all datastores of the user";
    EXPECT_EQ(column(contacts_), size_of(card("a")));
    tx([&](sync_store& s) {
        ASSERT_TRUE(s.replace_item(tenant_, contacts_, a, card("a", 500), {}));
        ASSERT_TRUE(s.replace_item(tenant_, calendar_, b, card("b", 10), {})) << "a shrinking replace";
    });
    EXPECT_EQ(counted(), size_of(card("a", 500)) + size_of(card("b", 10)));
    tx([&](sync_store& s) {
        ASSERT_TRUE(s.delete_item(tenant_, contacts_, a));
        EXPECT_FALSE(s.delete_item(tenant_, contacts_, a)) << "deleted already";
        EXPECT_FALSE(s.replace_item(tenant_, contacts_, a, card("a", 9000), {})) << "a tombstone is not revived";
        EXPECT_FALSE(s.replace_item(tenant_, contacts_, "no-such-guid", card("x"), {}));
    });
    EXPECT_EQ(column(contacts_), 0) << "a tombstone takes no room";
    EXPECT_EQ(counted(), size_of(card("b", 10)));
    EXPECT_EQ(counted(), summed());
}

TEST_F(stored_bytes_test, a_batch_counts_the_bytes_it_stored) {
    std::string kept, replaced_twice, deleted;
    tx([&](sync_store& s) {
        kept = s.add_item(tenant_, contacts_, card("kept"), {}).guid;
        replaced_twice = s.add_item(tenant_, contacts_, card("twice"), {}).guid;
        deleted = s.add_item(tenant_, contacts_, card("deleted", 50), {}).guid;
        s.delete_item(tenant_, contacts_, deleted);
    });
    std::vector<item_write> writes(5);
    writes[0].content = card("new", 300);
    writes[0].luid = "1";
    writes[1].guid = replaced_twice;
    writes[1].content = card("twice", 2000);
    writes[2].guid = replaced_twice;
    writes[2].content = card("twice", 20);  // the last replace of an item is the one written
    writes[3].guid = deleted;
    writes[3].content = card("deleted", 4000);  // gone: writes nothing
    writes[4].guid = kept;
    writes[4].luid = "2";  // a mapping alone
    tx([&](sync_store& s) { s.write_items(tenant_, contacts_, device_store_, writes); });
    EXPECT_EQ(column(contacts_), size_of(card("kept")) + size_of(card("twice", 20)) + size_of(card("new", 300)));
    EXPECT_EQ(column(contacts_), summed(contacts_));
}

TEST_F(stored_bytes_test, a_refresh_from_the_client_frees_the_bytes_of_what_it_deletes) {
    tx([&](sync_store& s) {
        for (const char* name : {"a", "b", "c"}) s.add_item(tenant_, contacts_, card(name, 40), {});
        const auto held = s.add_item(tenant_, contacts_, card("held"), {});
        s.set_mapping(tenant_, device_store_, "1", held.guid, held.modseq);
    });
    tx([&](sync_store& s) {
        EXPECT_EQ(s.delete_unheld_items(tenant_, contacts_, device_store_, s.current_modseq(tenant_, contacts_)), 3);
    });
    EXPECT_EQ(column(contacts_), size_of(card("held")));
    EXPECT_EQ(column(contacts_), summed(contacts_));
}

TEST_F(stored_bytes_test, dav_writes_count_as_syncml_writes_do) {
    dav_collection c;
    dav_resource created;
    run_dav_transaction(*db_, [&](dav_store& s) {
        c = s.collection(common::tenant_id{tenant_}, common::user_id{user_}, common::item_kind::contact, ".vcf");
        created = s.create(c, "a.vcf", card("a"), {});
        EXPECT_EQ(s.user_stored_bytes(c), size_of(card("a")));
    });
    run_dav_transaction(*db_, [&](dav_store& s) {
        const auto current = s.named(c, {"a.vcf"}, true).at(0);
        s.replace(c, current, card("a", 700), {});
        EXPECT_EQ(s.user_stored_bytes(c), size_of(card("a", 700)));
        s.create(c, "b.vcf", card("b"), {});
    });
    EXPECT_EQ(counted(), size_of(card("a", 700)) + size_of(card("b")));
    run_dav_transaction(*db_, [&](dav_store& s) { s.remove(c, s.named(c, {"a.vcf"}, true).at(0)); });
    EXPECT_EQ(counted(), size_of(card("b")));
    EXPECT_EQ(counted(), summed());
}

// Two writers replace one item at once: the second waits for the first to commit and must then count from the size
// the first left, not from the size its own statement would have seen when it began.
TEST_F(stored_bytes_test, concurrent_replaces_of_one_item_leave_the_count_exact) {
    std::string guid;
    tx([&](sync_store& s) { guid = s.add_item(tenant_, contacts_, card("a"), {}).guid; });
    std::promise<void> first_replaced;
    auto first = std::async(std::launch::async, [&] {
        database own(url());
        bool signalled = false;
        const bool committed = run_sync_transaction(own, user_, [&](sync_store& s) {
            s.replace_item(tenant_, contacts_, guid, card("a", 1000), {});
            first_replaced.set_value();
            signalled = true;
            // Long enough that the second writer's statement starts before this commit.
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        });
        if (!signalled) first_replaced.set_value();  // a failure fails the test below instead of leaving it waiting
        return committed;
    });
    first_replaced.get_future().wait();
    tx([&](sync_store& s) { s.replace_item(tenant_, contacts_, guid, card("a", 10), {}); });
    EXPECT_TRUE(first.get());
    EXPECT_EQ(column(contacts_), size_of(card("a", 10)));
    EXPECT_EQ(column(contacts_), summed(contacts_));
}

class stored_bytes_migration_test : public testing::database_test {};

// Migration 0033 fills the column from the items that exist: live ones only, per datastore.
TEST_F(stored_bytes_migration_test, counts_the_live_items_that_exist_when_it_runs) {
    database db(url());
    in_transaction(db, [](pqxx::work& tx) {
        for (const auto& step : embedded_migrations()) {
            if (step.version >= 31) break;
            tx.exec(std::string(step.sql));
        }
        tx.exec(
            "INSERT INTO users (tenant_id, user_id, name, password_hash) SELECT tenant_id, "
            "syncml_user_key(tenant_id, n), n, 'x' FROM tenants, unnest(ARRAY['ann', 'bob']) n");
        tx.exec(
            "INSERT INTO datastores (tenant_id, user_id, name, kind) SELECT tenant_id, user_id, k, k FROM users, "
            "unnest(ARRAY['contacts', 'calendar']) k");
        tx.exec(
            "INSERT INTO items (tenant_id, user_id, datastore_id, content_type, content, modseq, deleted) "
            "SELECT d.tenant_id, d.user_id, d.datastore_id, 'text/plain', repeat('ë', n), n, n = 3 "
            "FROM datastores d JOIN users u USING (tenant_id, user_id), generate_series(1, 3) n "
            "WHERE u.name = 'ann' AND d.kind = 'contacts' OR u.name = 'bob' AND d.kind = 'calendar' AND n = 1");
        for (const auto& step : embedded_migrations()) {
            if (step.version >= 31) tx.exec(std::string(step.sql));
        }
        const auto counts = tx.exec(
            "SELECT u.name || ' ' || d.kind || ' ' || d.stored_bytes FROM datastores d JOIN users u USING "
            "(tenant_id, user_id) ORDER BY u.name, d.kind");
        std::vector<std::string> got;
        for (const auto& row : counts) got.push_back(row[0].as<std::string>());
        EXPECT_EQ(got,
                  (std::vector<std::string>{"ann calendar 0", "ann contacts 6", "bob calendar 2", "bob contacts 0"}))
            << "two bytes per ë, the tombstone (n = 3) left out";
        EXPECT_EQ(tx.exec1("SELECT max_user_bytes FROM tenants WHERE name = 'default'")[0].as<int64_t>(),
                  int64_t{1} << 30)
            << "the tenants that exist get the default quota";
    });
}

}  // namespace
}  // namespace syncml::persistence
