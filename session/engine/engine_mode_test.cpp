#include "session/engine/engine.hpp"

#include <gtest/gtest.h>

#include <set>

#include "session/engine/test_phone.hpp"
#include "session/protocol/sync_mode.hpp"

// Which sync mode the server grants: anchors, interrupted slow syncs and refreshes, one-way modes.

namespace syncml::session {
namespace {

using testing::alert_of;
using testing::phone;
using testing::statuses_of;

TEST(sync_mode, names_the_alert_codes_by_direction_and_slow_or_refresh) {
    EXPECT_EQ(sync_mode::of_alert(200), sync_modes::two_way);
    EXPECT_EQ(sync_mode::of_alert(203), sync_modes::refresh_from_client);
    EXPECT_EQ(sync_mode::of_alert(205), sync_modes::refresh_from_server);
    EXPECT_FALSE(sync_mode::of_alert(225));
    EXPECT_FALSE(sync_mode::of_alert(199));
    // What a session is granted, and our Alert names, is one of 200-205: the server-alerted codes are only asked for.
    EXPECT_THROW(sync_mode::granted(206), std::logic_error);
    EXPECT_THROW(sync_mode::granted(211), std::logic_error);
    for (int code = 200; code <= 205; ++code) EXPECT_EQ(sync_mode::of_alert(code)->alert_code(), code);
    EXPECT_EQ(sync_modes::one_way_from_client.with_everything(), sync_modes::refresh_from_client);
    EXPECT_EQ(sync_modes::one_way_from_server.with_everything(), sync_modes::refresh_from_server);
    // The two "slow" sets: who sends every item.
    EXPECT_TRUE(sync_modes::refresh_from_client.client_sends_all_items());
    EXPECT_FALSE(sync_modes::refresh_from_client.server_sends_all_items());
    EXPECT_TRUE(sync_modes::refresh_from_server.server_sends_all_items());
    EXPECT_FALSE(sync_modes::refresh_from_server.client_sends_all_items());
    EXPECT_TRUE(sync_modes::slow_sync.client_sends_all_items() && sync_modes::slow_sync.server_sends_all_items());
    EXPECT_FALSE(sync_modes::two_way.client_sends_all_items() || sync_modes::two_way.server_sends_all_items());
}

// OMA DS 1.2.1 Protocol: 206 two-way by server, 207 one-way from client, 208 refresh from client, 209 one-way from
// server, 210 refresh from server, all alerted by the server.
TEST(sync_mode, reads_the_server_alerted_codes_as_the_modes_they_alert) {
    EXPECT_EQ(sync_mode::of_alert(206), sync_modes::two_way);
    EXPECT_EQ(sync_mode::of_alert(207), sync_modes::one_way_from_client);
    EXPECT_EQ(sync_mode::of_alert(208), sync_modes::refresh_from_client);
    EXPECT_EQ(sync_mode::of_alert(209), sync_modes::one_way_from_server);
    EXPECT_EQ(sync_mode::of_alert(210), sync_modes::refresh_from_server);
    EXPECT_FALSE(sync_mode::of_alert(211));
    for (int code = 206; code <= 210; ++code) EXPECT_EQ(sync_mode::of_alert(code)->server_alerted_code(), code);
    // A slow sync has no server-alerted code: the phone is asked for a two-way sync, its anchors decide.
    EXPECT_EQ(sync_modes::slow_sync.server_alerted_code(), 206);
}

std::string granted_status(const message& reply) { return statuses_of(reply, "Alert").at(0)->data; }

// A slow sync or refresh forgets which items the device holds; when it dies before it completes, the anchors
// still match, and a two-way sync granted then would send every server item as an Add (duplicates on the phone).
class interrupted_mode : public ::testing::TestWithParam<int> {};

TEST_P(interrupted_mode, makes_the_next_two_way_sync_slow_until_one_completes) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    testing::full_sync(a, 201, {{"1", testing::vcard("Alice")}, {"2", testing::vcard("Bob")}});
    testing::full_sync(b, 201, {});
    ASSERT_EQ(b.items.size(), 2u);

    // B starts a slow sync or refresh and dies after the Alert; its next session presents the same Last anchor.
    b.send(b.start(GetParam()));
    auto reply = b.send(b.start(200)).reply;
    EXPECT_EQ(granted_status(reply), "508");
    ASSERT_TRUE(alert_of(reply));
    EXPECT_EQ(alert_of(reply)->data, "201");

    // Not even a one-way sync counts on what the device held.
    reply = b.send(b.start(204)).reply;
    EXPECT_EQ(granted_status(reply), "508");
    EXPECT_EQ(alert_of(reply)->data, "205");

    // The slow sync it gets pairs the phone's items with the server's: nothing comes twice.
    b.send(b.start(201));
    auto package4 = b.send(b.changes(b.items)).reply;
    ASSERT_TRUE(testing::sync_of(package4));
    EXPECT_TRUE(testing::sync_of(package4)->commands.empty());
    EXPECT_TRUE(b.send(b.apply_server_changes(package4)).session_done);
    b.finish();
    EXPECT_EQ(b.items.size(), 2u);
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 2u);

    // Once one completed, two-way syncs are granted again, and a delete reaches the phone.
    testing::full_sync(a, 200, {{"2", ""}});
    reply = b.send(b.start(200)).reply;
    EXPECT_EQ(granted_status(reply), "200");
    package4 = b.send(b.changes({})).reply;
    EXPECT_TRUE(b.send(b.apply_server_changes(package4)).session_done);
    b.finish();
    EXPECT_EQ(b.items.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(engine, interrupted_mode, ::testing::Values(201, 203, 205));

// Synthesis' rule: a one-way mode the anchors do not allow becomes its refresh counterpart, never a slow sync
// (a one-way-from-client client refuses a mode that writes to it).
TEST(engine, one_way_modes_with_mismatched_anchors_become_their_refresh) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", testing::vcard("Alice")}});
    a.last_anchor = "elsewhere";

    auto reply = a.send(a.start(202)).reply;
    EXPECT_EQ(granted_status(reply), "508");
    ASSERT_TRUE(alert_of(reply));
    EXPECT_EQ(alert_of(reply)->data, "203");

    reply = a.send(a.start(204)).reply;
    EXPECT_EQ(granted_status(reply), "508");
    EXPECT_EQ(alert_of(reply)->data, "205");

    // With matching anchors they are granted as asked.
    phone b(store, "phone-b");
    testing::full_sync(b, 201, {});
    reply = b.send(b.start(202)).reply;
    EXPECT_EQ(granted_status(reply), "200");
    EXPECT_EQ(alert_of(reply)->data, "202");
}

// Issue 36: a one-way-from-client session has nothing for the client to map, and clients end it with package 4.
// The server waited for a package 5 that never came, kept the old anchors, and made the next sync a refresh.
TEST(engine, a_one_way_from_client_sync_that_ends_with_package_4_is_complete) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", testing::vcard("Alice")}});
    for (int round = 0; round < 2; ++round) {
        const bool sends_package_5 = round == 1;
        a.send(a.start(202));
        auto package4 =
            a.send(a.changes({{std::to_string(round + 2), testing::vcard("Bob" + std::to_string(round))}})).reply;
        ASSERT_TRUE(package4.body.final);
        if (sends_package_5) {
            EXPECT_TRUE(a.send(a.apply_server_changes(package4)).session_done);
        }
        a.finish();
        auto next = a.send(a.start(202)).reply;
        EXPECT_EQ(granted_status(next), "200") << (sends_package_5 ? "with" : "without") << " package 5";
        ASSERT_TRUE(alert_of(next));
        EXPECT_EQ(alert_of(next)->data, "202") << (sends_package_5 ? "with" : "without") << " package 5";
    }
}

// Issue 36: a refresh from the client deleted what changed on the server while it uploaded: an item another device
// edited meanwhile (the client's copy was then older) and items other devices added meanwhile. It deletes only what
// the server held when the refresh began and the client did not send.
TEST(engine, a_refresh_from_the_client_deletes_nothing_that_changed_during_its_upload) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    testing::full_sync(
        a, 201, {{"a-ann", testing::vcard("Ann")}, {"a-ben", testing::vcard("Ben")}, {"a-cy", testing::vcard("Cy")}});
    testing::full_sync(b, 201, {});
    const auto datastore = store.items[0].datastore;

    b.send(b.start(203));
    auto first_half = b.changes({{"b-ann", testing::vcard("Ann")}});
    first_half.body.final = false;
    b.send(first_half);
    // Meanwhile phone a edits Ben and adds Dora.
    a.sync(200, {{"a-ben", testing::vcard("Ben Edited"), true}, {"a-dora", testing::vcard("Dora")}});
    auto package4 = b.send(b.changes({})).reply;
    ASSERT_TRUE(package4.body.final);
    EXPECT_TRUE(b.send(b.apply_server_changes(package4)).session_done);

    std::set<std::string> names;
    for (const auto& item : store.live_items(datastore)) {
        auto at = item->content.find("FN:");
        names.insert(item->content.substr(at + 3, item->content.find("\r\n", at) - at - 3));
    }
    EXPECT_EQ(names, (std::set<std::string>{"Ann", "Ben Edited", "Dora"})) << "only Cy was held before and not sent";
}

// A phone answering a server's notification opens its session with the alerted code (206-210): it was answered 406
// and nothing synced. It runs as the matching mode, which our Alert names with its ordinary code (as the Synthesis
// engine answers), and the anchors decide as for any other request.
class server_alerted_mode : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(server_alerted_mode, runs_as_the_mode_it_alerts) {
    const auto [alerted, granted] = GetParam();
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    testing::full_sync(a, 201, {{"1", testing::vcard("Alice")}});
    testing::full_sync(b, 201, {});

    auto reply = b.send(b.start(alerted)).reply;
    EXPECT_EQ(granted_status(reply), "200");
    ASSERT_TRUE(alert_of(reply));
    EXPECT_EQ(alert_of(reply)->data, std::to_string(granted));

    // Unknown anchors make it the slow or refresh counterpart, with 508, as for 200-205.
    phone c(store, "phone-c");
    c.last_anchor = "unknown";
    reply = c.send(c.start(alerted)).reply;
    const auto everything = sync_mode::of_alert(granted)->with_everything().alert_code();
    EXPECT_EQ(granted_status(reply), everything == granted ? "200" : "508");
    ASSERT_TRUE(alert_of(reply));
    EXPECT_EQ(alert_of(reply)->data, std::to_string(everything));
}

INSTANTIATE_TEST_SUITE_P(engine, server_alerted_mode,
                         ::testing::Values(std::pair{206, 200}, std::pair{207, 202}, std::pair{208, 203},
                                           std::pair{209, 204}, std::pair{210, 205}));

// The change that made the server notify the phone reaches it in the session the notification started.
TEST(engine, a_two_way_sync_alerted_by_the_server_brings_the_change) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    testing::full_sync(a, 201, {{"1", testing::vcard("Alice")}});
    testing::full_sync(b, 201, {});
    ASSERT_EQ(b.items.size(), 1u);
    testing::full_sync(a, 200, {{"2", testing::vcard("Bob")}});

    auto statuses = b.sync(206, {{"b-1", testing::vcard("Carol")}});
    EXPECT_EQ(statuses, std::vector<std::string>{"201"});
    EXPECT_EQ(b.sent("Add"), 1u);
    EXPECT_EQ(b.items.size(), 3u);
    // The next two-way sync, alerted or not, has nothing more.
    b.sync(200, {});
    EXPECT_EQ(b.sent("Add"), 0u);
}

TEST(engine, a_refresh_from_server_granted_for_a_one_way_request_sends_every_item) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", testing::vcard("Alice")}, {"2", testing::vcard("Bob")}});
    phone b(store, "phone-b");
    b.last_anchor = "unknown";
    b.send(b.start(204));
    auto package4 = b.send(b.changes({})).reply;
    ASSERT_TRUE(testing::sync_of(package4));
    EXPECT_EQ(testing::sync_of(package4)->commands.size(), 2u);
    EXPECT_TRUE(b.send(b.apply_server_changes(package4)).session_done);
    EXPECT_EQ(b.items.size(), 2u);
}

}  // namespace
}  // namespace syncml::session
