#include "session/engine/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "session/engine/test_phone.hpp"

// Suspend and resume (Alert 225): an interrupted session continues without applying or losing anything.

namespace syncml::session {
namespace {

using testing::alert_of;
using testing::full_sync;
using testing::phone;
using testing::statuses_of;
using testing::sync_of;
using testing::vcard;

TEST(engine, resumes_an_interrupted_slow_sync_without_applying_anything_twice) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.send(a.start(201));
    auto first_half = a.changes({{"1", vcard("Alice")}, {"2", vcard("Bob")}});
    first_half.body.final = false;
    a.send(first_half);
    ASSERT_EQ(store.items.size(), 2u);

    // The client dies here; its next session asks to resume with the same Last anchor.
    auto resumed = a.send(a.start(225)).reply;
    EXPECT_EQ(statuses_of(resumed, "Alert").at(0)->data, "200");
    ASSERT_TRUE(alert_of(resumed));
    EXPECT_EQ(alert_of(resumed)->data, "201") << "the interrupted session's mode continues";
    // It sends again what it got no status for (Bob) and the rest.
    auto package4 = a.send(a.changes({{"2", vcard("Bob")}, {"3", vcard("Carol")}})).reply;
    ASSERT_TRUE(package4.body.final);
    ASSERT_TRUE(sync_of(package4));
    EXPECT_TRUE(sync_of(package4)->commands.empty()) << "items received before the interruption stay confirmed";
    EXPECT_TRUE(a.send(a.apply_server_changes(package4)).session_done);
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 3u);
}

TEST(engine, resume_sends_again_the_server_changes_of_a_lost_reply) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    std::map<std::string, std::string> many, changed;
    for (int i = 0; i < 30; ++i) {
        auto name = "Person " + std::to_string(i) + std::string(200, 'x');
        many[std::to_string(i)] = vcard(name);
        changed[std::to_string(i)] = vcard(name + " Changed");
    }
    full_sync(a, 201, many);
    full_sync(b, 201, {});
    full_sync(a, 200, changed, true);

    b.send(testing::with_max_msg_size(b.start(200), 4000));
    auto reply = b.send(b.changes({})).reply;
    ASSERT_FALSE(reply.body.final);
    b.apply_server_changes(reply);
    auto lost = b.send(b.more()).reply;  // the phone dies before it reads this one
    ASSERT_FALSE(sync_of(lost)->commands.empty());

    EXPECT_EQ(statuses_of(b.send(testing::with_max_msg_size(b.start(225), 4000)).reply, "Alert").at(0)->data, "200");
    EXPECT_TRUE(b.receive_package4(b.send(b.changes({})).reply));
    ASSERT_EQ(b.items.size(), 30u);
    for (const auto& [luid, data] : b.items) EXPECT_NE(data.find("Changed"), std::string::npos) << luid;
}

// The Synthesis engine sends the Map of an interrupted session's package 4 with the resumed session's Syncs.
TEST(engine, a_resumed_session_takes_the_map_the_interrupted_one_lost_beside_the_clients_sync) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    full_sync(a, 201, {{"1", vcard("Alice")}, {"2", vcard("Bob")}});
    full_sync(b, 201, {});
    full_sync(a, 200, {{"3", vcard("Carol")}});
    b.send(b.start(200));
    auto package4 = b.send(b.changes({})).reply;
    ASSERT_TRUE(package4.body.final);
    auto lost_map = b.apply_server_changes(package4);  // the phone has Carol; its Map never reaches the server

    EXPECT_EQ(statuses_of(b.send(b.start(225)).reply, "Alert").at(0)->data, "200");
    auto package3 = b.changes({});
    for (const auto& c : lost_map.body.commands) {
        if (std::holds_alternative<session::map>(c.value))
            package3.body.commands.insert(package3.body.commands.begin(), c);
    }
    auto reply = b.send(package3).reply;
    ASSERT_FALSE(statuses_of(reply, "Map").empty());
    EXPECT_EQ(statuses_of(reply, "Map").at(0)->data, "200");
    ASSERT_TRUE(sync_of(reply));
    // Mapped without the interrupted package's end known, Carol may come again, but to the phone's copy.
    for (const auto& c : sync_of(reply)->commands) EXPECT_STRNE(command_name(c), "Add");
    EXPECT_TRUE(b.receive_package4(reply));
    b.finish();
    EXPECT_EQ(b.items.size(), 3u);
    b.sync(200, {});
    EXPECT_EQ(b.sent("Add") + b.sent("Replace"), 0u);
    EXPECT_EQ(b.items.size(), 3u);
}

TEST(engine, alert_225_without_an_interrupted_session_gets_509_and_a_normal_sync) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    full_sync(a, 201, {{"1", vcard("Alice")}});
    auto reply = a.send(a.start(225)).reply;
    // Issue 36: a normal sync with 509, as the Synthesis engine answers (it was a slow sync with 508).
    EXPECT_EQ(statuses_of(reply, "Alert").at(0)->data, "509");
    EXPECT_EQ(alert_of(reply)->data, "200");

    // Interrupted, but the client presents another Last anchor than then and the server knows: no resume, and the
    // anchors allow no normal sync either.
    a.last_anchor = "elsewhere";
    reply = a.send(a.start(225)).reply;
    EXPECT_EQ(statuses_of(reply, "Alert").at(0)->data, "508");
}

// Issue 36: the Synthesis engine sends a resume without anchors; it was refused (only the exact Last anchor resumed).
TEST(engine, resumes_an_interrupted_session_whose_resume_alert_has_no_anchors) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    full_sync(a, 201, {{"1", vcard("Alice")}});
    ASSERT_FALSE(a.last_anchor.empty());
    a.send(a.start(200));
    auto first_half = a.changes({{"2", vcard("Bob")}});
    first_half.body.final = false;
    a.send(first_half);
    auto resume = a.start(225);
    for (auto& c : resume.body.commands) {
        if (auto* al = std::get_if<alert>(&c.value)) {
            for (auto& it : al->items) it.meta.reset();
        }
    }
    auto reply = a.send(resume).reply;
    EXPECT_EQ(statuses_of(reply, "Alert").at(0)->data, "200");
    ASSERT_TRUE(alert_of(reply));
    EXPECT_EQ(alert_of(reply)->data, "200") << "the interrupted session's mode continues";
}

TEST(engine, a_resumed_session_completes_a_large_object_the_client_had_half_sent) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.send(a.start(201));
    auto data = vcard("Chunky") + "NOTE:" + std::string(300, 'n') + "\r\n";
    auto first = a.changes({{"1", data.substr(0, 100)}});
    first.body.final = false;
    auto& it = std::get<add>(std::get<sync>(first.body.commands[0].value).commands[0].value).items[0];
    it.more_data = true;
    it.meta->size = data.size();
    EXPECT_EQ(statuses_of(a.send(first).reply, "Add").at(0)->data, "213");

    // Interrupted; the resumed session carries on with the rest of the object.
    EXPECT_EQ(statuses_of(a.send(a.start(225)).reply, "Alert").at(0)->data, "200");
    auto reply = a.send(a.changes({{"1", data.substr(100)}})).reply;
    EXPECT_EQ(statuses_of(reply, "Add").at(0)->data, "201");
    ASSERT_EQ(store.items.size(), 1u);
    const auto& content = store.items[0].content;
    EXPECT_NE(content.find("FN:Chunky"), std::string::npos);
    EXPECT_GE(std::count(content.begin(), content.end(), 'n'), 300) << "both halves of the note";
}

}  // namespace
}  // namespace syncml::session
