// The chunk store of large incoming objects and the bounded item count against PostgreSQL (issue 15).

#include <gtest/gtest.h>

#include <string>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/test_support.hpp"
#include "persistence/sync/sync_store.hpp"

namespace syncml::persistence {
namespace {

class incoming_chunks_test : public testing::migrated_database_test {
  protected:
    void SetUp() override {
        migrated_database_test::SetUp();
        if (IsSkipped()) return;
        auto user = add_user(*db_, default_tenant, "u1", "pw");
        tenant_ = user.tenant_id;
        user_ = user.id;
        ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
            datastore_ = s.datastore(tenant_, user.id, common::item_kind::contact);
            device_store_ = s.device_store(tenant_, s.device(tenant_, user.id, "phone").id, datastore_, "./c").id;
        }));
    }
    template <class Fn>
    void tx(Fn&& fn) {
        ASSERT_TRUE(run_sync_transaction(*db_, user_, [&](sync_store& store) { fn(store); }));
    }

    std::int64_t tenant_ = 0;
    std::int64_t user_ = 0;
    std::int64_t datastore_ = 0;
    std::int64_t device_store_ = 0;
};

TEST_F(incoming_chunks_test, chunks_appended_by_several_messages_come_back_whole_once) {
    const std::string binary("a\0b\xff", 4);
    tx([&](sync_store& s) { s.append_chunk(tenant_, device_store_, 0, binary); });
    tx([&](sync_store& s) { s.append_chunk(tenant_, device_store_, 4, "tail"); });
    tx([&](sync_store& s) { EXPECT_EQ(s.take_chunks(tenant_, device_store_, 8), binary + "tail"); });
    tx([&](sync_store& s) { EXPECT_FALSE(s.take_chunks(tenant_, device_store_, 8)) << "taken means removed"; });
}

TEST_F(incoming_chunks_test, a_new_object_drops_what_an_abandoned_one_left) {
    tx([&](sync_store& s) {
        s.append_chunk(tenant_, device_store_, 0, "old-");
        s.append_chunk(tenant_, device_store_, 4, "object");
        s.append_chunk(tenant_, device_store_, 0, "new");
        EXPECT_EQ(s.take_chunks(tenant_, device_store_, 3), "new");
    });
}

TEST_F(incoming_chunks_test, a_missing_chunk_or_another_size_is_no_object_and_is_removed) {
    tx([&](sync_store& s) {
        s.append_chunk(tenant_, device_store_, 0, "abc");
        s.append_chunk(tenant_, device_store_, 5, "fgh");  // 3..4 never arrived
        EXPECT_FALSE(s.take_chunks(tenant_, device_store_, 8));
        s.append_chunk(tenant_, device_store_, 0, "abc");
        EXPECT_FALSE(s.take_chunks(tenant_, device_store_, 4));
        EXPECT_FALSE(s.take_chunks(tenant_, device_store_, 3)) << "removed by the failed take";
        s.append_chunk(tenant_, device_store_, 0, "abc");
        s.drop_chunks(tenant_, device_store_);
        EXPECT_FALSE(s.take_chunks(tenant_, device_store_, 3));
    });
}

TEST_F(incoming_chunks_test, live_items_are_counted_up_to_the_limit_without_deleted_ones) {
    tx([&](sync_store& s) {
        for (int i = 0; i < 5; ++i) s.add_item(tenant_, datastore_, "BEGIN:VCARD\r\nEND:VCARD\r\n", {});
        auto gone = s.add_item(tenant_, datastore_, "BEGIN:VCARD\r\nEND:VCARD\r\n", {});
        s.delete_item(tenant_, datastore_, gone.guid);
        EXPECT_EQ(s.live_items(tenant_, datastore_, 100), 5);
        EXPECT_EQ(s.live_items(tenant_, datastore_, 3), 3);
    });
}

}  // namespace
}  // namespace syncml::persistence
