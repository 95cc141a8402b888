// What the phone holds after package 4: the client's statuses for our commands, its Map of our Adds, and its soft
// deletes decide what the server records as delivered and what it sends again.

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "session/engine/engine.hpp"
#include "session/engine/fake_sync_store.hpp"
#include "session/engine/test_phone.hpp"

namespace syncml::session {
namespace {

using testing::alert_of;
using testing::phone;
using testing::sync_of;
using testing::vcard;

// The client's Status for `cmd_id` of `reply`.
status client_status(const message& reply, const std::string& cmd_id, const std::string& name, int code) {
    status st;
    st.msg_ref = reply.header.msg_id;
    st.cmd_ref = cmd_id;
    st.cmd = name;
    st.data = std::to_string(code);
    return st;
}

const std::string& cmd_id_of(const command& c) {
    return std::visit([](const auto& v) -> const std::string& { return v.cmd_id; }, c.value);
}

// Applies package 4 as the phone does, except the commands whose data (or target, for a Delete) contains
// `refused_marker`, which it answers with `code` instead; every command gets a Status, as a phone sends them.
message answer_package4(phone& p, const message& reply, const std::string& refused_marker, int code) {
    message kept = reply;
    std::vector<status> statuses;
    for (auto& c : kept.body.commands) {
        auto* s = std::get_if<session::sync>(&c.value);
        if (!s) continue;
        std::vector<command> taken;
        for (const auto& inner : s->commands) {
            const auto& it = std::visit(
                [](const auto& v) -> const item& {
                    if constexpr (std::is_base_of_v<item_command, std::decay_t<decltype(v)>>) {
                        return v.items.at(0);
                    } else {
                        throw std::logic_error("not an item command");
                    }
                },
                inner.value);
            std::string text = it.data ? it.data->bytes : (it.target ? it.target->loc_uri : "");
            bool refuse = !refused_marker.empty() && text.find(refused_marker) != std::string::npos;
            statuses.push_back(client_status(reply, cmd_id_of(inner), command_name(inner), refuse ? code : 200));
            if (!refuse) taken.push_back(inner);
        }
        s->commands = std::move(taken);
    }
    auto m = p.apply_server_changes(kept);
    std::vector<command> body;
    for (auto& st : statuses) body.push_back(command{std::move(st)});
    for (auto& c : m.body.commands) body.push_back(std::move(c));
    m.body.commands = std::move(body);
    return m;
}

// A session of `p` whose package 4 is answered by answer_package4.
message sync_refusing(phone& p, const std::string& refused_marker, int code) {
    p.send(p.start(200));
    auto reply = p.send(p.changes({})).reply;
    EXPECT_TRUE(reply.body.final);
    EXPECT_TRUE(p.send(answer_package4(p, reply, refused_marker, code)).session_done);
    p.finish();
    return reply;
}

std::size_t count_of(const message& reply, std::string_view kind) {
    std::size_t n = 0;
    if (const auto* s = sync_of(reply)) {
        for (const auto& inner : s->commands) n += std::string_view(command_name(inner)) == kind;
    }
    return n;
}

struct two_phones {
    testing::fake_sync_store store;
    phone a{store, "phone-a"};
    phone b{store, "phone-b"};

    // Both phones hold the contacts `names` (a added them, b received them).
    void seed(const std::vector<std::string>& names) {
        std::vector<testing::change> adds;
        for (const auto& n : names) adds.push_back({"a-" + n, vcard(n)});
        a.sync(201, adds);
        b.sync(201, {});
    }
    std::string luid_on_b(const std::string& name) const {
        for (const auto& [luid, data] : b.items) {
            if (data.find("FN:" + name + "\r\n") != std::string::npos) return luid;
        }
        return {};
    }
};

// Issue 36: a Synthesis-engine client whose package 5 was lost sends its cached Map at the start of package 3 of its
// next, normal session. It got 403 (a Map there was taken only for a resumed datastore): the item stayed unmapped for
// good, came again as an Add the client refused, and the phone's own edit of it made a duplicate.
TEST(engine_delivery, a_map_the_last_session_lost_is_taken_at_the_start_of_the_next_normal_session) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    phone b(store, "phone-b");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}});
    testing::full_sync(b, 201, {});
    testing::full_sync(a, 200, {{"2", vcard("Carol")}});
    b.send(b.start(200));
    auto package4 = b.send(b.changes({})).reply;
    ASSERT_TRUE(package4.body.final);
    auto lost_map = b.apply_server_changes(package4);  // the phone has Carol; its package 5 never reaches the server

    b.send(b.start(200));
    auto package3 = b.changes({});
    for (const auto& c : lost_map.body.commands) {
        if (std::holds_alternative<session::map>(c.value))
            package3.body.commands.insert(package3.body.commands.begin(), c);
    }
    auto reply = b.send(package3).reply;
    ASSERT_FALSE(testing::statuses_of(reply, "Map").empty());
    EXPECT_EQ(testing::statuses_of(reply, "Map").at(0)->data, "200");
    ASSERT_TRUE(sync_of(reply));
    for (const auto& c : sync_of(reply)->commands) EXPECT_STRNE(command_name(c), "Add") << "Carol is mapped";
    EXPECT_TRUE(b.receive_package4(reply));
    b.finish();
    EXPECT_EQ(b.items.size(), 2u);
    b.sync(200, {});
    EXPECT_EQ(b.sent("Add") + b.sent("Replace"), 0u);
    EXPECT_EQ(b.items.size(), 2u) << "nothing doubled";
}

TEST(engine_delivery, a_replace_the_phone_refused_is_sent_again_in_its_next_sync_and_only_that_one) {
    two_phones t;
    t.seed({"Ann", "Bob"});
    t.a.sync(200, {{"a-Ann", vcard("Ann2"), true}, {"a-Bob", vcard("Bob2"), true}});
    auto first = sync_refusing(t.b, "Ann2", 420);  // device full
    EXPECT_EQ(count_of(first, "Replace"), 2u);
    EXPECT_FALSE(t.luid_on_b("Bob2").empty());
    t.b.sync(200, {});
    EXPECT_EQ(t.b.sent("Replace"), 1u) << "the refused Replace goes out again, the accepted one does not";
    ASSERT_FALSE(t.luid_on_b("Ann2").empty());
    t.b.sync(200, {});
    EXPECT_EQ(t.b.sent("Replace"), 0u) << "once taken, it is not sent a third time";
}

TEST(engine_delivery, a_refused_add_and_a_cancelled_delete_are_sent_again) {
    two_phones t;
    t.seed({"Ann"});
    t.a.sync(200, {{"a-Cy", vcard("Cy")}, {"a-Ann", ""}});
    auto first = sync_refusing(t.b, "Cy", 420);
    EXPECT_EQ(count_of(first, "Add"), 1u);
    EXPECT_EQ(count_of(first, "Delete"), 1u);
    EXPECT_TRUE(t.luid_on_b("Ann").empty());
    EXPECT_TRUE(t.luid_on_b("Cy").empty()) << "the phone refused it";
    t.b.sync(200, {});
    EXPECT_EQ(t.b.sent("Add"), 1u);
    EXPECT_EQ(t.b.sent("Delete"), 0u) << "the taken Delete is not sent again";
    EXPECT_FALSE(t.luid_on_b("Cy").empty());

    // A Delete the phone cancelled (514) goes out again as well.
    t.a.sync(200, {{"a-Cy", ""}});
    auto cy = t.luid_on_b("Cy");
    sync_refusing(t.b, cy, 514);
    EXPECT_FALSE(t.luid_on_b("Cy").empty());
    t.b.sync(200, {});
    EXPECT_EQ(t.b.sent("Delete"), 1u);
    EXPECT_TRUE(t.luid_on_b("Cy").empty());
}

// A 508 that comes after the client's Sync (the session went on as two-way) makes its next sync a slow sync.
TEST(engine_delivery, a_client_508_on_our_alert_after_its_sync_makes_its_next_sync_a_slow_sync) {
    two_phones t;
    t.seed({"Ann"});
    auto alerted = t.b.send(t.b.start(200)).reply;
    const auto* ours = alert_of(alerted);
    ASSERT_TRUE(ours);
    EXPECT_EQ(ours->data, "200");
    auto m = t.b.changes({});
    auto st = client_status(alerted, ours->cmd_id, "Alert", 508);
    st.target_refs = {"./contacts"};
    st.source_refs = {"contacts"};
    m.body.commands.push_back(command{st});
    auto reply = t.b.send(m).reply;
    EXPECT_TRUE(t.b.send(t.b.apply_server_changes(reply)).session_done);
    t.b.finish();
    auto next_reply = t.b.send(t.b.start(200)).reply;
    const auto* next = alert_of(next_reply);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->data, "201");
}

// Issue 36: a phone that answers our two-way Alert with 508 (it lost its change log or mapping) sends everything in
// this session's package 3, under LUIDs of its own. Taken as a two-way sync, each of its items was a new Add: every
// contact doubled on the server and came back to the other phones twice.
TEST(engine_delivery, a_client_508_on_our_alert_makes_this_session_a_slow_sync_that_doubles_nothing) {
    two_phones t;
    t.seed({"Ann", "Ben"});
    auto alerted = t.b.send(t.b.start(200)).reply;
    const auto* ours = alert_of(alerted);
    ASSERT_TRUE(ours);
    auto m = t.b.changes({{"new-1", vcard("Ann")}, {"new-2", vcard("Ben")}}, true);
    auto st = client_status(alerted, ours->cmd_id, "Alert", 508);
    st.target_refs = {"./contacts"};
    st.source_refs = {"contacts"};
    m.body.commands.insert(m.body.commands.begin(), command{st});
    auto reply = t.b.send(m).reply;
    EXPECT_EQ(count_of(reply, "Add"), 0u) << "the phone holds both";
    EXPECT_TRUE(t.b.send(t.b.apply_server_changes(reply)).session_done);
    t.b.finish();
    EXPECT_EQ(t.store.live_items(t.store.items[0].datastore).size(), 2u) << "nothing doubled on the server";
    t.a.sync(200, {});
    EXPECT_EQ(t.a.sent("Add"), 0u) << "nothing new for the other phone";
}

// Issue 36: an error status from the phone on our Sync or Alert was ignored: the changes counted as delivered and the
// anchors moved, so what the phone refused never came again. The datastore's sync failed: nothing moves.
void refuse_our(const std::string& command_name, int code) {
    two_phones t;
    t.seed({"Ann"});
    t.a.sync(200, {{"a-Ann", vcard("Ann").insert(vcard("Ann").find("END:"), "NOTE:changed\r\n"), true}});
    auto package2 = t.b.send(t.b.start(200)).reply;
    auto package3 = t.b.changes({});
    auto refusal = [&](const message& reply, message& answer) {
        for (const auto& c : reply.body.commands) {
            std::string cmd_id;
            if (const auto* s = std::get_if<session::sync>(&c.value); s && command_name == "Sync") cmd_id = s->cmd_id;
            if (const auto* a = std::get_if<alert>(&c.value); a && command_name == "Alert") cmd_id = a->cmd_id;
            if (cmd_id.empty()) continue;
            auto st = client_status(reply, cmd_id, command_name, code);
            st.target_refs = {"./contacts"};
            st.source_refs = {"contacts"};
            answer.body.commands.insert(answer.body.commands.begin(), command{st});
        }
    };
    refusal(package2, package3);
    auto package4 = t.b.send(package3).reply;
    ASSERT_TRUE(package4.body.final);
    auto answer = t.b.blank();
    refusal(package4, answer);
    EXPECT_EQ(package3.body.commands.size() + answer.body.commands.size(), 2u) << "one refusal of our " << command_name;
    EXPECT_TRUE(t.b.send(answer).session_done);
    t.b.sync(200, {});
    EXPECT_EQ(t.b.sent("Replace"), 1u) << "Ann's change comes again after the phone refused our " << command_name;
    EXPECT_NE(t.b.items[t.luid_on_b("Ann")].find("changed"), std::string::npos);
}

TEST(engine_delivery, a_phone_that_refuses_our_sync_gets_its_changes_again) { refuse_our("Sync", 500); }
TEST(engine_delivery, a_phone_that_refuses_our_alert_gets_its_changes_again) { refuse_our("Alert", 404); }

// Phone b's slow sync receives a's item Ann as an Add; before b's Map arrives, phone a sends `change` of it.
void change_before_map(two_phones& t, const testing::change& change) {
    t.a.sync(201, {{"a-Ann", vcard("Ann")}});
    t.b.send(t.b.start(201));
    auto reply = t.b.send(t.b.changes({})).reply;
    ASSERT_EQ(count_of(reply, "Add"), 1u);
    t.a.sync(200, {change});
    EXPECT_TRUE(t.b.send(t.b.apply_server_changes(reply)).session_done);
    t.b.finish();
}

// Package 4 sent an item; before the phone's Map arrived, another phone changed it: the change still reaches it.
TEST(engine_delivery, a_change_between_our_add_and_the_clients_map_reaches_the_phone) {
    two_phones t;
    change_before_map(t, {"a-Ann", vcard("Ann2"), true});
    t.b.sync(200, {});
    EXPECT_EQ(t.b.sent("Replace"), 1u);
    EXPECT_FALSE(t.luid_on_b("Ann2").empty());
    EXPECT_EQ(t.b.items.size(), 1u);
}

// The other phone deleted the item before the Map: the phone gets the Delete, and nothing comes back.
TEST(engine_delivery, a_delete_between_our_add_and_the_clients_map_reaches_the_phone) {
    two_phones t;
    change_before_map(t, {"a-Ann", ""});
    t.b.sync(200, {});
    EXPECT_EQ(t.b.sent("Delete"), 1u);
    EXPECT_TRUE(t.b.items.empty());
    t.b.sync(201, testing::in_luid_order(t.b.items, false));
    EXPECT_TRUE(t.store.live_items(t.store.datastores.begin()->second).empty());
}

// A two-way session of phone b that deletes `name` with the Delete's flags set by `flag`; returns the Delete's
// status.
template <class Flag>
std::string delete_on_b(two_phones& t, const std::string& name, Flag flag) {
    t.b.send(t.b.start(200));
    auto m = t.b.changes({{t.luid_on_b(name), ""}});
    flag(std::get<delete_>(std::get<session::sync>(m.body.commands.at(0).value).commands.at(0).value));
    auto reply = t.b.send(m).reply;
    auto statuses = testing::statuses_of(reply, "Delete");
    EXPECT_TRUE(t.b.send(t.b.apply_server_changes(reply)).session_done);
    t.b.finish();
    return statuses.size() == 1 ? statuses[0]->data : "one Delete status expected";
}

// The phone evicted an item for lack of memory (SftDel): it stays on the server and the other phone, and does not
// come back to this phone as an Add in its next two-way sync.
TEST(engine_delivery, a_soft_delete_drops_only_that_phones_copy) {
    two_phones t;
    t.seed({"Ann", "Bob"});
    EXPECT_EQ(delete_on_b(t, "Ann", [](delete_& d) { d.sft_del = true; }), "200");
    EXPECT_EQ(t.store.live_items(t.store.datastores.begin()->second).size(), 2u);
    t.a.sync(200, {});
    EXPECT_EQ(t.a.sent("Delete"), 0u);
    EXPECT_EQ(t.a.items.size(), 2u);
    t.b.sync(200, {});
    EXPECT_EQ(t.b.sent("Add"), 0u) << "the evicted item does not come back in a two-way sync";
    EXPECT_EQ(t.b.items.size(), 1u);
}

// Archive: the user deleted the item and asks the recipient to archive it; the server deletes it everywhere and
// answers 210 (deleted without archive), as it keeps no archive.
TEST(engine_delivery, an_archive_delete_deletes_everywhere_and_answers_210) {
    two_phones t;
    t.seed({"Ann"});
    EXPECT_EQ(delete_on_b(t, "Ann", [](delete_& d) { d.archive = true; }), "210");
    t.a.sync(200, {});
    EXPECT_EQ(t.a.sent("Delete"), 1u);
    EXPECT_TRUE(t.a.items.empty());
}

}  // namespace
}  // namespace syncml::session
