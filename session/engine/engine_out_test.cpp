#include "session/engine/engine.hpp"

#include <gtest/gtest.h>

#include <map>

#include "session/codec/codec.hpp"
#include "session/engine/fake_sync_store.hpp"
#include "session/engine/test_phone.hpp"

namespace syncml::session {
namespace {

using testing::full_sync;
using testing::phone;
using testing::sync_of;
using testing::vcard;

// The data of each Add in `reply`, by the server's GUID.
std::map<std::string, std::string> adds_of(const message& reply) {
    std::map<std::string, std::string> out;
    for (const auto& cmd : sync_of(reply)->commands) {
        const auto& it = std::get<add>(cmd.value).items.at(0);
        out[it.source->loc_uri] = it.data->bytes;
    }
    return out;
}

// Package 4 reads the items of each message together, its queue a page per message after the first, and what
// changed between two messages is not sent as it was: a deleted item not at all, a replaced one (now beyond
// the package's modseq) with its new content in the next sync.
TEST(engine_out, reads_each_message_s_items_together_and_sends_them_as_they_are_then) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    full_sync(a, 201, testing::padded_contacts(40));
    auto ds = store.items[0].datastore;

    phone b(store, "phone-b");
    b.send(testing::with_max_msg_size(b.start(201), 4000));
    store.outgoing_reads = 0;
    store.change_pages = 0;
    auto reply = b.send(b.changes({})).reply;
    auto received = adds_of(reply);
    ASSERT_FALSE(reply.body.final);
    EXPECT_EQ(sync_of(reply)->number_of_changes, 40u);
    EXPECT_EQ(store.outgoing_reads, 1);
    // The session row holds a cursor and the message's items in flight, not the 30-odd changes still pending.
    for (const auto& [id, rec] : store.sessions) {
        if (rec.device_uri == "phone-b") {
            EXPECT_LT(rec.state.size(), 1200u);
        }
    }
    // Not sent yet: the last two items in modseq order.
    auto gone = store.items[39].guid, changed = store.items[38].guid;
    ASSERT_EQ(received.count(gone) + received.count(changed), 0u);
    store.delete_item(1, ds, gone);
    store.replace_item(1, ds, changed, vcard("Changed"), {});
    int messages = 1;
    while (!reply.body.final) {
        reply = b.send(b.more()).reply;
        ASSERT_LE(encode(reply, wire_encoding::xml).size(), 4000u);
        received.merge(adds_of(reply));
        EXPECT_FALSE(sync_of(reply)->number_of_changes) << "announced in the first Sync only";
        ASSERT_LT(++messages, 100);
    }
    EXPECT_EQ(store.outgoing_reads, messages);
    EXPECT_EQ(store.change_pages, messages - 1);
    EXPECT_EQ(received.size(), 38u);
    EXPECT_EQ(received.count(gone) + received.count(changed), 0u);
    ASSERT_TRUE(b.send(b.apply_server_changes(reply)).session_done);
    b.finish();
    auto next = adds_of(full_sync(b, 200, {}));
    ASSERT_EQ(next.size(), 1u);
    EXPECT_NE(next.at(changed).find("Changed"), std::string::npos);
}

// The session's end stores the anchors and the modseq the device has seen, without reading the device store
// again: the next two-way sync sends nothing and a server change only once.
TEST(engine_out, a_completed_session_leaves_the_device_store_at_what_it_sent) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    full_sync(a, 201, {{"1", vcard("Alice")}});
    auto& ds = store.device_stores.begin()->second;
    EXPECT_FALSE(ds.needs_slow_sync);
    EXPECT_EQ(ds.last_seen_modseq, store.modseqs[ds.datastore_id]);
    EXPECT_EQ(ds.client_anchor, "anchor-1");
    store.server_changes_queries = 0;
    EXPECT_TRUE(sync_of(full_sync(a, 200, {}))->commands.empty());
    EXPECT_EQ(store.server_changes_queries, 1) << "one query for modseq, last seen modseq and changes";
    store.add_item(1, ds.datastore_id, vcard("Bob"), {});
    EXPECT_EQ(sync_of(full_sync(a, 200, {}))->commands.size(), 1u);
    EXPECT_TRUE(sync_of(full_sync(a, 200, {}))->commands.empty());
}

// A large object whose item changes between two of its chunks does not go on at the old offset in whatever item
// the cursor finds next: that item goes whole, the changed one in the next sync.
TEST(engine_out, a_large_object_changed_between_chunks_does_not_continue_in_the_next_item) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto big = vcard("Big") + "NOTE:" + std::string(9000, 'n') + "\r\n";
    full_sync(a, 201, {{"1", big}, {"2", vcard("Tiny")}});
    auto ds = store.items[0].datastore;
    auto big_guid = store.items[0].content == big ? store.items[0].guid : store.items[1].guid;
    auto tiny_guid = big_guid == store.items[0].guid ? store.items[1].guid : store.items[0].guid;

    phone b(store, "phone-b");
    b.send(testing::with_max_msg_size(b.start(201), 4000));
    auto reply = b.send(b.changes({})).reply;
    ASSERT_FALSE(reply.body.final);
    const auto& first = std::get<add>(sync_of(reply)->commands.at(0).value).items.at(0);
    ASSERT_EQ(first.source->loc_uri, big_guid) << "the big item has the lower modseq, so it goes first";
    ASSERT_TRUE(first.more_data);
    store.replace_item(1, ds, big_guid, vcard("Big, now small"), {});

    reply = b.send(b.more()).reply;
    auto sent = adds_of(reply);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent.at(tiny_guid), vcard("Tiny")) << "whole, from its first byte";
    EXPECT_FALSE(std::get<add>(sync_of(reply)->commands.at(0).value).items.at(0).more_data);
    ASSERT_TRUE(reply.body.final);
    ASSERT_TRUE(b.send(b.apply_server_changes(reply)).session_done);
    b.finish();
    auto next = adds_of(full_sync(b, 200, {}));
    ASSERT_EQ(next.size(), 1u);
    EXPECT_EQ(next.at(big_guid), vcard("Big, now small"));
}

}  // namespace
}  // namespace syncml::session

namespace syncml::session {
namespace {

using testing::phone;
using testing::vcard;

// Issue 36: chunks went to SyncML 1.0 clients and to devices that never said they take large objects, and the
// client's MaxObjSize was ignored (an item of 10,058 bytes went in chunks to a client with MaxObjSize 1000). Such an
// item is left out with a logged, counted reason and goes again in a later sync, when the device can take it.
struct large_item_case {
    testing::fake_sync_store store;
    phone a{store, "phone-a"};
    phone b{store, "phone-b"};
    std::string big = vcard("Big") + "NOTE:" + std::string(10000, 'n') + "\r\n";

    large_item_case() { testing::full_sync(a, 201, {{"1", big}, {"2", vcard("Tiny")}}); }

    // b's slow sync with these header limits: the items it received whole, and whether any came in chunks.
    std::vector<std::string> receive(message start, bool& chunked) {
        b.send(std::move(start));
        auto reply = b.send(b.changes({})).reply;
        std::vector<std::string> whole;
        chunked = false;
        for (int messages = 0; messages < 30; ++messages) {
            for (const auto& cmd : testing::sync_of(reply)->commands) {
                const auto& it = std::get<add>(cmd.value).items.at(0);
                if (it.more_data) chunked = true;
                if (!it.more_data) whole.push_back(it.data->bytes);
            }
            if (reply.body.final) break;
            reply = b.send(b.more()).reply;
        }
        EXPECT_TRUE(reply.body.final);
        EXPECT_TRUE(b.send(b.apply_server_changes(reply)).session_done);
        b.finish();
        return whole;
    }
};

TEST(engine_out, an_item_larger_than_the_clients_max_obj_size_is_not_sent_until_it_can_take_it) {
    large_item_case t;
    bool chunked = false;
    auto got = t.receive(testing::with_max_msg_size(t.b.start(201), 4000, 1000), chunked);
    EXPECT_FALSE(chunked);
    ASSERT_EQ(got.size(), 1u) << "only the tiny item";
    EXPECT_NE(got[0].find("Tiny"), std::string::npos);
    // A later sync where it takes larger objects brings the big one.
    got = t.receive(testing::with_max_msg_size(t.b.start(200), 4000, 100000), chunked);
    EXPECT_TRUE(chunked);
    EXPECT_EQ(t.b.items.size(), 2u);
}

TEST(engine_out, a_client_that_takes_no_large_objects_gets_no_chunks) {
    large_item_case t;
    bool chunked = false;
    auto got = t.receive(testing::with_max_msg_size(t.b.start(201), 4000, 0), chunked);
    EXPECT_FALSE(chunked) << "no MaxObjSize, no SupportLargeObjs";
    EXPECT_EQ(got.size(), 1u);
    // With room for the whole item in a message it goes whole.
    got = t.receive(testing::with_max_msg_size(t.b.start(200), 100000, 0), chunked);
    EXPECT_FALSE(chunked);
    EXPECT_EQ(t.b.items.size(), 2u);
}

TEST(engine_out, a_syncml_1_0_client_gets_no_chunks) {
    large_item_case t;
    t.b.version = syncml_version::v1_0;
    bool chunked = false;
    auto got = t.receive(testing::with_max_msg_size(t.b.start(201), 4000, 100000), chunked);
    EXPECT_FALSE(chunked);
    EXPECT_EQ(got.size(), 1u);
}

}  // namespace
}  // namespace syncml::session
