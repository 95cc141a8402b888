// The opening of a device store (datastore, the device's view of it, the sync window in effect) and resume pointers.
#include <gtest/gtest.h>

#include <future>

#include "persistence/sync/sync_store_session_fixture.hpp"

namespace syncml::persistence {
namespace {

using namespace std::chrono_literals;

using device_store_opening_test = sync_store_session_test;

TEST_F(device_store_opening_test, device_store_of_kind_creates_the_datastore_once_and_returns_the_devices_view) {
    // The user's datastores as an admin left them: one of them, not named after its kind.
    auto addressbook = in_transaction(*db_, [&](pqxx::work& t) {
        t.exec_params0("DELETE FROM datastores WHERE tenant_id = $1", tenant_);
        auto row = t.exec_params1(
            "INSERT INTO datastores (tenant_id, user_id, name, kind) VALUES ($1, $2, 'addressbook', 'contacts') "
            "RETURNING datastore_id",
            tenant_, user_);
        return row[0].as<std::int64_t>();
    });
    tx([&](sync_store& s) {
        auto device = s.device(tenant_, user_, "phone");
        // An existing datastore of the kind is used, whatever its name; a missing one is created.
        auto contacts = s.device_store_of_kind(tenant_, user_, device.id, common::item_kind::contact, "./contacts");
        EXPECT_GT(contacts.id, 0);
        EXPECT_EQ(contacts.datastore_id, addressbook);
        EXPECT_TRUE(contacts.needs_slow_sync);
        auto calendar = s.device_store_of_kind(tenant_, user_, device.id, common::item_kind::event, "./calendar");
        EXPECT_NE(calendar.datastore_id, contacts.datastore_id);
        EXPECT_EQ(calendar.datastore_id, s.datastore(tenant_, user_, common::item_kind::event));
        contacts.client_anchor = "c1";
        contacts.server_anchor = "s1";
        contacts.last_seen_modseq = 4;
        contacts.needs_slow_sync = false;
        s.save_device_store(tenant_, contacts);
        auto again = s.device_store_of_kind(tenant_, user_, device.id, common::item_kind::contact, "./contacts");
        EXPECT_EQ(again.id, contacts.id);
        EXPECT_EQ(again.datastore_id, contacts.datastore_id);
        EXPECT_EQ(again.client_anchor, "c1");
        EXPECT_EQ(again.server_anchor, "s1");
        EXPECT_EQ(again.last_seen_modseq, 4);
        EXPECT_FALSE(again.needs_slow_sync);
        EXPECT_EQ(again.previous_client_anchor, "") << "no sync completed before";
        // The next completed sync keeps the one before as the previous (a client that lost it presents its anchor);
        // a slow sync required meanwhile changes nothing of that.
        s.require_slow_sync(tenant_, contacts.id);
        EXPECT_TRUE(s.device_store_of_kind(tenant_, user_, device.id, common::item_kind::contact, "./contacts")
                        .needs_slow_sync);
        again.client_anchor = "c2";
        again.last_seen_modseq = 9;
        s.save_device_store(tenant_, again);
        again = s.device_store_of_kind(tenant_, user_, device.id, common::item_kind::contact, "./contacts");
        EXPECT_EQ(again.client_anchor, "c2");
        EXPECT_EQ(again.last_seen_modseq, 9);
        EXPECT_EQ(again.previous_client_anchor, "c1");
        EXPECT_EQ(again.previous_seen_modseq, 4);
        auto opened = s.open_device_store(
            tenant_, {user_, device.id, common::item_kind::contact, "./contacts", "phone", "resume:", ""});
        EXPECT_EQ(opened.previous_client_anchor, "c1") << "open_device_store reads the same columns";
        EXPECT_EQ(opened.previous_seen_modseq, 4);
        // Another local store of the device is another view of the same datastore.
        auto sim = s.device_store_of_kind(tenant_, user_, device.id, common::item_kind::contact, "./sim");
        EXPECT_NE(sim.id, contacts.id);
        EXPECT_EQ(sim.datastore_id, contacts.datastore_id);
    });
    EXPECT_EQ(sql_value("SELECT count(*) FROM datastores"), "2");
}

TEST_F(device_store_opening_test, a_resume_pointer_names_the_session_it_was_last_set_to_while_both_live) {
    tx([&](sync_store& s) {
        save_session_of_user(s, "S1", "state-of-S1");
        EXPECT_FALSE(s.lock_pointed_session(tenant_, "phone", "resume:1"));
        s.set_resume_pointer(tenant_, "phone", "resume:1", "S1");
        auto pointed = s.lock_pointed_session(tenant_, "phone", "resume:1");
        ASSERT_TRUE(pointed);
        EXPECT_EQ(pointed->session_id, "S1");
        EXPECT_EQ(pointed->state, "state-of-S1");
        EXPECT_EQ(pointed->user_id, user_);
        // Pointers of other devices or stores are separate.
        EXPECT_FALSE(s.lock_pointed_session(tenant_, "tablet", "resume:1"));
        EXPECT_FALSE(s.lock_pointed_session(tenant_, "phone", "resume:2"));
    });
    // The pointer is no running session: it supersedes nothing.
    EXPECT_FALSE(superseded("S1"));
    EXPECT_EQ(sql_value("SELECT count(*) FROM sessions"), "1");
    EXPECT_EQ(sql_value("SELECT user_id = " + std::to_string(user_) +
                        " FROM resume_pointers WHERE pointer = 'resume:1' AND syncml_session_id = 'S1'"),
              "t");
    tx([&](sync_store& s) {
        s.set_resume_pointer(tenant_, "phone", "resume:1", "S2");
        EXPECT_FALSE(s.lock_pointed_session(tenant_, "phone", "resume:1"));
    });
    // An expired pointer names nothing until it is set again, which restarts it.
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec("UPDATE resume_pointers SET expires_at = now() - interval '1 second' WHERE pointer = 'resume:1'");
    });
    tx([&](sync_store& s) {
        EXPECT_FALSE(s.lock_pointed_session(tenant_, "phone", "resume:1"));
        s.set_resume_pointer(tenant_, "phone", "resume:1", "S1");
        EXPECT_EQ(s.lock_pointed_session(tenant_, "phone", "resume:1")->session_id, "S1");
    });
}

// A session that its messages kept alive for longer than half an hour (a long slow sync), then was cut off, can still
// be resumed: the pointer set by its Alert lasts as long as the session does, by either way of setting it.
TEST_F(device_store_opening_test, a_resume_pointer_outlives_a_long_session) {
    std::string opened_pointer;
    tx([&](sync_store& s) {
        save_session_of_user(s, "S1", "state-of-S1");
        s.set_resume_pointer(tenant_, "phone", "resume:1", "S1");
        auto ds = s.open_device_store(tenant_, {user_, s.device(tenant_, user_, "phone").id, common::item_kind::contact,
                                                "./contacts", "phone", "resume:", "S1"});
        opened_pointer = "resume:" + std::to_string(ds.id);
    });
    // 45 minutes later: the Alert was then, the session's last message just now (its row renewed).
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec("UPDATE resume_pointers SET expires_at = expires_at - interval '45 minutes'");
        t.exec("UPDATE sessions SET created_at = created_at - interval '45 minutes'");
    });
    tx([&](sync_store& s) {
        for (const auto& pointer : {std::string("resume:1"), opened_pointer}) {
            auto pointed = s.lock_pointed_session(tenant_, "phone", pointer);
            ASSERT_TRUE(pointed) << pointer;
            EXPECT_EQ(pointed->state, "state-of-S1");
        }
    });
}

// A datastore of another kind under the name a kind's datastore would get (an edit outside the server) stops its
// creation: the message's transaction fails as a database error (a 503 and a log line), nothing is written.
TEST_F(device_store_opening_test, a_kind_whose_name_another_kind_took_fails_as_a_database_error) {
    std::int64_t device = 0;
    tx([&](sync_store& s) { device = s.device(tenant_, user_, "phone").id; });
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec_params0("DELETE FROM datastores WHERE tenant_id = $1", tenant_);
        t.exec_params0(
            "INSERT INTO datastores (tenant_id, user_id, name, kind) VALUES ($1, $2, 'contacts', 'calendar')", tenant_,
            user_);
    });
    EXPECT_FALSE(run_sync_transaction(*db_, user_, [&](sync_store& s) {
        s.open_device_store(tenant_,
                            {user_, device, common::item_kind::contact, "./contacts", "phone", "resume:", "S1"});
    }));
    EXPECT_FALSE(run_sync_transaction(*db_, user_, [&](sync_store& s) {
        s.device_store_of_kind(tenant_, user_, device, common::item_kind::contact, "./contacts");
    }));
    EXPECT_EQ(sql_value("SELECT count(*) FROM datastores"), "1");
    EXPECT_EQ(sql_value("SELECT count(*) FROM device_stores"), "0");
}

// Two devices of the user open the same new datastore at once: the second statement's snapshot predates the
// first one's datastore, so it finds none and its insert conflicts; it must look again rather than fail.
TEST_F(device_store_opening_test, device_store_of_kind_uses_a_datastore_another_transaction_created_meanwhile) {
    in_transaction(*db_,
                   [&](pqxx::work& t) { t.exec_params0("DELETE FROM datastores WHERE tenant_id = $1", tenant_); });
    std::int64_t tablet = 0;
    tx([&](sync_store& s) { tablet = s.device(tenant_, user_, "tablet").id; });
    std::promise<void> created;
    std::promise<void> release;
    std::int64_t first = 0;
    auto holder = std::async(std::launch::async, [&] {
        database db(url());
        return run_sync_transaction(db, [&](sync_store& s) {
            first = s.datastore(tenant_, user_, common::item_kind::event);
            created.set_value();
            release.get_future().wait();
        });
    });
    created.get_future().wait();
    device_store_record second;
    auto opener = std::async(std::launch::async, [&] {
        database db(url());
        return run_sync_transaction(db, [&](sync_store& s) {
            second = s.device_store_of_kind(tenant_, user_, tablet, common::item_kind::event, "./calendar");
        });
    });
    EXPECT_EQ(opener.wait_for(300ms), std::future_status::timeout);
    release.set_value();
    EXPECT_TRUE(holder.get());
    ASSERT_EQ(opener.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(opener.get());
    EXPECT_EQ(second.datastore_id, first);
    EXPECT_GT(second.id, 0);
    EXPECT_EQ(sql_value("SELECT count(*) FROM datastores"), "1");
}

TEST_F(device_store_opening_test, open_device_store_moves_the_resume_pointer_only_when_given_a_session) {
    tx([&](sync_store& s) {
        auto rec = s.open_session(tenant_, "phone", "S1");
        rec.state = "state-of-S1";
        s.save_session(tenant_, rec);
        store_opening o{
            user_, s.device(tenant_, user_, "phone").id, common::item_kind::memo, "./notes", "phone", "resume:", ""};
        auto plain = s.open_device_store(tenant_, o);
        auto pointer = "resume:" + std::to_string(plain.id);
        EXPECT_FALSE(s.lock_pointed_session(tenant_, "phone", pointer));
        o.session_id = "S1";
        auto moved = s.open_device_store(tenant_, o);
        EXPECT_EQ(moved.id, plain.id);
        EXPECT_EQ(moved.datastore_id, s.datastore(tenant_, user_, common::item_kind::memo));
        EXPECT_EQ(s.lock_pointed_session(tenant_, "phone", pointer)->state, "state-of-S1");
    });
}

// Issue 18: the filter a device store last synced with is saved with it, and every way of reading the row brings the
// sync window in effect for the device: its own, else its tenant's.
TEST_F(device_store_opening_test, a_device_store_keeps_its_sync_filter_and_reads_the_window_in_effect) {
    std::int64_t device = 0, datastore = 0;
    const std::string filter = "type=exclusive\nwindow=span r-30 r365\n";
    tx([&](sync_store& s) {
        device = s.device(tenant_, user_, "phone").id;
        auto ds =
            s.open_device_store(tenant_, {user_, device, common::item_kind::event, "./cal", "phone", "resume:", "S1"});
        datastore = ds.datastore_id;
        EXPECT_EQ(ds.sync_filter, "");
        EXPECT_TRUE(ds.window.unlimited());
        ds.sync_filter = filter;
        s.save_device_store(tenant_, ds);
    });
    auto set_windows = [&](const std::string& sql) {
        in_transaction(*db_, [&](pqxx::work& t) { t.exec_params0(sql, tenant_, device); });
    };
    auto expect_rows = [&](const sync_window& expected) {
        tx([&](sync_store& s) {
            for (const auto& ds : {s.open_device_store(tenant_, {user_, device, common::item_kind::event, "./cal",
                                                                 "phone", "resume:", "S2"}),
                                   s.device_store_of_kind(tenant_, user_, device, common::item_kind::event, "./cal"),
                                   s.device_store(tenant_, device, datastore, "./cal")}) {
                EXPECT_EQ(ds.sync_filter, filter);
                EXPECT_EQ(ds.window, expected);
            }
        });
    };
    set_windows("UPDATE tenants SET window_past_days = 30, window_future_days = 365 WHERE tenant_id = $1 AND $2 > 0");
    expect_rows({30, 365, 0, 0});
    set_windows(
        "UPDATE devices SET window_past_days = 7, window_future_days = 0, window_max_items = 50, "
        "window_max_photo_bytes = 1000 WHERE tenant_id = $1 AND device_id = $2");
    expect_rows({7, 0, 50, 1000});
}

}  // namespace
}  // namespace syncml::persistence
