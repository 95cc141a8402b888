// Server and tenant limits the engine enforces item by item (issue 15): object size (413) for whole items and
// large objects in chunks, item quota per datastore (420), and limits sent by the client that must not wrap around.

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "session/engine/engine.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/engine/fake_sync_store.hpp"
#include "session/engine/test_phone.hpp"

namespace syncml::session {
namespace {

using testing::phone;
using testing::statuses_of;
using testing::vcard;

// An Add of `part` for LUID `luid`: a chunk of a large object when `more`, with Meta Size `size`. Package 3 goes on
// after it (no Final): a Sync once the package ended would be out of phase.
message chunk(phone& p, const std::string& luid, const std::string& part, bool more,
              std::optional<std::uint64_t> size = std::nullopt) {
    auto m = p.changes({{luid, part}});
    m.body.final = false;
    auto& it = std::get<add>(std::get<sync>(m.body.commands[0].value).commands[0].value).items[0];
    it.more_data = more;
    it.meta->size = size;
    return m;
}

std::string add_status(const engine_outcome& outcome) { return statuses_of(outcome.reply, "Add").at(0)->data; }

double refusals(prometheus::Registry& registry, const std::string& limit) {
    for (const auto& family : registry.Collect()) {
        if (family.name != "syncml_limit_refusals_total") continue;
        for (const auto& metric : family.metric) {
            if (metric.label.size() == 1 && metric.label[0].value == limit) return metric.counter.value;
        }
    }
    return -1;
}

TEST(engine_limits, refuses_an_object_whose_declared_size_exceeds_the_limit_at_its_first_chunk) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.limits.metrics = &metrics;
    a.limits.max_obj_size = 1000;
    a.send(a.start(201));
    EXPECT_EQ(add_status(a.send(chunk(a, "1", std::string(100, 'x'), true, 5000))), "413");
    EXPECT_EQ(add_status(a.send(chunk(a, "1", std::string(100, 'x'), true))), "413") << "its further chunks too";
    EXPECT_EQ(add_status(a.send(chunk(a, "1", std::string(100, 'x'), false))), "413") << "and its last one";
    EXPECT_EQ(store.chunk_bytes_written, 0) << "nothing of it was stored";
    EXPECT_EQ(add_status(a.send(chunk(a, "2", vcard("Small"), false, 5000))), "413") << "a whole item declaring 5000";
    EXPECT_TRUE(store.items.empty());
    EXPECT_EQ(add_status(a.send(a.changes({{"3", vcard("Next")}}))), "201") << "the next item is taken";
    EXPECT_EQ(refusals(registry, "object_bytes"), 2) << "objects, not chunks";
}

TEST(engine_limits, refuses_chunks_beyond_the_limit_without_a_declared_size_and_drops_what_arrived) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.limits.max_obj_size = 1000;
    a.send(a.start(201));
    EXPECT_EQ(add_status(a.send(chunk(a, "1", std::string(400, 'x'), true))), "213");
    EXPECT_EQ(add_status(a.send(chunk(a, "1", std::string(400, 'x'), true))), "213");
    EXPECT_EQ(store.chunk_bytes_written, 800);
    EXPECT_EQ(add_status(a.send(chunk(a, "1", std::string(400, 'x'), true))), "413");
    EXPECT_TRUE(store.chunks.empty()) << "the partial object is dropped";
    EXPECT_EQ(add_status(a.send(chunk(a, "1", "END:VCARD\r\n", false))), "413") << "its rest is refused too";
    EXPECT_TRUE(store.items.empty()) << "no truncated object stored";
    EXPECT_EQ(store.chunk_bytes_written, 800);
}

TEST(engine_limits, huge_max_obj_size_and_size_values_do_not_wrap_around_into_no_limit) {
    constexpr auto huge = std::numeric_limits<std::uint64_t>::max();
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.limits.max_obj_size = 1000;
    auto start = a.start(201);
    start.header.meta = meta_info{};
    start.header.meta->max_obj_size = huge;
    start.header.meta->max_msg_size = huge;
    a.send(start);
    auto state = decode_state(store.lock_session(1, "phone-a", "1").value().state).value();
    EXPECT_EQ(state.max_obj_size, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(state.max_msg_size, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(add_status(a.send(chunk(a, "1", "BEGIN:VCARD\r\n", true, huge))), "413");
    EXPECT_EQ(add_status(a.send(chunk(a, "2", "BEGIN:VCARD\r\n", true, std::uint64_t{1} << 63))), "413");
    EXPECT_EQ(store.chunk_bytes_written, 0);
}

TEST(engine_limits, an_add_beyond_the_items_per_datastore_limit_is_refused_with_420) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.limits.metrics = &metrics;
    a.limits.max_items_per_datastore = 3;
    auto codes = a.sync(201, testing::in_luid_order(testing::padded_contacts(5), false));
    EXPECT_EQ(codes, (std::vector<std::string>{"201", "201", "201", "420", "420"}));
    EXPECT_EQ(store.items.size(), 3u);
    EXPECT_EQ(refusals(registry, "items_per_datastore"), 2);

    // A Delete makes room again.
    codes = a.sync(200, {{"0", ""}, {"3", vcard("Person 3")}, {"4", vcard("Person 4")}});
    EXPECT_EQ(codes, (std::vector<std::string>{"200", "201", "420"}));
    EXPECT_LE(store.live_item_counts, 3) << "counted only near the limit, once per message";
}

// The bytes of the fake store's live items: what user_stored_bytes answers.
std::int64_t stored_bytes(const testing::fake_sync_store& store) {
    std::int64_t bytes = 0;
    for (const auto& it : store.items) bytes += it.deleted ? 0 : static_cast<std::int64_t>(it.content.size());
    return bytes;
}

TEST(engine_limits, an_add_beyond_the_users_byte_quota_is_refused_with_420_and_a_delete_makes_room) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.limits.metrics = &metrics;
    ASSERT_EQ(a.sync(201, {{"1", vcard("Person 1")}, {"2", vcard("Person 2")}}),
              (std::vector<std::string>{"201", "201"}));
    const auto held = stored_bytes(store);
    a.limits.max_user_bytes = held;  // the user holds as much as the tenant allows
    auto codes = a.sync(200, {{"3", vcard("Person 3")}});
    EXPECT_EQ(codes, std::vector<std::string>{"420"});
    EXPECT_EQ(store.items.size(), 2u) << "nothing of it was stored";
    EXPECT_EQ(refusals(registry, "user_bytes"), 1);

    // A Delete still passes, and its bytes make room for one Add of the same size in the same message, not two.
    codes = a.sync(200, {{"1", ""}, {"4", vcard("Person 4")}, {"5", vcard("Person 5")}});
    EXPECT_EQ(codes, (std::vector<std::string>{"200", "201", "420"}));
    EXPECT_EQ(stored_bytes(store), held);
    EXPECT_EQ(store.stored_bytes_reads, 2) << "one read per message that wrote under the quota";
}

TEST(engine_limits, a_replace_may_shrink_an_item_over_the_byte_quota_but_not_grow_it) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    ASSERT_EQ(a.sync(201, {{"1", vcard("Person 1" + std::string(300, 'x'))}}), std::vector<std::string>{"201"});
    a.limits.max_user_bytes = stored_bytes(store) / 2;  // an operator lowered the quota below what the user holds
    EXPECT_EQ(a.sync(200, {{"1", vcard("Person 1" + std::string(301, 'x')), true}}), std::vector<std::string>{"420"});
    EXPECT_NE(store.items.at(0).content.find(std::string(300, 'x') + "\r\n"), std::string::npos)
        << "the stored copy stays as it was";
    EXPECT_EQ(a.sync(200, {{"1", vcard("Person 1"), true}}), std::vector<std::string>{"200"});
    EXPECT_EQ(store.items.at(0).content.find(std::string(300, 'x')), std::string::npos);
    a.limits.max_user_bytes = 0;
    EXPECT_EQ(a.sync(200, {{"2", vcard("Person 2" + std::string(5000, 'x'))}}), std::vector<std::string>{"201"})
        << "0: no quota";
    EXPECT_EQ(store.stored_bytes_reads, 1) << "no quota, or a write that does not grow: nothing to read";
}

TEST(engine_limits, a_datastore_below_its_limit_is_not_counted) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.limits.max_items_per_datastore = 1000;
    a.sync(201, testing::in_luid_order(testing::padded_contacts(20), false));
    EXPECT_EQ(store.items.size(), 20u);
    EXPECT_EQ(store.live_item_counts, 0) << "its modseq bounds its items";
}

// Before: every message rewrote the whole partial object into the session row, O(n^2) bytes for n chunks (about
// 2 GB for 16 MB in 64 KB chunks, 135 MB for this 4 MB). Now each chunk is appended once and the session row stays
// small (16 MB: 172 KB of session rows and 16.7 MB of chunks).
TEST(engine_limits, a_large_object_in_64_kb_chunks_is_stored_once_not_in_every_session_row) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.send(a.start(201));
    const std::string data =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Big\r\nN:;Big;;;\r\nNOTE:" + std::string(4 * 1024 * 1024 - 100, 'n') +
        "\r\nEND:VCARD\r\n";
    constexpr std::size_t piece = 64 * 1024;
    std::size_t state_bytes = 0;
    std::string last;
    for (std::size_t at = 0; at < data.size(); at += piece) {
        const bool more = at + piece < data.size();
        auto outcome =
            a.send(chunk(a, "1", data.substr(at, piece), more, at == 0 ? std::optional(data.size()) : std::nullopt));
        last = add_status(outcome);
        state_bytes += store.lock_session(1, "phone-a", "1").value().state.size();
        if (more) {
            ASSERT_EQ(last, "213");
        }
    }
    EXPECT_EQ(last, "201");
    ASSERT_EQ(store.items.size(), 1u);
    EXPECT_GT(store.items[0].content.size(), data.size() - 1000);
    RecordProperty("session_state_bytes", std::to_string(state_bytes));
    RecordProperty("chunk_bytes", std::to_string(store.chunk_bytes_written));
    EXPECT_LT(state_bytes, 256u * 1024u) << "the session rows stay small";
    EXPECT_LT(store.chunk_bytes_written, static_cast<std::int64_t>(data.size())) << "each byte once (not the last)";
    EXPECT_TRUE(store.chunks.empty());
}

}  // namespace
}  // namespace syncml::session
