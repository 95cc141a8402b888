#include "session/state.hpp"

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
    store.kind = "contacts";
    store.mode = 201;
    store.client_last = "last:1";
    store.client_next = "a=b:c";
    store.resumed = true;
    store.outgoing.push_back({"g1", 5, false, ""});
    store.outgoing.push_back({"g2", 6, true, "17", 42});
    store.in_flight.push_back({"g0", 4, false, "12"});
    store.partial = incoming_chunks{"Add", "9", "", "text/vcard", std::string("x\0y=1:2", 7), 300};
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
    ASSERT_EQ(store.in_flight.size(), 1u);
    EXPECT_EQ(store.in_flight[0].guid, "g0");
    EXPECT_EQ(store.in_flight[0].luid, "12");
    ASSERT_EQ(store.outgoing.size(), 2u);
    EXPECT_EQ(store.outgoing[1].luid, "17");
    EXPECT_TRUE(store.outgoing[1].deleted);
    EXPECT_EQ(store.outgoing[1].item_id, 42);
    EXPECT_EQ(store.outgoing[0].item_id, 0) << "state without the id (as older versions wrote it) decodes";
    ASSERT_TRUE(store.partial);
    EXPECT_EQ(store.partial->data, std::string("x\0y=1:2", 7));
    EXPECT_EQ(store.partial->declared_size, 300);
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

}  // namespace
}  // namespace syncml::session
