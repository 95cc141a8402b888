#include "session/engine/engine.hpp"

#include <gtest/gtest.h>

#include "session/engine/test_phone.hpp"

// Suspend (Alert 224): the session ends where it stands, nothing of the package's end is applied, and the client
// continues with Alert 225.

namespace syncml::session {
namespace {

using testing::phone;
using testing::statuses_of;
using testing::sync_of;
using testing::vcard;

message suspend(phone& p) {
    auto m = p.blank();
    alert a;
    a.cmd_id = "1";
    a.data = "224";
    item it;
    it.target = location{"contacts", std::nullopt, std::nullopt};
    it.source = location{"./contacts", std::nullopt, std::nullopt};
    a.items.push_back(it);
    m.body.commands.push_back(command{a});
    return m;
}

TEST(engine, a_suspended_refresh_from_client_deletes_nothing_and_resumes_where_it_stopped) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}, {"2", vcard("Bob")}, {"3", vcard("Carol")}});
    const auto datastore = store.items[0].datastore;
    const auto anchors = store.device_stores;

    // A refresh from the client: the first item, then the user suspends.
    a.send(a.start(203));
    auto first = a.changes({{"1", vcard("Alice")}});
    first.body.final = false;
    a.send(first);
    auto outcome = a.send(suspend(a));
    EXPECT_EQ(statuses_of(outcome.reply, "Alert").at(0)->data, "200");
    EXPECT_TRUE(outcome.reply.body.final);
    EXPECT_FALSE(outcome.session_done);
    EXPECT_FALSE(sync_of(outcome.reply)) << "no package 4 for a suspended session";
    EXPECT_EQ(store.live_items(datastore).size(), 3u) << "items not sent yet are not deleted";
    for (const auto& [id, ds] : store.device_stores) {
        EXPECT_EQ(ds.client_anchor, anchors.at(id).client_anchor) << "no anchor moves";
    }

    // The resumed session continues the refresh with the rest; its end deletes what the client no longer has.
    auto resumed = a.send(a.start(225)).reply;
    EXPECT_EQ(statuses_of(resumed, "Alert").at(0)->data, "200");
    ASSERT_TRUE(testing::alert_of(resumed));
    EXPECT_EQ(testing::alert_of(resumed)->data, "203");
    auto package4 = a.send(a.changes({{"2", vcard("Bob")}})).reply;
    ASSERT_TRUE(package4.body.final);
    EXPECT_TRUE(a.send(a.apply_server_changes(package4)).session_done);
    auto live = store.live_items(datastore);
    ASSERT_EQ(live.size(), 2u);
    for (const auto* it : live) EXPECT_EQ(it->content.find("Carol"), std::string::npos);
}

TEST(engine, a_suspend_during_package_4_sends_no_more_and_the_resume_sends_the_rest) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, testing::padded_contacts(30));
    phone b(store, "phone-b");

    b.send(testing::with_max_msg_size(b.start(201), 4000));
    auto reply = b.send(b.changes({})).reply;
    ASSERT_FALSE(reply.body.final);
    // The client maps what it received and suspends in the same message.
    auto m = b.apply_server_changes(reply);
    auto alert_224 = suspend(b).body.commands.at(0);
    std::get<alert>(alert_224.value).cmd_id = "2";
    m.body.commands.push_back(alert_224);
    auto outcome = b.send(m);
    EXPECT_TRUE(outcome.reply.body.final);
    EXPECT_FALSE(outcome.session_done);
    EXPECT_FALSE(sync_of(outcome.reply));

    b.send(testing::with_max_msg_size(b.start(225), 4000));
    EXPECT_TRUE(b.receive_package4(b.send(b.changes({})).reply));
    EXPECT_EQ(b.items.size(), 30u);
}

}  // namespace
}  // namespace syncml::session
