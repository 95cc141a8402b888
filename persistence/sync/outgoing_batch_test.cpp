#include "persistence/sync/detail/outgoing_batch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

// Each test runs the PostgreSQL store's batched call and the per-item default (sync_store::...) on two users
// seeded alike, and compares what they return and leave, with GUIDs replaced by the item's role.
class outgoing_batch_test : public testing::migrated_database_test {
  protected:
    struct fixture {
        int64_t tenant = 0, ds = 0, phone = 0;
        std::map<std::string, item_record> items;  // role -> item
        std::map<std::string, std::string> roles;  // guid -> role
    };

    user_info user(const std::string& name) { return add_user(*db_, default_tenant, name, "pw"); }

    // a: held by the phone at its modseq (LA); b: deleted; c: unmapped; d: large, unconfirmed mapping (LD);
    // e: held by the phone (LE) and changed since.
    static fixture seed(sync_store& s, const user_info& u) {
        fixture f;
        f.tenant = u.tenant_id;
        f.ds = s.datastore(f.tenant, u.id, common::item_kind::contact);
        f.phone = s.device_store(f.tenant, s.device(f.tenant, u.id, "phone").id, f.ds, "./c").id;
        for (const auto& [role, content] : std::map<std::string, std::string>{
                 {"a", "a0"}, {"b", "b0"}, {"c", "c0"}, {"d", std::string(5000, 'd')}, {"e", "e0"}}) {
            f.items[role] = s.add_item(f.tenant, f.ds, content, {"k:" + role});
            f.roles[f.items[role].guid] = role;
        }
        s.set_mapping(f.tenant, f.phone, "LA", f.items["a"].guid, f.items["a"].modseq);
        s.set_mapping(f.tenant, f.phone, "LD", f.items["d"].guid, -1);
        s.set_mapping(f.tenant, f.phone, "LE", f.items["e"].guid, f.items["e"].modseq);
        s.set_mapping(f.tenant, f.phone, "LB", f.items["b"].guid, f.items["b"].modseq);
        s.delete_item(f.tenant, f.ds, f.items["b"].guid);
        f.items["e"] = *s.replace_item(f.tenant, f.ds, f.items["e"].guid, "e1", {"k:e"});
        return f;
    }

    static std::vector<item_ref> refs(const fixture& f, const std::vector<std::string>& roles, bool with_ids) {
        std::vector<item_ref> out;
        for (const auto& role : roles) {
            if (role == "unknown") {
                out.push_back({"no-such-guid", 0});
                continue;
            }
            const auto& it = f.items.at(role);
            out.push_back({it.guid, with_ids ? it.item_id : 0});
        }
        return out;
    }

    // role -> "content|modseq offset|deleted|content read|luid"
    static std::map<std::string, std::string> describe(const fixture& f, const std::vector<outgoing_item>& items) {
        std::map<std::string, std::string> out;
        auto base = f.items.at("a").modseq;
        for (const auto& o : items) {
            out[f.roles.at(o.item.guid)] = o.item.content + "|" + std::to_string(o.item.modseq - base) + "|" +
                                           (o.item.deleted ? "deleted" : "live") + "|" +
                                           (o.content_read ? "read" : "unread") + "|" + o.confirmed_luid.value_or("-");
        }
        return out;
    }

    // luid -> role, revision offset
    static std::map<std::string, std::pair<std::string, int64_t>> mappings(sync_store& s, const fixture& f) {
        std::map<std::string, std::pair<std::string, int64_t>> out;
        for (const auto& luid : {"LA", "LB", "LD", "LE"}) {
            if (auto m = s.mapping_of_luid(f.tenant, f.phone, luid))
                out[luid] = {f.roles.at(m->guid), m->revision - f.items.at("a").modseq};
        }
        return out;
    }
};

TEST_F(outgoing_batch_test, outgoing_items_read_what_the_per_item_calls_read) {
    std::vector<std::string> order{"c", "unknown", "b", "a", "d", "e"};
    for (bool with_ids : {true, false}) {
        auto suffix = with_ids ? "-ids" : "-guids";
        auto batched_user = user(std::string("batched") + suffix), one_by_one_user = user(std::string("one") + suffix);
        std::map<std::string, std::string> batched, one_by_one;
        ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
            auto f = seed(s, batched_user);
            // Room for c, a and d (the deleted b counts nothing), so e comes without content.
            batched = describe(f, s.outgoing_items(f.tenant, f.ds, f.phone, refs(f, order, with_ids), 100, 10));
            // The first item is always read, whatever the budget.
            auto first = describe(f, s.outgoing_items(f.tenant, f.ds, f.phone, refs(f, {"d", "a"}, with_ids), 10, 10));
            EXPECT_EQ(first.at("d").substr(0, 5), "ddddd");
            EXPECT_EQ(first.at("a"), "|0|live|unread|LA");
        }));
        ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
            auto f = seed(s, one_by_one_user);
            one_by_one =
                describe(f, s.sync_store::outgoing_items(f.tenant, f.ds, f.phone, refs(f, order, with_ids), 100, 10));
        }));
        EXPECT_EQ(batched, one_by_one) << "with ids: " << with_ids;
        EXPECT_EQ(batched.size(), 5u) << "the unknown GUID is left out";
        EXPECT_EQ(batched["c"], "c0|2|live|read|-");
        EXPECT_EQ(batched["b"], "b0|5|deleted|read|LB");
        EXPECT_EQ(batched["a"], "a0|0|live|read|LA");
        EXPECT_EQ(batched["d"], std::string(5000, 'd') + "|3|live|read|-") << "an unconfirmed mapping is no LUID";
        EXPECT_EQ(batched["e"], "|6|live|unread|LE");
    }
}

TEST_F(outgoing_batch_test, record_delivery_leaves_what_touch_and_remove_leave) {
    auto batched_user = user("batched"), one_by_one_user = user("one-by-one");
    std::map<std::string, std::pair<std::string, int64_t>> batched, one_by_one;
    auto deliver = [](sync_store& s, const fixture& f, bool batched_call) {
        std::vector<std::pair<item_ref, int64_t>> held{{refs(f, {"e"}, true)[0], f.items.at("e").modseq},
                                                       {refs(f, {"a"}, false)[0], f.items.at("a").modseq + 1},
                                                       {refs(f, {"c"}, true)[0], 99}};
        // b is deleted (its Delete reached the device), d live (it left the device's filter, or a Replace found it
        // gone from the device).
        auto removed = refs(f, {"b", "d", "unknown"}, true);
        if (batched_call) {
            s.record_delivery(f.tenant, f.ds, f.phone, held, removed);
        } else {
            s.sync_store::record_delivery(f.tenant, f.ds, f.phone, held, removed);
        }
    };
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, batched_user);
        deliver(s, f, true);
        batched = mappings(s, f);
    }));
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, one_by_one_user);
        deliver(s, f, false);
        one_by_one = mappings(s, f);
    }));
    EXPECT_EQ(batched, one_by_one);
    EXPECT_EQ(batched.count("LD"), 0u) << "the device no longer holds the live d";
    // Until its tombstone goes, the mapping of a deleted item records that the device received the Delete: a slow sync
    // of a device that lost that session (it rolled back) then knows its copy of b is stale (engine_match.hpp).
    EXPECT_EQ(batched.at("LB").second, 5) << "the delivered Delete of b is recorded at b's deletion";
    EXPECT_EQ(batched.at("LE").second, 6) << "the device holds e's current revision";
    EXPECT_EQ(batched.at("LA").second, 1);
    EXPECT_EQ(batched.size(), 3u) << "c had no mapping and gets none";
}

TEST_F(outgoing_batch_test, server_changes_are_current_modseq_last_seen_and_changes_in_one) {
    auto u = user("u");
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, u);
        auto ds = s.device_store(f.tenant, s.device(f.tenant, u.id, "phone").id, f.ds, "./c");
        ds.last_seen_modseq = f.items.at("c").modseq;
        s.save_device_store(f.tenant, ds);
        auto upto = s.current_modseq(f.tenant, f.ds);
        auto guids = [](const std::vector<change_record>& changes) {
            std::vector<std::string> out;
            for (const auto& c : changes) out.push_back(c.guid + "|" + c.luid.value_or("-"));
            return out;
        };
        for (bool from_start : {false, true}) {
            for (bool deleted : {false, true}) {
                auto start = s.server_changes(f.tenant, f.ds, f.phone, true, from_start, deleted);
                EXPECT_EQ(start.current_modseq, upto);
                EXPECT_EQ(start.last_seen_modseq, ds.last_seen_modseq);
                auto expected = s.changes(f.tenant, f.phone, from_start ? 0 : ds.last_seen_modseq, upto, deleted);
                EXPECT_EQ(guids(start.changes), guids(expected)) << from_start << deleted;
                for (const auto& c : start.changes) EXPECT_EQ(c.item_id, s.find_item(f.tenant, f.ds, c.guid)->item_id);
            }
        }
        auto all = s.server_changes(f.tenant, f.ds, f.phone, true, true, true);
        EXPECT_EQ(all.changes.size(), 4u) << "c, d, b (deleted), e (changed since the phone got it)";
        auto none = s.server_changes(f.tenant, f.ds, f.phone, false, true, true);
        EXPECT_TRUE(none.changes.empty());
        EXPECT_EQ(none.current_modseq, upto);
    }));
}

TEST_F(outgoing_batch_test, change_page_is_a_page_of_what_the_per_item_default_lists) {
    auto u = user("u");
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, u);
        auto never_held = s.add_item(f.tenant, f.ds, "f0", {});
        s.delete_item(f.tenant, f.ds, never_held.guid);
        auto upto = s.current_modseq(f.tenant, f.ds);
        auto roles = [&](const std::vector<change_record>& changes) {
            std::string out;
            for (const auto& c : changes) {
                out += (f.roles.count(c.guid) ? f.roles.at(c.guid) : "?") + c.luid.value_or("-") + " ";
                if (c.item_id != 0) {
                    EXPECT_EQ(c.item_id, s.find_item(f.tenant, f.ds, c.guid)->item_id);
                }
            }
            return out;
        };
        for (int64_t after : {int64_t{0}, f.items.at("c").modseq, f.items.at("d").modseq, upto}) {
            for (bool deleted : {false, true}) {
                for (std::size_t limit : {1, 2, 10}) {
                    auto page = s.change_page(f.tenant, f.ds, f.phone, after, upto, deleted, limit);
                    auto expected = s.sync_store::change_page(f.tenant, f.ds, f.phone, after, upto, deleted, limit);
                    EXPECT_EQ(roles(page), roles(expected)) << after << deleted << limit;
                    for (const auto& c : page) EXPECT_NE(c.item_id, 0);
                }
            }
        }
        EXPECT_EQ(roles(s.change_page(f.tenant, f.ds, f.phone, 0, upto, true, 10)), "c- d- bLB eLE ")
            << "the deleted b the phone holds, not the deleted f it never had";
        EXPECT_EQ(roles(s.change_page(f.tenant, f.ds, f.phone, f.items.at("c").modseq, upto, false, 1)), "d- ");
        EXPECT_EQ(roles(s.change_page(f.tenant, f.ds, f.phone, 0, f.items.at("d").modseq, false, 10)), "c- d- ");
    }));
}

// Issue 18: a filtered sync checks the items the device holds: a (at its modseq) and e (changed since) have confirmed
// mappings; b is deleted, c unmapped and d's mapping unconfirmed.
TEST_F(outgoing_batch_test, held_items_are_the_live_items_with_a_confirmed_mapping_in_modseq_order) {
    auto u = user("u");
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, u);
        std::string held;
        for (const auto& c : s.held_items(f.tenant, f.phone)) {
            held += f.roles.at(c.guid) + c.luid.value_or("-") + " ";
            EXPECT_EQ(c.modseq, f.items.at(f.roles.at(c.guid)).modseq);
            EXPECT_EQ(c.item_id, f.items.at(f.roles.at(c.guid)).item_id);
            EXPECT_FALSE(c.deleted);
        }
        EXPECT_EQ(held, "aLA eLE ");
    }));
}

TEST_F(outgoing_batch_test, delete_unheld_items_deletes_what_the_per_item_calls_delete) {
    auto batched_user = user("batched"), one_by_one_user = user("one-by-one");
    struct outcome {
        int64_t count = 0, modseq = 0;
        std::map<std::string, std::string> items;  // role -> deleted, modseq offset
        std::map<std::string, std::pair<std::string, int64_t>> mappings;
        bool operator==(const outcome&) const = default;
    };
    // `before_e`: only up to the modseq before e's change (a refresh that began before it, issue 36).
    auto run = [&](const user_info& u, bool batched, bool before_e = false) {
        outcome o;
        EXPECT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
            auto f = seed(s, u);
            const auto upto = before_e ? f.items.at("e").modseq - 1 : s.current_modseq(f.tenant, f.ds);
            o.count = batched ? s.delete_unheld_items(f.tenant, f.ds, f.phone, upto)
                              : s.sync_store::delete_unheld_items(f.tenant, f.ds, f.phone, upto);
            auto base = f.items.at("a").modseq;
            o.modseq = s.current_modseq(f.tenant, f.ds) - base;
            for (const auto& [role, it] : f.items) {
                auto found = s.find_item(f.tenant, f.ds, it.guid);
                o.items[role] = (found->deleted ? "deleted " : "live ") + std::to_string(found->modseq - base);
            }
            o.mappings = mappings(s, f);
            EXPECT_TRUE(s.twin_candidates(f.tenant, f.ds, f.phone, {"k:c", "k:d"}).empty()) << "keys dropped";
        }));
        return o;
    };
    auto batched = run(batched_user, true), one_by_one = run(one_by_one_user, false);
    EXPECT_EQ(batched, one_by_one);
    EXPECT_EQ(batched.count, 3) << "c, d and e (changed since the phone held it)";
    EXPECT_EQ(batched.items.at("a"), "live 0");
    EXPECT_EQ(batched.items.at("c"), "deleted 7");
    EXPECT_EQ(batched.items.at("d"), "deleted 8");
    EXPECT_EQ(batched.items.at("e"), "deleted 9");
    EXPECT_EQ(batched.modseq, 9);
    EXPECT_EQ(batched.mappings.size(), 2u) << "a's mapping stays, and b's (deleted before)";
    EXPECT_EQ(batched.mappings.count("LA"), 1u);

    auto bounded = run(user("bounded-batched"), true, true);
    EXPECT_EQ(bounded, run(user("bounded-one-by-one"), false, true));
    EXPECT_EQ(bounded.count, 2) << "c and d: e changed after the bound";
    EXPECT_EQ(bounded.items.at("e").substr(0, 4), "live");
}

}  // namespace
}  // namespace syncml::persistence
