// Which collection a device's datastore syncs (issue 38), against PostgreSQL: the one its URI names, the one an
// operator chose, else the default; a deleted one until the device has its deletions.
#include "persistence/sync/device_collections.hpp"

#include <gtest/gtest.h>

#include "persistence/dav/dav_store.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/sync/sync_store_session_fixture.hpp"

namespace syncml::persistence {
namespace {

using device_collections_test = sync_store_session_test;
using common::item_kind;

class collections_fixture : public device_collections_test {
  protected:
    void SetUp() override {
        device_collections_test::SetUp();
        if (IsSkipped()) return;
        tx([&](sync_store& s) { device_ = s.device(tenant_, user_, "phone").id; });
    }
    // A collection of user u made as a DAV client makes it.
    std::int64_t make(const std::string& name, item_kind kind, std::vector<std::string> components) {
        run_dav_transaction(*db_, [&](dav_store& s) {
            s.create_collection(common::tenant_id{tenant_}, common::user_id{user_},
                                {.name = name, .kind = kind, .components = std::move(components), .properties = {}},
                                50);
        });
        return std::stoll(sql_value("SELECT datastore_id FROM datastores WHERE name = '" + name + "'"));
    }
    device_store_record open(item_kind kind, const std::string& remote_uri, const std::string& collection = "") {
        device_store_record ds;
        tx([&](sync_store& s) {
            ds = s.open_device_store(tenant_, {user_, device_, kind, remote_uri, "phone", "resume:", "", collection});
        });
        return ds;
    }
    std::int64_t default_of(item_kind kind) {
        std::int64_t id = 0;
        tx([&](sync_store& s) { id = s.datastore(tenant_, user_, kind); });
        return id;
    }
    std::string shown() {
        std::string out;
        for (const auto& c : device_collections(*db_, "acme", "u", "phone")) {
            out += std::string(common::datastore_name(c.kind)) + "=" + c.collection + (c.chosen ? "*" : "") +
                   (c.deleted ? "!" : "") + " ";
        }
        return out;
    }

    std::int64_t device_ = 0;
};

TEST_F(collections_fixture, a_datastore_syncs_its_kinds_default_unless_its_uri_names_a_collection) {
    const auto work = make("work", item_kind::event, {"VEVENT"});
    EXPECT_EQ(open(item_kind::event, "./cal").datastore_id, default_of(item_kind::event));
    auto named = open(item_kind::event, "./work", "work");
    EXPECT_EQ(named.datastore_id, work);
    EXPECT_FALSE(named.other_kinds);
    EXPECT_GT(named.id, 0);
    EXPECT_EQ(open(item_kind::event, "./cal", "calendar").datastore_id, default_of(item_kind::event))
        << "a kind's name is its default";
    const auto views = sql_value("SELECT count(*) FROM device_stores");
    EXPECT_EQ(open(item_kind::event, "./x", "nowhere").id, 0) << "no such collection";
    EXPECT_EQ(open(item_kind::task, "./x", "work").id, 0) << "work takes no tasks";
    EXPECT_EQ(open(item_kind::event, "./x", "tasks").id, 0) << "another kind's default";
    EXPECT_EQ(sql_value("SELECT count(*) FROM device_stores"), views) << "nothing opened";
}

TEST_F(collections_fixture, a_mixed_collection_syncs_each_kind_apart) {
    const auto work = make("work", item_kind::event, {"VEVENT", "VTODO"});
    auto events = open(item_kind::event, "./cal", "work");
    auto tasks = open(item_kind::task, "./todo", "work");
    EXPECT_EQ(events.datastore_id, work);
    EXPECT_EQ(tasks.datastore_id, work);
    EXPECT_TRUE(events.other_kinds);
    EXPECT_TRUE(tasks.other_kinds);
    EXPECT_NE(events.id, tasks.id);
}

TEST_F(collections_fixture, an_operator_points_a_datastore_at_a_collection_and_back) {
    EXPECT_EQ(shown(), "contacts=contacts calendar=calendar tasks=tasks memos=memos ");
    const auto work = make("work", item_kind::event, {"VEVENT", "VTODO"});
    set_device_collection(*db_, "acme", "u", "phone", item_kind::event, std::string("work"));
    EXPECT_EQ(shown(), "contacts=contacts calendar=work* tasks=tasks memos=memos ");
    auto ds = open(item_kind::event, "./cal");
    EXPECT_EQ(ds.datastore_id, work);
    EXPECT_TRUE(ds.needs_slow_sync) << "a view the device never synced";
    EXPECT_TRUE(ds.other_kinds);
    EXPECT_EQ(open(item_kind::event, "./cal", "calendar").datastore_id, default_of(item_kind::event))
        << "the URI's choice comes first";
    set_device_collection(*db_, "acme", "u", "phone", item_kind::task, std::string("work"));
    EXPECT_EQ(open(item_kind::task, "./todo").datastore_id, work);
    set_device_collection(*db_, "acme", "u", "phone", item_kind::event, std::nullopt);
    EXPECT_EQ(shown(), "contacts=contacts calendar=calendar tasks=work* memos=memos ");
    EXPECT_EQ(open(item_kind::event, "./cal").datastore_id, default_of(item_kind::event));
}

TEST_F(collections_fixture, a_choice_must_name_a_collection_of_the_users_that_takes_the_kind) {
    make("work", item_kind::event, {"VEVENT"});
    EXPECT_THROW(set_device_collection(*db_, "acme", "u", "phone", item_kind::event, std::string("none")), not_found);
    EXPECT_THROW(set_device_collection(*db_, "acme", "u", "phone", item_kind::task, std::string("work")),
                 std::invalid_argument);
    EXPECT_THROW(set_device_collection(*db_, "acme", "u", "phone", item_kind::contact, std::string("work")),
                 std::invalid_argument);
    EXPECT_THROW(set_device_collection(*db_, "acme", "u", "tablet", item_kind::event, std::string("work")), not_found);
    EXPECT_THROW(device_collections(*db_, "acme", "nobody", "phone"), not_found);
    EXPECT_EQ(shown(), "contacts=contacts calendar=calendar tasks=tasks memos=memos ");
}

TEST_F(collections_fixture, a_deleted_collection_is_synced_until_the_device_has_its_deletions) {
    const auto work = make("work", item_kind::event, {"VEVENT"});
    set_device_collection(*db_, "acme", "u", "phone", item_kind::event, std::string("work"));
    auto ds = open(item_kind::event, "./cal");
    auto named = open(item_kind::event, "./work", "work");
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec_params0("UPDATE datastores SET modseq = 5 WHERE datastore_id = $1", work);
        t.exec_params0("UPDATE device_stores SET last_modseq_seen = 5 WHERE datastore_id = $1", work);
    });
    run_dav_transaction(*db_, [&](dav_store& s) {
        for (auto& c : s.collections(common::tenant_id{tenant_}, common::user_id{user_})) {
            if (c.name == "work") s.delete_collection(c);
        }
    });
    // The deletion takes no modseq here (the collection was empty): pretend it deleted two items.
    in_transaction(
        *db_, [&](pqxx::work& t) { t.exec_params0("UPDATE datastores SET modseq = 7 WHERE datastore_id = $1", work); });
    EXPECT_EQ(shown(), "contacts=contacts calendar=work*! tasks=tasks memos=memos ");
    EXPECT_EQ(open(item_kind::event, "./cal").datastore_id, work) << "the deletions are still to come";
    EXPECT_EQ(open(item_kind::event, "./work", "work").datastore_id, work);
    EXPECT_EQ(open(item_kind::event, "./other", "work").id, 0) << "a view that never synced it has nothing to get";
    in_transaction(*db_, [&](pqxx::work& t) {
        t.exec_params0("UPDATE device_stores SET last_modseq_seen = 7 WHERE datastore_id = $1", work);
    });
    EXPECT_EQ(open(item_kind::event, "./work", "work").id, 0) << "after them, a collection that is no more";
    EXPECT_EQ(open(item_kind::event, "./cal").datastore_id, default_of(item_kind::event)) << "and the default";
    EXPECT_EQ(shown(), "contacts=contacts calendar=calendar tasks=tasks memos=memos ");
    (void)ds;
    (void)named;
}

}  // namespace
}  // namespace syncml::persistence
