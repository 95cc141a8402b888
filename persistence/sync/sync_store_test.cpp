#include "persistence/sync/sync_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

class sync_store_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        auto user = add_user(*db_, default_tenant, "u1", "pw");
        tenant_ = user.tenant_id;
        user_ = user.id;
    }
    template <class Fn>
    void tx(Fn&& fn) {
        ASSERT_TRUE(run_sync_transaction(*db_, user_, [&](sync_store& store) { fn(store); }));
    }

    std::int64_t tenant_ = 0;
    std::int64_t user_ = 0;
};

TEST_F(sync_store_test, changes_skip_what_a_device_sent_itself_and_include_what_others_changed) {
    std::int64_t ds = 0, store_a = 0, store_b = 0;
    std::string guid;
    tx([&](sync_store& s) {
        ds = s.datastore(tenant_, user_, common::item_kind::contact);
        store_a = s.device_store(tenant_, s.device(tenant_, user_, "a").id, ds, "./c").id;
        store_b = s.device_store(tenant_, s.device(tenant_, user_, "b").id, ds, "./c").id;
        auto item = s.add_item(tenant_, ds, "BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\n", {"k1"});
        guid = item.guid;
        s.set_mapping(tenant_, store_a, "1", guid, item.modseq);
    });
    tx([&](sync_store& s) {
        auto upto = s.current_modseq(tenant_, ds);
        EXPECT_EQ(upto, 1);
        EXPECT_TRUE(s.changes(tenant_, store_a, 0, upto, true).empty());
        auto for_b = s.changes(tenant_, store_b, 0, upto, true);
        ASSERT_EQ(for_b.size(), 1u);
        EXPECT_EQ(for_b[0].guid, guid);
        EXPECT_FALSE(for_b[0].luid);
        auto mapped = s.mapping_of_luid(tenant_, store_a, "1");
        ASSERT_TRUE(mapped);
        EXPECT_EQ(mapped->guid, guid);
        auto found = s.twin_candidates(tenant_, ds, store_b, {"k1", "k9"});
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found[0].guid, guid);
        EXPECT_EQ(found[0].keys, std::vector<std::string>{"k1"});
        EXPECT_TRUE(s.twin_candidates(tenant_, ds, store_a, {"k1"}).empty()) << "A holds it confirmed";
    });
    // B replaces it: A sees the change with its own LUID, B does not.
    tx([&](sync_store& s) {
        s.set_mapping(tenant_, store_b, "b1", guid, 1);
        auto replaced = s.replace_item(tenant_, ds, guid, "BEGIN:VCARD\r\nFN:B\r\nEND:VCARD\r\n", {"k2"});
        ASSERT_TRUE(replaced);
        s.touch_mapping(tenant_, store_b, guid, replaced->modseq);
        auto for_a = s.changes(tenant_, store_a, 1, replaced->modseq, true);
        ASSERT_EQ(for_a.size(), 1u);
        EXPECT_EQ(for_a[0].luid, "1");
        EXPECT_TRUE(s.changes(tenant_, store_b, 1, replaced->modseq, true).empty());
        EXPECT_TRUE(s.twin_candidates(tenant_, ds, store_a, {"k1"}).empty());
    });
    // A deletion is a tombstone with the next modseq; unconfirmed mappings hide the LUID.
    tx([&](sync_store& s) {
        auto deleted = s.delete_item(tenant_, ds, guid);
        ASSERT_TRUE(deleted);
        EXPECT_EQ(deleted->modseq, 3);
        EXPECT_FALSE(s.delete_item(tenant_, ds, guid));
        s.unconfirm_mappings(tenant_, store_a);
        EXPECT_FALSE(s.confirmed_luid(tenant_, store_a, guid));
        auto for_a = s.changes(tenant_, store_a, 0, 3, true);
        ASSERT_EQ(for_a.size(), 1u);
        EXPECT_TRUE(for_a[0].deleted);
        EXPECT_FALSE(for_a[0].luid);
        EXPECT_TRUE(for_a[0].mapped) << "the device held it before the mappings were unconfirmed";
        EXPECT_TRUE(s.changes(tenant_, store_a, 0, 3, false).empty());
        auto held = s.add_item(tenant_, ds, "BEGIN:VCARD\r\nFN:C\r\nEND:VCARD\r\n", {"k3"});
        s.set_mapping(tenant_, store_a, "c1", held.guid, held.modseq);
        s.unconfirm_mappings(tenant_, store_a);
        auto never = s.add_item(tenant_, ds, "BEGIN:VCARD\r\nFN:D\r\nEND:VCARD\r\n", {"k4"});
        auto live = s.changes(tenant_, store_a, 3, never.modseq, false);
        ASSERT_EQ(live.size(), 2u);
        EXPECT_EQ(live[0].guid, held.guid);
        EXPECT_TRUE(live[0].mapped);
        EXPECT_FALSE(live[0].luid);
        EXPECT_EQ(live[1].guid, never.guid);
        EXPECT_FALSE(live[1].mapped) << "never sent to the device";
    });
}

// A device's views of the user's datastores, with their kind and the format the last completed sync used: the task
// datastore seen under a calendar's remote URI is how a device calendar that holds tasks is remembered (issue 36).
TEST_F(sync_store_test, device_store_views_list_each_view_with_its_kind_and_remembered_format) {
    std::int64_t device = 0, calendar = 0, tasks = 0;
    tx([&](sync_store& s) {
        device = s.device(tenant_, user_, "phone").id;
        EXPECT_TRUE(s.device_store_views(tenant_, device).empty());
        calendar = s.device_store_of_kind(tenant_, user_, device, common::item_kind::event, "./Calendar").id;
        tasks = s.device_store_of_kind(tenant_, user_, device, common::item_kind::task, "./Calendar").id;
        s.device_store_of_kind(tenant_, user_, s.device(tenant_, user_, "other").id, common::item_kind::task, "x");
        auto ds = s.device_store(tenant_, device, s.datastore(tenant_, user_, common::item_kind::event), "./Calendar");
        ds.client_anchor = "a1";
        ds.content_type = "text/x-vcalendar";
        ds.content_version = "1.0";
        s.save_device_store(tenant_, ds);
    });
    tx([&](sync_store& s) {
        auto views = s.device_store_views(tenant_, device);
        ASSERT_EQ(views.size(), 2u) << "only this device's views";
        EXPECT_EQ(views[0].id, calendar);
        EXPECT_EQ(views[0].kind, common::item_kind::event);
        EXPECT_EQ(views[0].remote_uri, "./Calendar");
        EXPECT_EQ(views[0].content_type, "text/x-vcalendar");
        EXPECT_EQ(views[0].content_version, "1.0");
        EXPECT_EQ(views[1].id, tasks);
        EXPECT_EQ(views[1].kind, common::item_kind::task);
        EXPECT_EQ(views[1].content_type, "");
        // A sync that learned no format keeps the remembered one.
        auto ds = s.device_store(tenant_, device, views[0].datastore_id, "./Calendar");
        ds.client_anchor = "a2";
        s.save_device_store(tenant_, ds);
    });
    tx([&](sync_store& s) {
        auto views = s.device_store_views(tenant_, device);
        ASSERT_EQ(views.size(), 2u);
        EXPECT_EQ(views[0].content_type, "text/x-vcalendar");
        EXPECT_EQ(views[0].content_version, "1.0");
    });
}

TEST_F(sync_store_test, twin_candidates_come_from_the_current_keys_in_one_row_per_item) {
    tx([&](sync_store& s) {
        auto ds = s.datastore(tenant_, user_, common::item_kind::contact);
        auto phone = s.device_store(tenant_, s.device(tenant_, user_, "c").id, ds, "./c").id;
        auto ann = s.add_item(tenant_, ds, "ann", {"name:ann", "tel:1"});
        auto bob = s.add_item(tenant_, ds, "bob", {"tel:1"});
        auto odd = s.add_item(tenant_, ds, "odd", {"name:a \"b\" \\c,{d}"});
        s.replace_item(tenant_, ds, ann.guid, "ann b", {"name:ann b", "tel:1"});
        auto found = s.twin_candidates(tenant_, ds, phone, {"name:ann", "name:ann b", "tel:1", "name:a \"b\" \\c,{d}"});
        ASSERT_EQ(found.size(), 3u);
        EXPECT_EQ(found[0].guid, ann.guid);
        EXPECT_EQ(found[0].content, "ann b");
        auto keys = found[0].keys;
        std::sort(keys.begin(), keys.end());
        EXPECT_EQ(keys, (std::vector<std::string>{"name:ann b", "tel:1"}));
        EXPECT_EQ(found[1].guid, bob.guid);
        EXPECT_EQ(found[2].guid, odd.guid);
        EXPECT_EQ(found[2].keys, std::vector<std::string>{"name:a \"b\" \\c,{d}"});
        EXPECT_TRUE(s.twin_candidates(tenant_, ds, phone, {"name:ann"}).empty()) << "replaced keys are gone";

        s.set_mapping(tenant_, phone, "L1", bob.guid, bob.modseq);
        EXPECT_EQ(s.twin_candidates(tenant_, ds, phone, {"tel:1"}).size(), 1u) << "bob is held by the phone";
        auto mapping = s.mapping_of_luid(tenant_, phone, "L1");
        ASSERT_TRUE(mapping);
        EXPECT_EQ(mapping->guid, bob.guid);
        EXPECT_EQ(mapping->revision, bob.modseq);
        auto held = s.mappings_of_luids(tenant_, phone, {"L1", "L2"});
        ASSERT_EQ(held.size(), 1u);
        EXPECT_EQ(held[0].luid, "L1");
        EXPECT_EQ(held[0].guid, bob.guid);
        EXPECT_EQ(held[0].revision, bob.modseq);
        EXPECT_EQ(held[0].item_modseq, bob.modseq);
        EXPECT_FALSE(held[0].item_deleted);
        s.unconfirm_mappings(tenant_, phone);
        EXPECT_EQ(s.mapping_of_luid(tenant_, phone, "L1")->revision, -1);
        auto unconfirmed = s.mappings_of_luids(tenant_, phone, {"L1"});
        ASSERT_EQ(unconfirmed.size(), 1u) << "an unconfirmed mapping is listed too";
        EXPECT_EQ(unconfirmed[0].revision, -1);
        auto again = s.twin_candidates(tenant_, ds, phone, {"tel:1"});
        ASSERT_EQ(again.size(), 2u) << "unconfirmed: a candidate again";
        EXPECT_FALSE(again[0].mapped) << "ann was never the phone's";
        EXPECT_EQ(again[0].sent_by_device, -1);
        EXPECT_TRUE(again[1].mapped) << "bob was the phone's before";
        EXPECT_EQ(again[1].sent_by_device, bob.modseq) << "unconfirming keeps what the phone had sent";
        s.unconfirm_mappings(tenant_, phone);
        EXPECT_EQ(s.twin_candidates(tenant_, ds, phone, {"tel:1"})[1].sent_by_device, bob.modseq) << "and again";
        EXPECT_EQ(s.conflict_policy(tenant_), common::conflict_policy::merge);
        auto gone = s.delete_item(tenant_, ds, bob.guid);
        ASSERT_TRUE(gone);
        auto tombstone = s.mappings_of_luids(tenant_, phone, {"L1"});
        ASSERT_EQ(tombstone.size(), 1u) << "a mapping of a deleted item is listed with the deletion";
        EXPECT_TRUE(tombstone[0].item_deleted);
        EXPECT_EQ(tombstone[0].item_modseq, gone->modseq);
    });
}

TEST_F(sync_store_test, twin_candidates_are_capped_per_key) {
    tx([&](sync_store& s) {
        auto ds = s.datastore(tenant_, user_, common::item_kind::contact);
        auto phone = s.device_store(tenant_, s.device(tenant_, user_, "c").id, ds, "./c").id;
        for (int i = 0; i < k_candidates_per_key + 10; ++i) s.add_item(tenant_, ds, "x", {"tel:switchboard"});
        auto last = s.add_item(tenant_, ds, "y", {"tel:switchboard", "name:y"});
        auto found = s.twin_candidates(tenant_, ds, phone, {"tel:switchboard", "name:y"});
        EXPECT_EQ(found.size(), static_cast<std::size_t>(k_candidates_per_key) + 1);
        EXPECT_EQ(found.back().guid, last.guid) << "found by its other key";
    });
}

// Every statement names the transaction's user (persistence/DISTRIBUTED.md): another user's datastore id reaches
// none of its rows, and a call that names a second user is refused before any statement runs.
TEST_F(sync_store_test, a_transaction_reaches_the_rows_of_its_own_user_only) {
    const auto other = add_user(*db_, default_tenant, "u2", "pw").id;
    std::int64_t theirs = 0;
    std::string guid;
    ASSERT_TRUE(run_sync_transaction(*db_, other, [&](sync_store& s) {
        theirs = s.datastore(tenant_, other, common::item_kind::contact);
        guid = s.add_item(tenant_, theirs, "BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\n", {"k"}).guid;
    }));
    tx([&](sync_store& s) {
        EXPECT_FALSE(s.find_item(tenant_, theirs, guid));
        EXPECT_FALSE(s.replace_item(tenant_, theirs, guid, "BEGIN:VCARD\r\nFN:B\r\nEND:VCARD\r\n", {}));
        EXPECT_FALSE(s.delete_item(tenant_, theirs, guid));
        EXPECT_EQ(s.live_items(tenant_, theirs, 10), 0);
    });
    EXPECT_THROW(run_sync_transaction(*db_, user_,
                                      [&](sync_store& s) { s.datastore(tenant_, other, common::item_kind::contact); }),
                 std::logic_error);
    ASSERT_TRUE(run_sync_transaction(*db_, other, [&](sync_store& s) {
        EXPECT_EQ(s.find_item(tenant_, theirs, guid)->content, "BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\n");
    }));
}

TEST_F(sync_store_test, sessions_round_trip_binary_state_and_replies) {
    std::string state("a\0b", 3), reply("\x03\x01\x6a\x00", 4);
    std::int64_t key = 0;
    tx([&](sync_store& s) {
        key = s.create_session(tenant_, "dev", "7");
        session_record rec;
        rec.id = key;
        rec.session_id = "7";
        rec.device_uri = "dev";
        rec.user_id = user_;
        rec.state = state;
        rec.last_msg_id = "2";
        rec.last_reply = reply;
        rec.last_reply_type = "application/vnd.syncml+wbxml";
        s.save_session(tenant_, rec);
    });
    tx([&](sync_store& s) {
        auto found = s.lock_session(tenant_, "dev", "7");
        ASSERT_TRUE(found);
        EXPECT_EQ(found->id, key);
        EXPECT_EQ(found->state, state);
        EXPECT_EQ(found->last_reply, reply);
        EXPECT_EQ(found->last_msg_id, "2");
        EXPECT_EQ(s.lock_session_by_key(tenant_, key)->user_id, user_);
        EXPECT_FALSE(s.lock_session(tenant_, "dev", "8"));
        EXPECT_FALSE(s.token_secret().empty());
    });
}

}  // namespace
}  // namespace syncml::persistence
