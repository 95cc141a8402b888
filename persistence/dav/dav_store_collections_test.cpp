// The collections of a user as the DAV store keeps them (issue 38), against PostgreSQL: made, listed, their
// properties, deleted (tombstones a SyncML device still receives), capped, and removed by the janitor.
#include <gtest/gtest.h>

#include "persistence/accounts/accounts.hpp"
#include "persistence/dav/dav_store.hpp"
#include "persistence/maintenance/janitor.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

const std::string k_event =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nDTSTART:20260105T090000Z\r\nSUMMARY:e\r\n"
    "END:VEVENT\r\nEND:VCALENDAR\r\n";

class dav_store_collections_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        auto user = add_user(*db_, default_tenant, "ann", "pw");
        tenant_ = common::tenant_id{user.tenant_id};
        user_ = common::user_id{user.id};
    }
    template <class Fn>
    void tx(Fn&& fn) {
        run_dav_transaction(*db_, [&](dav_store& store) { fn(store); });
    }
    std::vector<dav_collection> all() {
        std::vector<dav_collection> out;
        tx([&](dav_store& s) { out = s.collections(tenant_, user_); });
        return out;
    }
    std::optional<dav_collection> named(const std::string& name) {
        for (auto& c : all()) {
            if (c.name == name) return c;
        }
        return std::nullopt;
    }
    collection_creation create(const std::string& name, std::vector<std::string> components,
                               collection_properties props = {}, std::size_t max = 50) {
        collection_creation result{};
        const auto kind =
            components.empty() || components.front() == "VEVENT" ? common::item_kind::event : common::item_kind::task;
        tx([&](dav_store& s) {
            result = s.create_collection(
                tenant_, user_, {.name = name, .kind = kind, .components = components, .properties = props}, max);
        });
        return result;
    }
    std::string value(const std::string& query) { return query_value(*db_, query); }

    common::tenant_id tenant_{0};
    common::user_id user_{0};
};

TEST_F(dav_store_collections_test, the_four_a_user_starts_with_are_the_defaults) {
    auto collections = all();
    ASSERT_EQ(collections.size(), 4u);
    for (const auto& c : collections) {
        EXPECT_TRUE(c.is_default) << c.name;
        EXPECT_EQ(c.name, common::datastore_name(c.kind));
        EXPECT_TRUE(c.components.empty());
        EXPECT_EQ(c.properties, collection_properties{});
    }
}

TEST_F(dav_store_collections_test, a_new_collection_keeps_its_kind_components_and_properties) {
    const collection_properties props{.display_name = "Work",
                                      .description = "Office",
                                      .color = "#FF0000FF",
                                      .order = -3,
                                      .time_zone = "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"};
    ASSERT_EQ(create("work", {"VEVENT", "VTODO"}, props), collection_creation::created);
    auto work = named("work");
    ASSERT_TRUE(work);
    EXPECT_FALSE(work->is_default);
    EXPECT_EQ(work->kind, common::item_kind::event);
    EXPECT_EQ(work->components, (std::vector<std::string>{"VEVENT", "VTODO"}));
    EXPECT_EQ(work->properties, props);
    EXPECT_EQ(create("work", {"VEVENT"}), collection_creation::name_taken);
    EXPECT_EQ(create("calendar", {"VEVENT"}), collection_creation::name_taken);
    tx([&](dav_store& s) {
        s.set_properties(*work,
                         {.display_name = "Office", .description = {}, .color = "blue", .order = {}, .time_zone = {}});
    });
    EXPECT_EQ(named("work")->properties,
              (collection_properties{
                  .display_name = "Office", .description = {}, .color = "blue", .order = {}, .time_zone = {}}));
    int64_t default_calendar = 0;
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        default_calendar = s.datastore(tenant_.value(), user_.value(), common::item_kind::event);
    }));
    EXPECT_EQ(default_calendar, named("calendar")->datastore.value()) << "SyncML keeps the default";
}

TEST_F(dav_store_collections_test, a_collection_of_a_kind_without_its_default_makes_the_default_first) {
    value("DELETE FROM datastores WHERE kind = 'tasks' RETURNING 1");
    ASSERT_EQ(create("chores", {"VTODO"}), collection_creation::created);
    auto tasks = named("tasks");
    auto chores = named("chores");
    ASSERT_TRUE(tasks && chores);
    EXPECT_TRUE(tasks->is_default);
    EXPECT_FALSE(chores->is_default);
    EXPECT_LT(tasks->datastore.value(), chores->datastore.value());
}

TEST_F(dav_store_collections_test, a_user_has_at_most_the_collections_allowed) {
    EXPECT_EQ(create("a", {"VEVENT"}, {}, 5), collection_creation::created);
    EXPECT_EQ(create("b", {"VEVENT"}, {}, 5), collection_creation::too_many);
    EXPECT_EQ(all().size(), 5u);
}

TEST_F(dav_store_collections_test, a_deleted_collection_leaves_tombstones_a_syncml_device_still_receives) {
    ASSERT_EQ(create("work", {"VEVENT"}), collection_creation::created);
    auto work = *named("work");
    work.suffix = ".ics";
    tx([&](dav_store& s) {
        s.create(work, "a.ics", k_event, {"uid:a"});
        s.create(work, "b.ics", k_event, {"uid:b"});
    });
    // A phone syncs work and has seen both items.
    int64_t view = 0;
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        const auto device = s.device(tenant_.value(), user_.value(), "phone").id;
        auto ds = s.open_device_store(tenant_.value(), {user_.value(), device, common::item_kind::event, "./cal",
                                                        "phone", "resume:", "", "work"});
        ds.last_seen_modseq = 2;
        ds.client_anchor = "c1";
        ds.needs_slow_sync = false;
        s.save_device_store(tenant_.value(), ds);
        view = ds.id;
    }));
    const auto bytes_before = value("SELECT sum(stored_bytes) FROM datastores");
    tx([&](dav_store& s) { s.delete_collection(work); });
    EXPECT_FALSE(named("work"));
    EXPECT_EQ(all().size(), 4u);
    const auto id = std::to_string(work.datastore.value());
    EXPECT_EQ(value("SELECT name || ' ' || modseq || ' ' || stored_bytes || ' ' || (deleted_at IS NOT NULL) FROM "
                    "datastores WHERE datastore_id = " +
                    id),
              "work/" + id + " 4 0 true");
    EXPECT_EQ(value("SELECT string_agg(modseq::text || deleted::text, ',' ORDER BY modseq) FROM items WHERE "
                    "datastore_id = " +
                    id),
              "3true,4true")
        << "each deletion with its own modseq";
    EXPECT_EQ(value("SELECT count(*) FROM item_match_keys WHERE datastore_id = " + id), "0");
    EXPECT_NE(value("SELECT sum(stored_bytes) FROM datastores"), bytes_before);
    server_changes_record pending;
    ASSERT_TRUE(run_sync_transaction(*db_, user_.value(), [&](sync_store& s) {
        pending = s.server_changes(tenant_.value(), work.datastore.value(), view, true, false, true);
    }));
    EXPECT_EQ(pending.current_modseq, 4) << "the phone's view stays, with the deletions to come";
    EXPECT_EQ(pending.last_seen_modseq, 2);
    EXPECT_EQ(create("work", {"VEVENT"}), collection_creation::created) << "the name is free again";
    EXPECT_NE(named("work")->datastore, work.datastore);
}

TEST_F(dav_store_collections_test, the_janitor_removes_a_deleted_collection_after_the_tombstone_retention) {
    ASSERT_EQ(create("work", {"VEVENT"}), collection_creation::created);
    auto work = *named("work");
    work.suffix = ".ics";
    tx([&](dav_store& s) { s.create(work, "a.ics", k_event, {"uid:a"}); });
    tx([&](dav_store& s) { s.delete_collection(work); });
    const auto id = std::to_string(work.datastore.value());
    EXPECT_EQ(run_janitor(*db_, "test").collections, 0u) << "within the retention";
    value("UPDATE datastores SET deleted_at = now() - interval '91 days' WHERE datastore_id = " + id + " RETURNING 1");
    value("UPDATE items SET updated_at = now() - interval '91 days' WHERE datastore_id = " + id + " RETURNING 1");
    auto report = run_janitor(*db_, "test");
    EXPECT_EQ(report.collections, 1u);
    EXPECT_EQ(value("SELECT count(*) FROM datastores WHERE datastore_id = " + id), "0");
    EXPECT_EQ(value("SELECT count(*) FROM items WHERE datastore_id = " + id), "0");
    EXPECT_EQ(all().size(), 4u);
}

}  // namespace
}  // namespace syncml::persistence
