// Issue 36: a device whose DevInf declares a MaxGUIDSize below our 36-byte GUIDs (a Nokia E51: 8) gets short ids
// in their place, and its Map of them maps the right items; a Map item naming no item of ours gets 404.

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>

#include "session/engine/engine.hpp"
#include "session/engine/fake_sync_store.hpp"
#include "session/engine/test_phone.hpp"

namespace syncml::session {
namespace {

using testing::full_sync;
using testing::phone;
using testing::statuses_of;
using testing::sync_of;
using testing::vcard;

// A phone's DevInf whose contacts datastore keeps GUIDs of at most `max` bytes (none declared: nullopt).
dev_inf keeping_guids_of(std::optional<std::uint64_t> max) {
    dev_inf info;
    info.ver_dtd = "1.2";
    info.dev_id = "e51";
    info.dev_typ = "phone";
    datastore ds;
    ds.source_ref = "./contacts";
    ds.max_guid_size = max;
    ds.rx_pref = content_type_ref{"text/vcard", "3.0"};
    ds.tx_pref = content_type_ref{"text/vcard", "3.0"};
    info.datastores.push_back(ds);
    return info;
}

// A store with GUIDs as long as PostgreSQL's and Ann and Bob in it, from another phone.
struct filled_store {
    testing::fake_sync_store store;
    phone other{store, "phone-a"};
    filled_store() {
        store.uuid_guids = true;
        other.items = {{"1", vcard("Ann")}, {"2", vcard("Bob")}};
        full_sync(other, 201, other.items);
    }
    // The GUID of the item whose content names `name`.
    std::string guid_of(const std::string& name) const {
        for (const auto& it : store.items) {
            if (it.content.find("FN:" + name) != std::string::npos) return it.guid;
        }
        return {};
    }
    // Each LUID of `p` maps the item it holds (Ann or Bob, as edited).
    void expect_each_luid_maps_what_it_holds(const phone& p) const {
        for (const auto& [luid, data] : p.items) {
            auto at = data.find("FN:");
            EXPECT_EQ(mapped_guid(luid), guid_of(data.substr(at + 3, data.find('\r', at) - at - 3))) << luid;
        }
    }
    // The GUID that the device store holding LUID `luid` (a LUID only that phone has) maps it to.
    std::string mapped_guid(const std::string& luid) const {
        for (const auto& [device_store, by_guid] : store.mappings) {
            for (const auto& [guid, m] : by_guid) {
                if (m.luid == luid) return guid;
            }
        }
        return {};
    }
};

// Package 4 of the first sync (slow) of `p`, a phone that keeps GUIDs of 8 bytes; its Map is not sent yet.
message first_package4(phone& p) {
    p.devinf = keeping_guids_of(8);
    p.send(p.start(201));
    return p.send(p.changes({})).reply;
}

// Each Add's and Replace's source (our id for the item) by the name its vCard carries; every LocURI of the Sync's
// commands in `ids`.
std::map<std::string, std::string> sources_by_name(const message& reply, std::vector<std::string>& ids) {
    std::map<std::string, std::string> out;
    if (!sync_of(reply)) return out;
    for (const auto& inner : sync_of(reply)->commands) {
        const item_command* cmd = std::get_if<add>(&inner.value);
        if (!cmd) cmd = std::get_if<replace>(&inner.value);
        if (!cmd) cmd = std::get_if<delete_>(&inner.value);
        for (const auto& it : cmd->items) {
            if (it.source) ids.push_back(it.source->loc_uri);
            if (it.target) ids.push_back(it.target->loc_uri);
            if (!it.source || !it.data) continue;
            const auto& data = it.data->bytes;
            auto at = data.find("FN:");
            out[data.substr(at + 3, data.find('\r', at) - at - 3)] = it.source->loc_uri;
        }
    }
    return out;
}

TEST(engine_short_guids, a_datastore_that_keeps_8_bytes_gets_short_ids_and_its_map_of_them_maps_the_right_items) {
    filled_store f;
    phone e51(f.store, "e51");
    e51.devinf = keeping_guids_of(8);
    auto reply = full_sync(e51, 201, {});
    ASSERT_EQ(e51.sent("Add"), 2u);
    std::vector<std::string> ids;
    auto first = sources_by_name(reply, ids);
    ASSERT_EQ(first.size(), 2u);
    for (const auto& id : ids) EXPECT_LE(id.size(), 8u) << id;
    EXPECT_NE(first["Ann"], first["Bob"]);
    EXPECT_NE(first["Ann"], f.guid_of("Ann"));

    // The phone's Map named the short ids: each of its LUIDs maps the item it holds.
    ASSERT_EQ(e51.items.size(), 2u);
    f.expect_each_luid_maps_what_it_holds(e51);

    // A later edit arrives as a Replace of the LUID the phone holds, from the same short id; a delete as a Delete.
    f.other.sync(200, {{"1", vcard("Ann Changed"), true}, {"2", ""}});
    reply = full_sync(e51, 200, {});
    EXPECT_EQ(e51.sent("Replace"), 1u);
    EXPECT_EQ(e51.sent("Delete"), 1u);
    ids.clear();
    auto second = sources_by_name(reply, ids);
    for (const auto& id : ids) EXPECT_LE(id.size(), 8u) << id;
    EXPECT_EQ(second["Ann Changed"], first["Ann"]);
    ASSERT_EQ(e51.items.size(), 1u);
    EXPECT_NE(e51.items.begin()->second.find("FN:Ann Changed"), std::string::npos);
    f.expect_each_luid_maps_what_it_holds(e51);
}

TEST(engine_short_guids, a_large_enough_or_undeclared_max_guid_size_keeps_our_guids) {
    filled_store f;
    for (auto max : {std::optional<std::uint64_t>(36), std::optional<std::uint64_t>()}) {
        phone p(f.store, max ? "phone-36" : "phone-undeclared");
        p.devinf = keeping_guids_of(max);
        auto reply = full_sync(p, 201, {});
        std::vector<std::string> ids;
        auto sources = sources_by_name(reply, ids);
        ASSERT_EQ(sources.size(), 2u);
        EXPECT_EQ(sources["Ann"], f.guid_of("Ann"));
        EXPECT_EQ(sources["Bob"], f.guid_of("Bob"));
        EXPECT_EQ(f.mapped_guid("srv-1").size(), 36u);
    }
    EXPECT_TRUE(f.store.short_ids.empty()) << "no short id given";
}

// The Map never came (the session broke off after package 4): the next sync sends the items again under the same
// short ids, and its Map maps them.
TEST(engine_short_guids, an_item_keeps_its_short_id_until_the_phone_maps_it) {
    filled_store f;
    phone e51(f.store, "e51");
    auto lost = first_package4(e51);
    std::vector<std::string> ids;
    auto first = sources_by_name(lost, ids);
    ASSERT_EQ(first.size(), 2u);

    e51.items.clear();
    auto reply = full_sync(e51, 201, {});
    auto again = sources_by_name(reply, ids);
    EXPECT_EQ(again, first);
    for (const auto& id : ids) EXPECT_LE(id.size(), 8u) << id;
    ASSERT_EQ(e51.items.size(), 2u);
    f.expect_each_luid_maps_what_it_holds(e51);
}

// A resumed session sends the Adds of the reply the phone lost again, under the ids that reply gave them.
TEST(engine_short_guids, a_resumed_session_sends_the_lost_items_under_the_same_short_ids) {
    testing::fake_sync_store store;
    store.uuid_guids = true;
    phone other(store, "phone-a");
    full_sync(other, 201, testing::padded_contacts(30));
    phone e51(store, "e51");
    e51.devinf = keeping_guids_of(8);
    e51.send(testing::with_max_msg_size(e51.start(201), 4000));
    auto reply = e51.send(e51.changes({})).reply;
    ASSERT_FALSE(reply.body.final);
    e51.apply_server_changes(reply);
    std::vector<std::string> ids;
    auto lost = sources_by_name(e51.send(e51.more()).reply, ids);  // the phone dies before it reads this one
    ASSERT_FALSE(lost.empty());

    EXPECT_EQ(statuses_of(e51.send(testing::with_max_msg_size(e51.start(225), 4000)).reply, "Alert").at(0)->data,
              "200");
    std::map<std::string, std::string> resent;
    reply = e51.send(e51.changes({})).reply;
    for (int messages = 0; messages < 50; ++messages) {
        auto sources = sources_by_name(reply, ids);
        resent.insert(sources.begin(), sources.end());
        if (reply.body.final) break;
        reply = e51.send(e51.more()).reply;
    }
    for (const auto& id : ids) EXPECT_LE(id.size(), 8u) << id;
    for (const auto& [name, id] : lost) EXPECT_EQ(resent[name], id) << name;
}

TEST(engine_short_guids, a_map_item_naming_no_item_of_ours_gets_404_while_the_others_are_mapped) {
    filled_store f;
    phone e51(f.store, "e51");
    auto package4 = first_package4(e51);
    auto map_message = e51.apply_server_changes(package4);
    auto& mp = std::get<map>(map_message.body.commands.at(0).value);
    ASSERT_EQ(mp.items.size(), 2u);
    mp.items.push_back(map_item{"99", "srv-never-sent"});  // a short id this device was never given
    mp.items.push_back(map_item{"00000000-0000-4000-8000-999999999999", "srv-unknown"});  // no item of ours
    auto outcome = e51.send(map_message);
    EXPECT_TRUE(outcome.session_done);

    auto statuses = statuses_of(outcome.reply, "Map");
    ASSERT_EQ(statuses.size(), 3u);
    EXPECT_EQ(statuses[0]->data, "200");
    EXPECT_EQ(statuses[0]->target_refs, std::vector<std::string>{"contacts"});
    EXPECT_EQ(statuses[1]->data, "404");
    EXPECT_EQ(statuses[1]->cmd_ref, mp.cmd_id);
    EXPECT_EQ(statuses[1]->source_refs, std::vector<std::string>{"srv-never-sent"});
    EXPECT_EQ(statuses[1]->target_refs, std::vector<std::string>{"99"});
    EXPECT_EQ(statuses[2]->data, "404");
    EXPECT_EQ(statuses[2]->source_refs, std::vector<std::string>{"srv-unknown"});
    EXPECT_EQ(f.mapped_guid("srv-never-sent"), "");
    EXPECT_EQ(f.mapped_guid("srv-unknown"), "");
    EXPECT_EQ(f.mapped_guid("srv-1").size(), 36u) << "the good items are mapped";
    EXPECT_EQ(f.mapped_guid("srv-2").size(), 36u);
}

TEST(engine_short_guids, a_map_of_known_items_gets_one_200) {
    filled_store f;
    phone p(f.store, "phone-b");
    p.send(p.start(201));
    auto package4 = p.send(p.changes({})).reply;
    auto outcome = p.send(p.apply_server_changes(package4));
    auto statuses = statuses_of(outcome.reply, "Map");
    ASSERT_EQ(statuses.size(), 1u);
    EXPECT_EQ(statuses[0]->data, "200");
}

}  // namespace
}  // namespace syncml::session
