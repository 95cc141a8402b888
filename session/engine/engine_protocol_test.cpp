#include "session/engine/engine.hpp"

#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "session/codec/codec.hpp"
#include "session/engine/test_phone.hpp"

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

// The Alert names the phone's datastore "./contacts", its DevInf "Contacts": the same datastore, whose Rx-Pref says
// in which format the phone wants the server's items.
TEST(engine_protocol, the_device_format_comes_from_its_devinf_datastore_however_it_spells_the_uri) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}});
    phone b(store, "phone-b");
    dev_inf info;
    info.ver_dtd = "1.2";
    info.dev_id = "phone-b";
    info.dev_typ = "phone";
    datastore ds;
    ds.source_ref = "Contacts";
    ds.rx_pref = content_type_ref{"text/x-vcard", "2.1"};
    ds.tx_pref = ds.rx_pref;
    info.datastores.push_back(ds);
    b.devinf = info;
    auto reply = testing::full_sync(b, 201, {});
    const auto* s = testing::sync_of(reply);
    ASSERT_TRUE(s);
    ASSERT_EQ(s->commands.size(), 1u);
    const auto& it = std::get<add>(s->commands[0].value).items.at(0);
    EXPECT_EQ(it.meta->type.value_or(""), "text/x-vcard");
    EXPECT_NE(it.data->bytes.find("VERSION:2.1"), std::string::npos) << it.data->bytes;
}

// The CmdID -> name of every command of `commands`, those inside a Sync included.
void collect_commands(const std::vector<command>& commands, std::map<std::string, std::string>& out) {
    for (const auto& c : commands) {
        out[command_id(c)] = command_name(c);
        if (const auto* s = std::get_if<sync>(&c.value)) collect_commands(s->commands, out);
    }
}

// Every Status of the reply answers a command of the request: its MsgRef is the request's MsgID and its CmdRef the
// CmdID of a command of the name it gives (0 for the SyncHdr).
void expect_statuses_answer(const message& request, const message& reply) {
    std::map<std::string, std::string> names;
    collect_commands(request.body.commands, names);
    for (const auto& c : reply.body.commands) {
        const auto* s = std::get_if<status>(&c.value);
        if (!s) continue;
        EXPECT_EQ(s->msg_ref, request.header.msg_id) << s->cmd;
        if (s->cmd == "SyncHdr") {
            EXPECT_EQ(s->cmd_ref, "0");
            continue;
        }
        auto found = names.find(s->cmd_ref);
        ASSERT_NE(found, names.end()) << s->cmd << " status with CmdRef '" << s->cmd_ref << "'";
        EXPECT_EQ(found->second, s->cmd) << "CmdRef " << s->cmd_ref;
    }
}

// Sends `m` and checks the statuses of the reply.
message exchange(phone& p, const message& m) {
    auto reply = p.send(m).reply;
    expect_statuses_answer(m, reply);
    return reply;
}

TEST(engine_protocol, every_status_refers_to_a_command_of_the_message_it_answers) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.devinf = dev_inf{};
    a.devinf->ver_dtd = "1.2";
    a.devinf->dev_id = "phone-a";

    // A whole slow sync: Alert with DevInf Put, the client's changes, the Map.
    exchange(a, a.start(201));
    auto package4 = exchange(a, a.changes({{"1", vcard("Alice")}, {"2", vcard("Bob")}}));
    exchange(a, a.apply_server_changes(package4));
    a.finish();

    // A Sync of an unknown datastore, and a Sync with a command the server does not support.
    exchange(a, a.start(200));
    auto m = a.changes({{"3", vcard("Carol")}});
    auto unknown = m.body.commands.at(0);
    std::get<sync>(unknown.value).cmd_id = "10";
    std::get<sync>(unknown.value).target->loc_uri = "nowhere";
    std::get<add>(std::get<sync>(unknown.value).commands.at(0).value).cmd_id = "11";
    copy cp;
    cp.cmd_id = "12";
    cp.items.push_back(item{});
    std::get<sync>(m.body.commands.at(0).value).commands.push_back(command{cp});
    m.body.commands.push_back(unknown);
    exchange(a, m);

    // A message without credentials: every command is answered with the SyncHdr's 407.
    phone b(store, "phone-b");
    auto no_login = b.start(200);
    no_login.header.cred.reset();
    auto get_devinf = get{};
    get_devinf.cmd_id = "2";
    get_devinf.items.push_back(item{location{"./devinf12", std::nullopt, std::nullopt}, {}, {}, {}, {}, {}, false});
    no_login.body.commands.push_back(command{get_devinf});
    auto reply = exchange(b, no_login);
    EXPECT_EQ(testing::statuses_of(reply, "Get").at(0)->data, "407");
}

// What a client with a small MaxMsgSize received of package 4: each item put together from its chunks, by GUID.
struct received_package {
    std::map<std::string, std::string> items;
    int messages = 0;
    message last;
};

received_package receive_chunks(phone& p, message reply) {
    received_package got;
    std::map<std::string, std::string> partial;
    for (;; reply = p.send(p.more()).reply) {
        ++got.messages;
        if (const auto* s = testing::sync_of(reply)) {
            for (const auto& c : s->commands) {
                const auto& it = std::get<add>(c.value).items.at(0);
                auto& data = partial[it.source->loc_uri];
                data += it.data->bytes;
                if (!it.more_data) got.items[it.source->loc_uri] = std::exchange(data, {});
            }
        }
        if (reply.body.final || got.messages == 200) break;
    }
    got.last = reply;
    return got;
}

// A MaxMsgSize smaller than one item: the items go in chunks as small as the messages allow, and the session ends.
TEST(engine_protocol, a_max_msg_size_smaller_than_an_item_still_delivers_every_item_in_chunks) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, testing::padded_contacts(3));
    phone b(store, "phone-b");
    b.send(testing::with_max_msg_size(b.start(201), 1300));
    auto got = receive_chunks(b, b.send(b.changes({})).reply);
    ASSERT_TRUE(got.last.body.final) << "no end after " << got.messages << " messages";
    ASSERT_EQ(got.items.size(), 3u);
    for (const auto& [guid, data] : got.items) EXPECT_NE(data.find("END:VCARD"), std::string::npos) << data;
    message map = b.blank();
    session::map m;
    m.cmd_id = "1";
    m.target = location{"contacts", std::nullopt, std::nullopt};
    m.source = location{"./contacts", std::nullopt, std::nullopt};
    for (const auto& [guid, data] : got.items) m.items.push_back(map_item{guid, "luid-" + guid});
    map.body.commands.push_back(command{m});
    EXPECT_TRUE(b.send(map).session_done);
}

// A MaxMsgSize that leaves no room for any item: the session ends at once with an error on the SyncHdr.
TEST(engine_protocol, a_max_msg_size_too_small_for_any_item_ends_the_session_with_an_error) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, testing::padded_contacts(3));
    phone b(store, "phone-b");
    b.send(testing::with_max_msg_size(b.start(201), 700));
    auto got = receive_chunks(b, b.send(b.changes({})).reply);
    ASSERT_TRUE(got.last.body.final) << "no end after " << got.messages << " messages";
    EXPECT_LE(got.messages, 3);
    EXPECT_EQ(testing::statuses_of(got.last, "SyncHdr").at(0)->data, "500");
}

// A client with a small MaxMsgSize sends many commands in one message: their statuses come over several replies, each
// within its MaxMsgSize, every command answered exactly once, and the session ends normally.
TEST(engine_protocol, statuses_beyond_the_max_msg_size_go_in_the_next_messages) {
    constexpr std::size_t limit = 2000;
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.send(testing::with_max_msg_size(a.start(201), limit));
    std::map<std::string, std::string> contacts;
    for (int i = 0; i < 40; ++i) contacts[std::to_string(i)] = vcard("Person " + std::to_string(i));
    auto request = a.changes(contacts);
    std::map<std::string, int> answered;  // MsgRef/CmdRef -> statuses
    auto reply = a.send(request).reply;
    int replies = 1;
    for (;; reply = a.send(a.more()).reply, ++replies) {
        ASSERT_LE(encode(reply, wire_encoding::xml).size(), limit) << "reply " << replies;
        for (const auto& c : reply.body.commands) {
            const auto* st = std::get_if<status>(&c.value);
            if (st && st->cmd != "SyncHdr" && st->msg_ref == request.header.msg_id) ++answered[st->cmd_ref];
        }
        if (reply.body.final || replies == 50) break;
    }
    ASSERT_TRUE(reply.body.final);
    EXPECT_GT(replies, 1);
    std::map<std::string, std::string> names;
    collect_commands(request.body.commands, names);
    EXPECT_EQ(answered.size(), names.size()) << "every command of the message answered";
    for (const auto& [ref, n] : answered) EXPECT_EQ(n, 1) << "CmdRef " << ref;
    EXPECT_TRUE(a.send(a.apply_server_changes(reply)).session_done);
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 40u);
}

// A client whose package 1 got its answer over several replies asks for the rest with Alert 222 in a message that
// has Final (its own package 1 is complete). That Final ends no package: the client's Sync still comes, in package 3.
TEST(engine_protocol, an_alert_222_with_final_asking_for_the_rest_of_package_2_does_not_end_package_3) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto opening = testing::with_max_msg_size(a.start(201), 700);
    for (int i = 0; i < 15; ++i) {
        alert no_end;
        no_end.cmd_id = std::to_string(10 + i);
        no_end.data = "223";
        opening.body.commands.push_back(command{no_end});
    }
    auto reply = a.send(opening).reply;
    ASSERT_FALSE(reply.body.final) << "package 2 did not need several replies";
    for (int replies = 1; !reply.body.final && replies < 20; ++replies) {
        auto ask = a.more();
        ask.body.final = true;
        reply = a.send(ask).reply;
    }
    ASSERT_TRUE(reply.body.final);

    auto package3 = a.send(a.changes({{"1", vcard("Alice")}})).reply;
    ASSERT_EQ(testing::statuses_of(package3, "Add").size(), 1u);
    EXPECT_EQ(testing::statuses_of(package3, "Add").at(0)->data, "201") << "the Sync was refused as out of phase";
    ASSERT_EQ(store.items.size(), 1u);
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 1u);
}

// Issue 36: a client that sends its Sync in the same message as its Alerts (packages 1 and 3 in one) waits for
// package 4 in the reply; it got package 2 alone and the session stalled.
TEST(engine_protocol, a_sync_beside_the_alerts_gets_package_4_in_the_reply) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    testing::full_sync(a, 201, {{"a1", vcard("Alice")}});
    testing::full_sync(b, 201, {});
    testing::full_sync(a, 200, {{"a2", vcard("Carol")}});

    auto combined = b.start(200);
    for (const auto& c : b.changes({{"b1", vcard("Bob")}}).body.commands) combined.body.commands.push_back(c);
    auto reply = b.send(combined).reply;
    ASSERT_EQ(testing::statuses_of(reply, "Add").size(), 1u);
    EXPECT_EQ(testing::statuses_of(reply, "Add").at(0)->data, "201");
    ASSERT_TRUE(testing::sync_of(reply)) << "package 4 in the same reply";
    EXPECT_TRUE(b.receive_package4(reply));
    b.finish();
    EXPECT_EQ(b.items.size(), 3u);
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 3u);
}

// Issue 36: the commands inside an Atomic or Sequence got no status at all (only the container a 406): the client
// could not tell what happened to them. A Sequence is carried out in order; an Atomic and everything in it get 406.
TEST(engine_protocol, commands_inside_a_sequence_are_carried_out_and_inside_an_atomic_each_get_406) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.send(a.start(201));
    auto package3 = a.changes({{"1", vcard("Alice")}, {"2", vcard("Bob")}, {"3", vcard("Carol")}});
    auto& sync_cmd = std::get<session::sync>(package3.body.commands[0].value);
    sequence in_order;
    in_order.cmd_id = "20";
    in_order.commands = {sync_cmd.commands[0], sync_cmd.commands[1]};
    atomic all_or_nothing;
    all_or_nothing.cmd_id = "21";
    all_or_nothing.commands = {sync_cmd.commands[2]};
    sync_cmd.commands = {command{in_order}, command{all_or_nothing}};
    auto reply = a.send(package3).reply;
    EXPECT_EQ(testing::statuses_of(reply, "Sequence").at(0)->data, "200");
    EXPECT_EQ(testing::statuses_of(reply, "Atomic").at(0)->data, "406");
    std::vector<std::string> adds;
    for (const auto* st : testing::statuses_of(reply, "Add")) adds.push_back(st->data);
    EXPECT_EQ(adds, (std::vector<std::string>{"201", "201", "406"}));
    ASSERT_FALSE(store.items.empty());
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 2u) << "Carol, inside the Atomic, is not stored";
}

// Commands out of the session's phase are refused with 403 and never applied: a Sync once package 4 went out, an
// Alert opening a sync after the package's Sync. A Map before package 4 answers an earlier session's package 4
// (issue 36): it is taken, but never moves an item the device confirmed under another LUID.
TEST(engine_protocol, commands_out_of_phase_are_refused_and_not_applied) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}});
    const auto datastore = store.items[0].datastore;

    a.send(a.start(200));
    auto early_map = a.blank();
    session::map m;
    m.cmd_id = "1";
    m.target = location{"contacts", std::nullopt, std::nullopt};
    m.source = location{"./contacts", std::nullopt, std::nullopt};
    m.items.push_back(map_item{store.items[0].guid, "other-luid"});
    early_map.body.commands.push_back(command{m});
    early_map.body.final = false;
    auto reply = a.send(early_map).reply;
    EXPECT_EQ(testing::statuses_of(reply, "Map").at(0)->data, "200") << "a Map before package 4";

    auto changes = a.changes({{"2", vcard("Bob")}});
    changes.body.final = false;
    a.send(changes);
    auto late_alert = a.blank();
    late_alert.body.final = false;
    alert slow;
    slow.cmd_id = "1";
    slow.data = "201";
    slow.items.push_back(item{});
    slow.items[0].target = location{"contacts", std::nullopt, std::nullopt};
    slow.items[0].source = location{"./contacts", std::nullopt, std::nullopt};
    late_alert.body.commands.push_back(command{slow});
    reply = a.send(late_alert).reply;
    EXPECT_EQ(testing::statuses_of(reply, "Alert").at(0)->data, "403") << "an Alert after the package's Sync";
    EXPECT_FALSE(testing::alert_of(reply));

    auto package4 = a.send(a.blank()).reply;
    ASSERT_TRUE(package4.body.final);
    EXPECT_EQ(testing::alert_of(package4), nullptr);
    auto late_sync = a.changes({{"3", vcard("Carol")}});
    late_sync.body.final = false;
    reply = a.send(late_sync).reply;
    EXPECT_EQ(testing::statuses_of(reply, "Sync").at(0)->data, "403") << "a Sync in the Map phase";
    EXPECT_EQ(testing::statuses_of(reply, "Add").at(0)->data, "403");
    EXPECT_TRUE(a.send(a.apply_server_changes(package4)).session_done);

    auto live = store.live_items(datastore);
    EXPECT_EQ(live.size(), 2u) << "Carol was not added";
    for (const auto& [id, maps] : store.mappings) {
        for (const auto& [guid, mp] : maps) EXPECT_NE(mp.luid, "other-luid") << "the early Map moved no item";
    }
}

// `m` as a SyncML 1.1 client sends it.
message as_1_1(message m) {
    m.version = syncml_version::v1_1;
    m.header.ver_dtd = "1.1";
    return m;
}

// Resume is a SyncML 1.2 feature: in a 1.1 session Alert 225 is a reserved code, answered 406 and opening nothing;
// the same client can then start its sync.
TEST(engine_protocol, a_resume_in_a_1_1_session_is_refused_as_an_unsupported_alert) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}});
    a.send(as_1_1(a.start(200)));
    auto interrupted = as_1_1(a.changes({{"2", vcard("Bob")}}));
    interrupted.body.final = false;
    a.send(interrupted);

    auto reply = a.send(as_1_1(a.start(225))).reply;
    auto alerts = testing::statuses_of(reply, "Alert");
    ASSERT_EQ(alerts.size(), 1u);
    EXPECT_EQ(alerts[0]->data, "406");
    EXPECT_FALSE(testing::alert_of(reply)) << "no datastore opened";

    reply = a.send(as_1_1(a.start(200))).reply;
    ASSERT_TRUE(testing::alert_of(reply));
    EXPECT_EQ(testing::statuses_of(reply, "Alert").at(0)->data, "200");
}

// NoResp inside a Sync: the command is carried out, and answered with no Status; the Sync's own NoResp drops only
// its own Status.
TEST(engine_protocol, commands_with_no_resp_inside_a_sync_get_no_status) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}});
    a.send(a.start(200));
    auto m = a.changes({{"1", vcard("Alice Changed")}, {"2", vcard("Bob")}, {"3", vcard("Carol")}});
    auto& s = std::get<sync>(m.body.commands.at(0).value);
    s.no_resp = true;
    std::get<add>(s.commands.at(0).value).no_resp = true;  // the Add of "1", a known item
    std::get<add>(s.commands.at(2).value).no_resp = true;
    auto reply = a.send(m).reply;
    EXPECT_TRUE(testing::statuses_of(reply, "Sync").empty());
    auto adds = testing::statuses_of(reply, "Add");
    ASSERT_EQ(adds.size(), 1u);
    EXPECT_EQ(adds[0]->cmd_ref, command_id(s.commands.at(1)));
    EXPECT_EQ(adds[0]->data, "201");
    auto live = store.live_items(store.items[0].datastore);
    EXPECT_EQ(live.size(), 3u) << "every command carried out";
}

}  // namespace
}  // namespace syncml::session
