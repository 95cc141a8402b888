#include "session/engine/state.hpp"

#include <gtest/gtest.h>

namespace syncml::session {
namespace {

session_state sample_state() {
    session_state state;
    state.current = phase::server_changes;
    state.authenticated = true;
    state.user_id = 42;
    state.user_name = "alice";
    state.version = "1.1";
    state.next_msg_id = 7;
    state.max_msg_size = 10240;
    store_state store;
    store.server_uri = "Contacts";
    store.client_uri = "./contacts";
    store.kind = matching::item_kind::contact;
    store.mode = 201;
    store.client_last = "last:1";
    store.client_next = "a=b:c";
    store.resumed = true;
    store.upto_modseq = 90;
    store.out.position = 5;
    store.out.partial_guid = "g6";
    store.out.offset = 1200;
    store.out.count = 31;
    store.out.limit_room = 0;    // full: not the same as no limit
    store.last_seen_modseq = 0;  // a device that has seen nothing: not the same as unknown
    store.delivery_marked = true;
    store.out.page.push_back({"g6", 6, false, ""});
    store.out.page.push_back({"g7", 7, true, "17", 42});
    store.out.in_flight.push_back({"g0", 4, false, "12"});
    store.out.in_flight.push_back({"g5", 5, true, "13", 42});
    store.partial =
        incoming_chunks{chunk_command::add, "9", "", "text/vcard", 300, 120, 413, std::string("x\0y=1:2", 7), "b64"};
    store.device_format = "b64";
    state.stores.push_back(store);
    return state;
}

TEST(session_state, survives_an_encode_decode_round_trip) {
    auto state = sample_state();
    auto decoded = decode_state(encode_state(state));
    ASSERT_TRUE(decoded);
    EXPECT_EQ(decoded->current, phase::server_changes);
    EXPECT_EQ(decoded->user_name, "alice");
    EXPECT_EQ(decoded->version, "1.1");
    EXPECT_EQ(decoded->next_msg_id, 7);
    EXPECT_EQ(decoded->max_msg_size, 10240);
    ASSERT_EQ(decoded->stores.size(), 1u);
    const auto& store = decoded->stores[0];
    EXPECT_EQ(store.mode, 201);
    EXPECT_EQ(store.client_last, "last:1");
    EXPECT_EQ(store.client_next, "a=b:c");
    EXPECT_TRUE(store.resumed);
    ASSERT_EQ(store.out.in_flight.size(), 2u);
    EXPECT_EQ(store.out.in_flight[0].guid, "g0");
    EXPECT_EQ(store.out.in_flight[0].luid, "12");
    EXPECT_EQ(store.out.in_flight[0].item_id, 0) << "state without the id (as older versions wrote it) decodes";
    EXPECT_TRUE(store.out.in_flight[1].deleted);
    EXPECT_EQ(store.out.in_flight[1].item_id, 42);
    EXPECT_EQ(store.upto_modseq, 90);
    EXPECT_EQ(store.out.position, 5);
    EXPECT_EQ(store.out.partial_guid, "g6");
    EXPECT_EQ(store.out.offset, 1200);
    EXPECT_EQ(store.out.count, 31);
    EXPECT_EQ(store.out.limit_room, 0);
    session_state unlimited;
    unlimited.stores.emplace_back();
    EXPECT_FALSE(decode_state(encode_state(unlimited))->stores.at(0).out.limit_room) << "no limit unless one was set";
    EXPECT_EQ(store.last_seen_modseq, 0);
    EXPECT_TRUE(store.delivery_marked);
    EXPECT_FALSE(decode_state(encode_state(unlimited))->stores.at(0).last_seen_modseq) << "unknown stays unknown";
    EXPECT_FALSE(decode_state(encode_state(unlimited))->stores.at(0).delivery_marked);
    EXPECT_TRUE(store.out.page.empty()) << "the queue is read again from the cursor, never stored";
    ASSERT_TRUE(store.partial);
    EXPECT_EQ(store.partial->legacy_data, std::string("x\0y=1:2", 7));
    EXPECT_EQ(store.partial->declared_size, 300);
    EXPECT_EQ(store.partial->received, 120);
    EXPECT_EQ(store.partial->refused, 413);
    EXPECT_EQ(store.partial->command, chunk_command::add);
    EXPECT_EQ(store.partial->format, "b64");
    EXPECT_EQ(store.device_format, "b64");
}

std::string token(const std::string& name, const std::string& value) {
    return name + "=" + std::to_string(value.size()) + ":" + value;
}

// A session row written before the cursor: the store lists every change still to send ("out").
std::string store_with_list(const std::vector<std::string>& outs) {
    auto store = token("mode", "200") + token("upto", "90") + token("server_started", "1") + token("out_offset", "70");
    for (const auto& out : outs) store += token("out", out);
    return token("phase", "2") + token("store", store);
}

TEST(session_state, an_older_state_with_the_whole_queue_continues_from_the_queue_s_front) {
    auto decoded = decode_state(store_with_list({token("g", "g57") + token("m", "57") + token("d", "0"),
                                                 token("g", "g60") + token("m", "60") + token("d", "1")}));
    ASSERT_TRUE(decoded);
    ASSERT_EQ(decoded->stores.size(), 1u);
    const auto& store = decoded->stores[0];
    EXPECT_EQ(store.out.position, 56) << "the front (modseq 57) is read again";
    EXPECT_EQ(store.out.partial_guid, "g57") << "its first bytes went out as a large object";
    EXPECT_EQ(store.out.offset, 70);
    EXPECT_EQ(store.out.count, 2);
    EXPECT_TRUE(store.out.page.empty());

    auto drained = decode_state(store_with_list({}));
    ASSERT_TRUE(drained);
    EXPECT_EQ(drained->stores.at(0).out.position, 90) << "an empty queue: nothing left up to upto";
}

// An older version reads "upto" as what the device has seen once the package ends, and does not know the cursor:
// while changes are pending it must find the cursor there, so a rolling upgrade sends the rest next sync.
TEST(session_state, an_older_version_reads_the_cursor_as_the_end_of_a_pending_package) {
    auto state = sample_state();
    state.stores[0].server_sync_started = true;
    const auto text = encode_state(state);
    EXPECT_NE(text.find(token("upto", "5")), std::string::npos) << text;
    auto decoded = decode_state(text);
    ASSERT_TRUE(decoded);
    EXPECT_EQ(decoded->stores.at(0).upto_modseq, 90);
    EXPECT_EQ(decoded->stores.at(0).out.position, 5);

    state.stores[0].out.position = 90;  // drained: the older version may record all of it
    EXPECT_NE(encode_state(state).find(token("upto", "90")), std::string::npos);
}

TEST(session_state, rejects_truncated_text) {
    auto text = encode_state(sample_state());
    EXPECT_FALSE(decode_state(text.substr(0, text.size() - 20)));
}

TEST(session_state, decodes_empty_text_as_fresh_state) {
    auto decoded = decode_state("");
    ASSERT_TRUE(decoded);
    EXPECT_EQ(decoded->current, phase::init);
    EXPECT_TRUE(decoded->stores.empty());
}

// The bytes of a large object stay out of the session row (sync_store::append_chunk); an older version that reads
// the state refuses the object rather than store the part it sees, and its own state's bytes are taken over.
TEST(session_state, keeps_a_partial_objects_bytes_out_and_reads_an_older_versions_bytes) {
    session_state state;
    store_state store;
    store.partial = incoming_chunks{chunk_command::add, "9", "", "", std::nullopt, 5000, 0, "", ""};
    state.stores.push_back(store);
    auto text = encode_state(state);
    EXPECT_NE(text.find(token("size", "9223372036854775807")), std::string::npos) << "beyond every object";
    auto decoded = decode_state(text);
    ASSERT_TRUE(decoded && decoded->stores.at(0).partial);
    EXPECT_FALSE(decoded->stores[0].partial->declared_size);
    EXPECT_EQ(decoded->stores[0].partial->received, 5000);

    auto older = token("store", token("partial", token("cmd", "Add") + token("luid", "9") + token("data", "abc=:1") +
                                                     token("size", "300")));
    auto old_state = decode_state(older);
    ASSERT_TRUE(old_state && old_state->stores.at(0).partial);
    EXPECT_EQ(old_state->stores[0].partial->legacy_data, "abc=:1");
    EXPECT_EQ(old_state->stores[0].partial->declared_size, 300);
    EXPECT_EQ(old_state->stores[0].partial->received, 0);
}

// Rows cross versions both ways during a rolling upgrade: an older version writes "none", "unknown" and "no limit"
// as -1 and "the datastore was not empty" as -2, and reads the same numbers back.
TEST(session_state, reads_an_older_rows_sentinels_as_absent) {
    auto older =
        token("store", token("resend_after", "-1") + token("limit_room", "-1") + token("seen", "-1") +
                           token("own_modseqs", "-2") +
                           token("partial", token("cmd", "Add") + token("declared", "-1") + token("size", "7")));
    auto decoded = decode_state(older);
    ASSERT_TRUE(decoded && decoded->stores.at(0).partial);
    const auto& store = decoded->stores[0];
    EXPECT_FALSE(store.resend_after);
    EXPECT_FALSE(store.out.limit_room);
    EXPECT_FALSE(store.last_seen_modseq);
    EXPECT_EQ(store.start_contents, datastore_start::was_not_empty);
    EXPECT_FALSE(store.partial->declared_size) << "\"declared\" says none even when \"size\" has a number";

    auto unchecked = decode_state(token("store", token("own_modseqs", "-1")));
    ASSERT_TRUE(unchecked);
    EXPECT_EQ(unchecked->stores.at(0).start_contents, datastore_start::not_checked);
    auto counting = decode_state(token("store", token("own_modseqs", "12")));
    ASSERT_TRUE(counting);
    EXPECT_EQ(counting->stores.at(0).start_contents, datastore_start::was_empty);
    EXPECT_EQ(counting->stores.at(0).own_modseqs, 12);
}

TEST(session_state, writes_absent_values_as_an_older_version_reads_them) {
    session_state state;
    state.stores.emplace_back().partial.emplace();  // every optional empty
    auto text = encode_state(state);
    EXPECT_NE(text.find(token("own_modseqs", "-1")), std::string::npos) << text;
    EXPECT_NE(text.find(token("declared", "-1")), std::string::npos) << text;
    EXPECT_EQ(text.find("resend_after"), std::string::npos) << "an older version takes a missing one as none";
    EXPECT_EQ(text.find("limit_room"), std::string::npos);
    EXPECT_EQ(text.find("seen="), std::string::npos);

    state.stores[0].start_contents = datastore_start::was_not_empty;
    EXPECT_NE(encode_state(state).find(token("own_modseqs", "-2")), std::string::npos);
    state.stores[0].start_contents = datastore_start::was_empty;
    state.stores[0].own_modseqs = 3;
    EXPECT_NE(encode_state(state).find(token("own_modseqs", "3")), std::string::npos);
    state.stores[0].resend_after = 0;
    state.stores[0].out.limit_room = 0;
    EXPECT_NE(encode_state(state).find(token("resend_after", "0")), std::string::npos);
    EXPECT_NE(encode_state(state).find(token("limit_room", "0")), std::string::npos);
}

TEST(session_state, keeps_the_chunk_commands_syncml_name) {
    session_state state;
    state.stores.emplace_back().partial.emplace().command = chunk_command::replace;
    auto text = encode_state(state);
    EXPECT_NE(text.find(token("cmd", "Replace")), std::string::npos) << text;
    EXPECT_EQ(decode_state(text)->stores.at(0).partial->command, chunk_command::replace);
    state.stores[0].partial->command.reset();  // refused at its first chunk
    text = encode_state(state);
    EXPECT_NE(text.find(token("cmd", "")), std::string::npos) << text;
    EXPECT_FALSE(decode_state(text)->stores.at(0).partial->command);
}

}  // namespace
}  // namespace syncml::session
