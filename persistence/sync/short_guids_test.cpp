// The short ids sent in place of GUIDs longer than a device keeps, against PostgreSQL (issue 36, migration 0035).

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "persistence/accounts/accounts.hpp"
#include "persistence/accounts/devices.hpp"
#include "persistence/pg/test_query.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {
namespace {

std::map<std::string, std::string> by_guid(const std::vector<short_guid>& given) {
    std::map<std::string, std::string> out;
    for (const auto& g : given) out[g.guid] = g.id;
    return out;
}

std::map<std::string, std::string> by_id(const std::vector<short_guid>& found) {
    std::map<std::string, std::string> out;
    for (const auto& g : found) out[g.id] = g.guid;
    return out;
}

class short_guids_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        auto user = add_user(*db_, default_tenant, "u1", "pw");
        tenant_ = user.tenant_id;
        user_ = user.id;
        tx([&](sync_store& s) {
            datastore_ = s.datastore(tenant_, user_, common::item_kind::contact);
            phone_ = s.device_store(tenant_, s.device(tenant_, user_, "e51").id, datastore_, "./c").id;
            other_ = s.device_store(tenant_, s.device(tenant_, user_, "other").id, datastore_, "./c").id;
            for (const char* name : {"Ann", "Bob", "Cy"}) {
                guids_.push_back(
                    s.add_item(tenant_, datastore_, std::string("BEGIN:VCARD\r\nFN:") + name + "\r\nEND:VCARD\r\n", {})
                        .guid);
            }
        });
    }
    template <class Fn>
    void tx(Fn&& fn) {
        ASSERT_TRUE(run_sync_transaction(*db_, user_, [&](sync_store& store) { fn(store); }));
    }

    std::int64_t tenant_ = 0, user_ = 0, datastore_ = 0, phone_ = 0, other_ = 0;
    std::vector<std::string> guids_;
};

TEST_F(short_guids_test, each_item_keeps_the_number_it_was_given_and_new_ones_get_the_next) {
    tx([&](sync_store& s) {
        auto first = s.short_guids_for(tenant_, phone_, {guids_[1], guids_[0], guids_[1]});
        ASSERT_EQ(first.size(), 2u);
        EXPECT_EQ(by_guid(first)[guids_[1]], "1");
        EXPECT_EQ(by_guid(first)[guids_[0]], "2");
    });
    tx([&](sync_store& s) {  // a later message, a resend or a resume: the same ids, and the next number for Cy
        auto again = by_guid(s.short_guids_for(tenant_, phone_, {guids_[2], guids_[1]}));
        EXPECT_EQ(again[guids_[2]], "3");
        EXPECT_EQ(by_guid(s.short_guids_for(tenant_, phone_, {guids_[1]}))[guids_[1]], again[guids_[1]]);
        EXPECT_EQ(by_guid(s.short_guids_for(tenant_, other_, {guids_[2]}))[guids_[2]], "1")
            << "numbered per device store";
    });
}

TEST_F(short_guids_test, a_short_id_finds_its_item_only_for_the_device_store_that_was_given_it) {
    std::map<std::string, std::string> given;
    tx([&](sync_store& s) { given = by_guid(s.short_guids_for(tenant_, phone_, guids_)); });
    tx([&](sync_store& s) {
        auto found = by_id(s.guids_of_short_ids(
            tenant_, phone_, {given[guids_[0]], given[guids_[2]], "0" + given[guids_[1]], "4", "x", guids_[1], ""}));
        EXPECT_EQ(found.size(), 2u);
        EXPECT_EQ(found[given[guids_[0]]], guids_[0]);
        EXPECT_EQ(found[given[guids_[2]]], guids_[2]);
        EXPECT_TRUE(s.guids_of_short_ids(tenant_, other_, {given[guids_[0]]}).empty());
    });
}

// A purged item's row stays, so its number is never given to another item; the rows go with their device store.
TEST_F(short_guids_test, numbers_are_never_given_twice_and_go_with_the_device) {
    tx([&](sync_store& s) {
        auto given = by_guid(s.short_guids_for(tenant_, phone_, {guids_[0], guids_[1]}));
        EXPECT_EQ(given[guids_[1]], "2") << "numbered in the order asked";
    });
    ASSERT_EQ(query_value(*db_, "DELETE FROM items WHERE guid = '" + guids_[1] + "' RETURNING 1"), "1");
    tx([&](sync_store& s) {
        EXPECT_EQ(by_guid(s.short_guids_for(tenant_, phone_, {guids_[2]}))[guids_[2]], "3");
        EXPECT_EQ(by_id(s.guids_of_short_ids(tenant_, phone_, {"2"}))["2"], guids_[1]);
    });
    delete_device(*db_, default_tenant, "u1", "e51");
    EXPECT_EQ(query_value(*db_, "SELECT count(*) FROM short_guids"), "0");
}

// A Map's write of an id of no item (item_batch.cpp) says so, and maps nothing; one of a known item maps it.
TEST_F(short_guids_test, a_map_write_of_an_unknown_guid_is_reported_missing) {
    tx([&](sync_store& s) {
        item_write known;
        known.guid = guids_[0];
        known.luid = "10";
        known.at_current = true;
        known.at_most = 0;
        item_write unknown = known;
        unknown.guid = "00000000-0000-4000-8000-999999999999";
        unknown.luid = "11";
        auto done = s.write_items(tenant_, datastore_, phone_, {known, unknown});
        ASSERT_EQ(done.size(), 2u);
        EXPECT_FALSE(done[0].missing);
        EXPECT_TRUE(done[1].missing);
        EXPECT_TRUE(s.mapping_of_luid(tenant_, phone_, "10"));
        EXPECT_FALSE(s.mapping_of_luid(tenant_, phone_, "11"));
    });
}

}  // namespace
}  // namespace syncml::persistence
