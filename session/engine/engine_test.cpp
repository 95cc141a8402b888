#include "session/engine/engine.hpp"

#include <gtest/gtest.h>

#include <map>

#include "common/crypto/base64.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/fake_sync_store.hpp"
#include "session/engine/test_phone.hpp"
#include "session/protocol/auth.hpp"

namespace syncml::session {
namespace {

using testing::alert_of;
using testing::full_sync;
using testing::md5_digest_secret;
using testing::phone;
using testing::statuses_of;
using testing::sync_of;
using testing::vcard;

TEST(engine, rejects_a_message_without_credentials_with_407_and_a_challenge) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto m = a.start(201);
    m.header.cred.reset();
    auto outcome = a.send(m);
    EXPECT_TRUE(outcome.auth_failed);
    auto hdr = statuses_of(outcome.reply, "SyncHdr");
    ASSERT_EQ(hdr.size(), 1u);
    EXPECT_EQ(hdr[0]->data, "407");
    ASSERT_TRUE(hdr[0]->chal);
    EXPECT_EQ(hdr[0]->chal->meta->type, "syncml:auth-basic");
}

// A failed login stores nothing (the caller rolls back): the challenge announces a nonce that is valid without
// being stored, the stateless one for a device without a stored nonce, and only a success stores a fresh one.
TEST(engine, authenticates_md5_with_the_nonce_it_announced_and_stores_a_fresh_one_only_on_success) {
    testing::fake_sync_store store;
    engine_context ctx;
    ctx.tenant_id = 1;
    ctx.account = account_info{7, "u1", false, md5_digest_secret()};
    ctx.make_nonce = [n = 0]() mutable { return "nonce" + std::to_string(++n); };
    ctx.stateless_nonces = {"stateless-now", "stateless-before"};
    auto device = store.device(1, 7, "phone-md5");
    message m;
    m.header.ver_dtd = "1.2";
    m.header.session_id = "1";
    m.header.msg_id = "1";
    m.header.source.loc_uri = "phone-md5";
    m.header.cred = credentials{meta_info{}, md5_digest(md5_digest_secret(), "stale")};
    m.header.cred->meta->type = "syncml:auth-md5";
    session_state state;
    auto outcome = process_message(m, state, device, ctx, store);
    auto hdr = statuses_of(outcome.reply, "SyncHdr")[0];
    EXPECT_EQ(hdr->data, "401");
    ASSERT_TRUE(hdr->chal && hdr->chal->meta->next_nonce);
    EXPECT_EQ(common::base64_decode(*hdr->chal->meta->next_nonce), "stateless-now");
    EXPECT_EQ(store.device(1, 7, "phone-md5").nonce, "");

    // The previous period's nonce is still good.
    m.header.msg_id = "2";
    m.header.cred->data = md5_digest(md5_digest_secret(), "stateless-before");
    outcome = process_message(m, state, device, ctx, store);
    hdr = statuses_of(outcome.reply, "SyncHdr")[0];
    EXPECT_EQ(hdr->data, "212");
    ASSERT_TRUE(hdr->chal && hdr->chal->meta->next_nonce);
    EXPECT_EQ(common::base64_decode(*hdr->chal->meta->next_nonce), "nonce1");
    EXPECT_EQ(store.device(1, 7, "phone-md5").nonce, "nonce1");

    // With a stored nonce, only that one counts, and a failure announces it unchanged.
    session_state next;
    m.header.cred->data = md5_digest(md5_digest_secret(), "stateless-now");
    outcome = process_message(m, next, device, ctx, store);
    hdr = statuses_of(outcome.reply, "SyncHdr")[0];
    EXPECT_EQ(hdr->data, "401");
    EXPECT_EQ(common::base64_decode(*hdr->chal->meta->next_nonce), "nonce1");
    EXPECT_EQ(store.device(1, 7, "phone-md5").nonce, "nonce1");
}

// Issue 36: SyncML 1.0's md5 digest is MD5(user:password:nonce), which needs the password in clear; the server keeps
// only hashes and the 1.1 secret, so a 1.0 client answering md5 challenges could never log in. It is asked for basic.
TEST(engine, a_syncml_1_0_client_is_asked_for_basic_credentials_not_md5) {
    testing::fake_sync_store store;
    engine_context ctx;
    ctx.tenant_id = 1;
    ctx.account = account_info{7, "u1", false, md5_digest_secret()};
    ctx.stateless_nonces = {"stateless-now"};
    auto device = store.device(1, 7, "phone-10");
    message m;
    m.version = syncml_version::v1_0;
    m.header.ver_dtd = "1.0";
    m.header.session_id = "1";
    m.header.msg_id = "1";
    m.header.source.loc_uri = "phone-10";
    m.header.cred = credentials{meta_info{}, "b64-of-md5-of-user-password-nonce"};
    m.header.cred->meta->type = "syncml:auth-md5";
    session_state state;
    const auto outcome = process_message(m, state, device, ctx, store);
    const auto* hdr = statuses_of(outcome.reply, "SyncHdr")[0];
    EXPECT_EQ(hdr->data, "401");
    ASSERT_TRUE(hdr->chal);
    EXPECT_EQ(hdr->chal->meta->type, "syncml:auth-basic");
}

TEST(engine, grants_a_slow_sync_with_508_when_the_device_is_unknown) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto outcome = a.send(a.start(200));
    EXPECT_EQ(statuses_of(outcome.reply, "SyncHdr")[0]->data, "212");
    auto alerts = statuses_of(outcome.reply, "Alert");
    ASSERT_EQ(alerts.size(), 1u);
    EXPECT_EQ(alerts[0]->data, "508");
    ASSERT_TRUE(alert_of(outcome.reply));
    EXPECT_EQ(alert_of(outcome.reply)->data, "201");
}

TEST(engine, slow_sync_stores_items_and_a_second_device_receives_them) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.items = {{"1", vcard("Alice")}, {"2", vcard("Bob")}};
    auto reply = full_sync(a, 201, a.items);
    ASSERT_TRUE(sync_of(reply));
    EXPECT_TRUE(sync_of(reply)->commands.empty()) << "no echo of the client's own items";
    ASSERT_EQ(store.items.size(), 2u);

    phone b(store, "phone-b");
    reply = full_sync(b, 201, {});
    ASSERT_TRUE(sync_of(reply));
    EXPECT_EQ(sync_of(reply)->commands.size(), 2u);
    EXPECT_EQ(sync_of(reply)->number_of_changes, 2u);
    EXPECT_EQ(b.items.size(), 2u);
}

TEST(engine, repeated_slow_sync_does_not_duplicate_items) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.items = {{"1", vcard("Alice")}, {"2", vcard("Bob")}};
    full_sync(a, 201, a.items);
    auto reply = full_sync(a, 201, a.items, true);
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 2u);
    EXPECT_TRUE(sync_of(reply)->commands.empty());
}

TEST(engine, two_way_sync_sends_changes_once_and_never_echoes_them) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    a.items = {{"1", vcard("Alice")}, {"2", vcard("Bob")}};
    full_sync(a, 201, a.items);
    full_sync(b, 201, {});

    // A changes Alice, deletes Bob, adds Carol.
    auto reply = full_sync(a, 200, {{"1", vcard("Alice Changed")}, {"2", ""}, {"3", vcard("Carol")}});
    EXPECT_TRUE(sync_of(reply)->commands.empty());
    // B gets exactly those three changes, as Replace/Delete with its own LUIDs and one Add.
    reply = full_sync(b, 200, {});
    ASSERT_EQ(sync_of(reply)->commands.size(), 3u);
    EXPECT_EQ(b.items.size(), 2u);
    bool changed = false;
    for (const auto& [luid, data] : b.items) changed |= data.find("Alice Changed") != std::string::npos;
    EXPECT_TRUE(changed);
    // Nothing more for either of them.
    EXPECT_TRUE(sync_of(full_sync(a, 200, {}))->commands.empty());
    EXPECT_TRUE(sync_of(full_sync(b, 200, {}))->commands.empty());
}

TEST(engine, refresh_from_client_deletes_what_the_client_did_not_send) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.items = {{"1", vcard("Alice")}, {"2", vcard("Bob")}};
    full_sync(a, 201, a.items);
    full_sync(a, 203, {{"1", vcard("Alice")}});
    auto live = store.live_items(store.items[0].datastore);
    ASSERT_EQ(live.size(), 1u);
    EXPECT_NE(live[0]->content.find("Alice"), std::string::npos);
}

TEST(engine, splits_package_4_over_messages_within_max_msg_size) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    full_sync(a, 201, testing::padded_contacts(40));

    phone b(store, "phone-b");
    b.send(testing::with_max_msg_size(b.start(201), 4000));
    auto reply = b.send(b.changes({})).reply;
    std::size_t received = 0, messages = 1;
    while (!reply.body.final) {
        ASSERT_LE(encode(reply, wire_encoding::xml).size(), 4000u);
        received += sync_of(reply)->commands.size();
        reply = b.send(b.more()).reply;
        ASSERT_LT(++messages, 100u);
    }
    received += sync_of(reply)->commands.size();
    EXPECT_GT(messages, 2u);
    EXPECT_EQ(received, 40u);
}

TEST(engine, sends_an_item_larger_than_a_message_as_a_large_object) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto big = vcard("Big") + "NOTE:" + std::string(9000, 'n') + "\r\n";
    full_sync(a, 201, {{"1", big}});

    phone b(store, "phone-b");
    b.send(testing::with_max_msg_size(b.start(201), 4000));
    auto reply = b.send(b.changes({})).reply;
    std::string assembled;
    std::size_t chunks = 0;
    while (true) {
        ASSERT_LE(encode(reply, wire_encoding::xml).size(), 4000u);
        for (const auto& cmd : sync_of(reply)->commands) {
            const auto& it = std::get<add>(cmd.value).items.at(0);
            assembled += it.data->bytes;
            ++chunks;
            if (chunks == 1) {
                EXPECT_TRUE(it.meta->size);
            }
        }
        if (reply.body.final) break;
        reply = b.send(b.more()).reply;
        ASSERT_LT(chunks, 20u);
    }
    EXPECT_GE(chunks, 3u);
    EXPECT_EQ(assembled, store.items[0].content);
}

TEST(engine, receives_a_large_object_in_chunks_and_checks_its_size) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    a.send(a.start(201));
    auto data = vcard("Chunky");
    auto chunk = [&](std::string part, bool more, std::optional<std::uint64_t> size) {
        auto m = a.changes({{"1", part}});
        m.body.final = !more;
        auto& s = std::get<sync>(m.body.commands[0].value);
        auto& it = std::get<add>(s.commands[0].value).items[0];
        it.more_data = more;
        it.meta->size = size;
        return a.send(m).reply;
    };
    auto reply = chunk(data.substr(0, 20), true, data.size());
    EXPECT_EQ(statuses_of(reply, "Add").at(0)->data, "213");
    EXPECT_TRUE(store.items.empty());
    reply = chunk(data.substr(20), false, std::nullopt);
    EXPECT_EQ(statuses_of(reply, "Add").at(0)->data, "201");
    ASSERT_EQ(store.items.size(), 1u);
    EXPECT_EQ(store.items[0].content, data);

    phone b(store, "phone-b");
    b.send(b.start(201));
    auto m = b.changes({{"9", data.substr(0, 10)}});
    m.body.final = false;
    auto& it = std::get<add>(std::get<sync>(m.body.commands[0].value).commands[0].value).items[0];
    it.more_data = true;
    it.meta->size = data.size() + 5;
    b.send(m);
    reply = b.send(b.changes({{"9", data.substr(10)}})).reply;
    EXPECT_EQ(statuses_of(reply, "Add").at(0)->data, "424");
}

}  // namespace
}  // namespace syncml::session
