#include "session/engine/engine.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "session/engine/test_phone.hpp"

// Recovering from a session that did not complete: the slow sync that follows (the client's own choice, or the one the
// server requires) must not take the device's stale copies for news.

namespace syncml::session {
namespace {

using testing::alert_of;
using testing::phone;
using testing::statuses_of;

std::string contact(const std::string& name, const std::string& note) {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:" + name + "\r\nN:;" + name + ";;;\r\nNOTE:" + note + "\r\nEND:VCARD\r\n";
}

// The LUID under which `p` holds the contact named `name` ("" when it holds none).
std::string luid_of(const phone& p, const std::string& name) {
    for (const auto& [luid, data] : p.items) {
        if (data.find("FN:" + name + "\r\n") != std::string::npos) return luid;
    }
    return "";
}

std::size_t holding(const phone& p, const std::string& text) {
    std::size_t n = 0;
    for (const auto& [luid, data] : p.items) n += data.find(text) != std::string::npos;
    return n;
}

std::string live_content(testing::fake_sync_store& store, const std::string& name) {
    for (const auto& it : store.live_items(store.items.at(0).datastore)) {
        if (it->content.find("FN:" + name + "\r\n") != std::string::npos) return it->content;
    }
    return "";
}

// The phone slow-syncs with everything it holds and applies what comes back.
std::vector<std::string> slow_sync(phone& p) {
    std::vector<testing::change> all;
    for (const auto& [luid, data] : p.items) all.push_back({luid, data, false});
    return p.sync(201, all);
}

class slow_sync_after_interruption : public ::testing::Test {
  protected:
    // Phone A and phone B hold Alice, Bob and Carol; B then edits Alice and deletes Bob in a two-way sync, which A
    // has not seen: A's copies of both are stale.
    void SetUp() override {
        testing::full_sync(
            a, 201,
            {{"1", contact("Alice", "rev-0")}, {"2", contact("Bob", "rev-0")}, {"3", contact("Carol", "rev-0")}});
        testing::full_sync(b, 201, {});
        ASSERT_EQ(b.items.size(), 3u);
        b.sync(200, {{luid_of(b, "Alice"), contact("Alice", "rev-1"), true}, {luid_of(b, "Bob"), ""}});
        ASSERT_EQ(store.live_items(store.items.at(0).datastore).size(), 2u);
    }

    testing::fake_sync_store store;
    phone a{store, "phone-a"};
    phone b{store, "phone-b"};
};

TEST_F(slow_sync_after_interruption, keeps_the_servers_newer_change_and_deletes_the_devices_copy_of_a_deleted_item) {
    // A's session was cut (or rolled back) before it received B's changes; it slow-syncs with its old copies.
    auto codes = slow_sync(a);
    EXPECT_EQ(codes, (std::vector<std::string>{"200", "200", "200"})) << "Bob's stale copy is no new item (201)";
    EXPECT_NE(live_content(store, "Alice").find("rev-1"), std::string::npos) << "the server's newer Alice stays";
    EXPECT_EQ(live_content(store, "Bob"), "") << "Bob is not brought back";
    EXPECT_EQ(a.sent("Delete"), 1u) << "package 4 deletes A's copy of Bob";
    EXPECT_EQ(a.items.size(), 2u);
    EXPECT_EQ(luid_of(a, "Bob"), "");
    EXPECT_EQ(holding(a, "rev-1"), 1u) << "A gets the newer Alice back";

    // Two-way syncs go on from there: B receives nothing, A's next edit reaches B.
    b.sync(200, {});
    EXPECT_EQ(b.items.size(), 2u);
    EXPECT_EQ(b.sent("Add") + b.sent("Replace") + b.sent("Delete"), 0u);
    a.sync(200, {{luid_of(a, "Carol"), contact("Carol", "rev-2"), true}});
    b.sync(200, {});
    EXPECT_EQ(holding(b, "rev-2"), 1u);
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 2u);
}

// The Synthesis engine drops its anchor when a session fails and slow-syncs without a Last anchor: what the server
// knows of A's last completed sync still holds.
TEST_F(slow_sync_after_interruption, holds_for_a_client_that_dropped_its_anchor) {
    a.last_anchor.clear();
    EXPECT_EQ(slow_sync(a), (std::vector<std::string>{"200", "200", "200"}));
    EXPECT_EQ(a.items.size(), 2u);
    EXPECT_EQ(luid_of(a, "Bob"), "");
    EXPECT_EQ(holding(a, "rev-1"), 1u);
}

// The reply that completed A's two-way sync is lost and A rolls the session back: it presents the anchor of the sync
// before, and the server still knows what A had seen then.
TEST_F(slow_sync_after_interruption, knows_what_a_device_that_lost_its_last_completion_had_seen) {
    const auto before = a.items;
    a.send(a.start(200));
    auto package4 = a.send(a.changes({})).reply;
    ASSERT_TRUE(a.send(a.apply_server_changes(package4)).session_done);  // its reply never arrives
    a.items = before;

    auto reply = a.send(a.start(200)).reply;
    EXPECT_EQ(statuses_of(reply, "Alert").at(0)->data, "508") << "the anchors differ";
    auto codes = slow_sync(a);
    EXPECT_EQ(codes, (std::vector<std::string>{"200", "200", "200"}));
    EXPECT_EQ(a.items.size(), 2u);
    EXPECT_EQ(luid_of(a, "Bob"), "");
    EXPECT_EQ(holding(a, "rev-1"), 1u);
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 2u);
}

// A's own edit reached the server in a sync whose completing reply A lost; A kept what it had and edited the contact
// again before its next sync, which is slow (A presents the previous anchor): the server's copy is A's own, no news
// to A, and A's newer edit stays.
TEST_F(slow_sync_after_interruption, keeps_an_edit_the_device_made_after_losing_the_completion_of_its_own) {
    a.send(a.start(200));
    auto package4 = a.send(a.changes({{luid_of(a, "Carol"), contact("Carol", "rev-2")}}, true)).reply;
    ASSERT_TRUE(a.send(a.apply_server_changes(package4)).session_done);  // its reply never arrives
    a.items.at(luid_of(a, "Carol")) = contact("Carol", "rev-3");
    slow_sync(a);
    EXPECT_NE(live_content(store, "Carol").find("rev-3"), std::string::npos);
    EXPECT_EQ(holding(a, "rev-3"), 1u);
    EXPECT_EQ(holding(a, "rev-1"), 1u) << "Alice as A received her";
}

// A refresh from the server gave A new LUIDs for what it sent before the cut (A's Maps arrived, the newer Alice's
// among them), then A rolled back to its old items under their old LUIDs: they are still the items A held, and stale
// where the server changed. A mapping made by a Map is no copy the device wrote.
TEST_F(slow_sync_after_interruption, finds_stale_copies_a_refresh_gave_new_luids) {
    b.sync(200, {{"b-dave", contact("Dave", "rev-1"), false}});  // so that Alice is not the last item of package 4
    const auto before = a.items;
    a.send(testing::with_max_msg_size(a.start(205), 1500));
    auto reply = a.send(a.changes({})).reply;
    a.items.clear();  // a refresh from the server replaces what the phone holds
    while (luid_of(a, "Alice").empty()) {
        ASSERT_FALSE(reply.body.final) << "Alice's Map must reach the server in a message that does not complete";
        reply = a.send(a.apply_server_changes(reply)).reply;
    }
    a.items = before;

    reply = a.send(a.start(200)).reply;
    EXPECT_EQ(statuses_of(reply, "Alert").at(0)->data, "508");
    slow_sync(a);
    EXPECT_EQ(a.items.size(), 3u);
    EXPECT_EQ(luid_of(a, "Bob"), "");
    EXPECT_EQ(holding(a, "rev-1"), 2u) << "the newer Alice, and Dave";
    EXPECT_NE(live_content(store, "Alice").find("rev-1"), std::string::npos);
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 3u);
}

TEST_F(slow_sync_after_interruption, brings_back_a_deleted_item_the_device_edited) {
    // A edited Bob before the server's delete reached it: the edit is no stale copy, and is not lost.
    a.items.at("2") = contact("Bob", "rev-1 edited on A");
    auto codes = slow_sync(a);
    EXPECT_EQ(codes.at(1), "201") << "Bob comes back as a new item";
    EXPECT_NE(live_content(store, "Bob").find("edited on A"), std::string::npos);
    EXPECT_EQ(a.sent("Delete"), 0u);
    b.sync(200, {});
    EXPECT_EQ(holding(b, "edited on A"), 1u);
}

TEST_F(slow_sync_after_interruption, lets_a_device_that_never_completed_a_sync_merge_as_before) {
    // Phone C's first sync: nothing tells which copy is newer, the tenant's policy (merge: device values win) decides.
    phone c(store, "phone-c");
    testing::full_sync(c, 201, {{"c1", contact("Alice", "rev-9 from C")}});
    EXPECT_NE(live_content(store, "Alice").find("rev-9 from C"), std::string::npos);
}

TEST_F(slow_sync_after_interruption, leaves_a_refresh_from_the_client_its_meaning) {
    // A refresh from the client makes the device's data the server's: Bob comes back, Alice as A holds her.
    std::vector<testing::change> all;
    for (const auto& [luid, data] : a.items) all.push_back({luid, data, false});
    a.sync(203, all);
    EXPECT_NE(live_content(store, "Alice").find("rev-0"), std::string::npos);
    EXPECT_NE(live_content(store, "Bob"), "");
}

// A new session (no resume) after one whose package 4 partly reached the device: the device may have rolled that
// session back, so its next sync is slow, and converges whichever it did.
class partly_delivered_package_4 : public ::testing::Test {
  protected:
    void SetUp() override {
        testing::full_sync(a, 201, testing::padded_contacts(30));
        testing::full_sync(b, 201, {});
        ASSERT_EQ(b.items.size(), 30u);
    }

    testing::fake_sync_store store;
    phone a{store, "phone-a"};
    phone b{store, "phone-b"};
};

TEST_F(partly_delivered_package_4, makes_the_next_new_session_a_slow_sync_that_converges) {
    std::vector<testing::change> edits;
    for (int i = 0; i < 15; ++i) {
        auto name = "Person " + std::to_string(i) + std::string(200, 'x');
        auto luid = luid_of(b, name);
        ASSERT_NE(luid, "");
        edits.push_back({luid, i < 10 ? contact(name, "changed") : "", i < 10});
    }
    b.sync(200, edits);

    const auto before = a.items;
    a.send(testing::with_max_msg_size(a.start(200), 4000));
    auto reply = a.send(a.changes({})).reply;
    ASSERT_FALSE(reply.body.final) << "package 4 takes several messages";
    a.apply_server_changes(reply);
    a.send(a.more());  // the server records the first message as delivered; then the phone dies
    a.items = before;  // and rolls the session back

    reply = a.send(a.start(200)).reply;
    EXPECT_EQ(statuses_of(reply, "Alert").at(0)->data, "508");
    ASSERT_TRUE(alert_of(reply));
    EXPECT_EQ(alert_of(reply)->data, "201");
    std::map<std::string, std::string> all(a.items.begin(), a.items.end());
    EXPECT_TRUE(a.receive_package4(a.send(a.changes(all)).reply));
    a.finish();
    EXPECT_EQ(a.items.size(), 25u);
    EXPECT_EQ(holding(a, "changed"), 10u);
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 25u);

    // Completed: two-way syncs are granted again.
    reply = a.send(a.start(200)).reply;
    EXPECT_EQ(statuses_of(reply, "Alert").at(0)->data, "200");
}

// A slow sync finds many stale copies; the reply carrying some of their Deletes is lost and the phone resumes: they
// are sent again, not forgotten (the copies would stay on the phone, and come back in its next slow sync).
TEST_F(partly_delivered_package_4, resends_the_deletes_of_stale_copies_a_lost_reply_carried) {
    std::vector<testing::change> deletes;
    for (int i = 0; i < 25; ++i)
        deletes.push_back({luid_of(b, "Person " + std::to_string(i) + std::string(200, 'x')), ""});
    b.sync(200, deletes);

    std::map<std::string, std::string> all(a.items.begin(), a.items.end());
    a.send(testing::with_max_msg_size(a.start(201), 6000));
    auto reply = a.send(a.changes(all)).reply;
    ASSERT_FALSE(reply.body.final);
    a.apply_server_changes(reply);
    auto lost = a.send(a.more()).reply;  // the phone dies before it reads this one
    ASSERT_TRUE(testing::sync_of(lost));
    ASSERT_FALSE(testing::sync_of(lost)->commands.empty());

    EXPECT_EQ(statuses_of(a.send(testing::with_max_msg_size(a.start(225), 6000)).reply, "Alert").at(0)->data, "200");
    EXPECT_TRUE(a.receive_package4(a.send(a.changes({})).reply));
    a.finish();
    EXPECT_EQ(a.items.size(), 5u);
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 5u);
}

// The same cut, with a phone that kept what it received: the slow sync finds it all in place.
TEST_F(partly_delivered_package_4, kept_by_the_phone_comes_nothing_twice) {
    std::map<std::string, std::string> adds;
    for (int i = 0; i < 20; ++i) adds["new-" + std::to_string(i)] = contact("New " + std::to_string(i), "added on B");
    testing::full_sync(b, 200, adds);

    a.send(testing::with_max_msg_size(a.start(200), 4000));
    auto reply = a.send(a.changes({})).reply;
    ASSERT_FALSE(reply.body.final);
    a.send(a.apply_server_changes(reply));  // its Map arrives; the session dies after it

    reply = a.send(a.start(200)).reply;
    EXPECT_EQ(alert_of(reply)->data, "201");
    std::map<std::string, std::string> all(a.items.begin(), a.items.end());
    EXPECT_TRUE(a.receive_package4(a.send(a.changes(all)).reply));
    a.finish();
    EXPECT_EQ(a.items.size(), 50u);
    EXPECT_EQ(holding(a, "added on B"), 20u) << "no duplicates";
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 50u);
}

}  // namespace
}  // namespace syncml::session
