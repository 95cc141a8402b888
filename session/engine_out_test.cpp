#include "session/engine.hpp"

#include <gtest/gtest.h>

#include <map>

#include "session/codec.hpp"
#include "session/fake_sync_store.hpp"
#include "session/test_phone.hpp"

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

// Package 4 reads the items of each message together, and what changed between two messages goes out as it
// is then: a deleted item not at all, a replaced one with its new content.
TEST(engine_out, reads_each_message_s_items_together_and_sends_them_as_they_are_then) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    std::map<std::string, std::string> many;
    for (int i = 0; i < 40; ++i) many[std::to_string(i)] = vcard("Person " + std::to_string(i) + std::string(200, 'x'));
    full_sync(a, 201, many);
    auto ds = store.items[0].datastore;

    phone b(store, "phone-b");
    auto m = b.start(201);
    m.header.meta = meta_info{};
    m.header.meta->max_msg_size = 4000;
    b.send(m);
    store.outgoing_reads = 0;
    auto reply = b.send(b.changes({})).reply;
    auto received = adds_of(reply);
    ASSERT_FALSE(reply.body.final);
    EXPECT_EQ(store.outgoing_reads, 1);
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
        ASSERT_LT(++messages, 100);
    }
    EXPECT_EQ(store.outgoing_reads, messages);
    EXPECT_EQ(received.size(), 39u);
    EXPECT_EQ(received.count(gone), 0u);
    EXPECT_NE(received.at(changed).find("Changed"), std::string::npos);
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

}  // namespace
}  // namespace syncml::session
