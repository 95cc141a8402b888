#include "session/engine.hpp"

#include <gtest/gtest.h>

#include "session/test_phone.hpp"

// Protocol details off the happy path: the statuses the engine answers with and what it does with odd requests.

namespace syncml::session {
namespace {

using testing::phone;
using testing::vcard;

TEST(engine_protocol, a_replace_of_an_item_the_server_does_not_know_is_answered_item_added) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}});
    auto codes = a.sync(200, {{"1", vcard("Alice Changed"), true}, {"77", vcard("Unknown"), true}});
    ASSERT_EQ(codes.size(), 2u);
    EXPECT_EQ(codes[0], "200") << "a Replace of a known item";
    EXPECT_EQ(codes[1], "201") << "a Replace of an unknown item adds it";
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 2u);
}

}  // namespace
}  // namespace syncml::session
