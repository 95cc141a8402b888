#include "persistence/sync/detail/item_batch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/migrations.hpp"
#include "persistence/pg/test_support.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

// What a datastore looks like from outside, with GUIDs replaced by the role of their item ("a", "b",
// "new1", ...) and modseqs counted from the batch's start, so that two datastores can be compared.
struct observed {
    std::vector<std::pair<std::string, int64_t>> results;             // per write: role, modseq offset
    std::map<std::string, std::pair<std::string, int64_t>> mappings;  // luid -> role, revision offset
    std::map<std::string, std::string> contents;                      // role -> content
    std::map<std::string, std::set<std::string>> keys;                // role -> keys
    int64_t modseq = 0;
    bool operator==(const observed&) const = default;
};

class item_batch_test : public testing::migrated_database_test {
  protected:
    struct fixture {
        int64_t tenant = 0, ds = 0, phone = 0, other = 0, base = 0;
        item_record a, b;
    };

    user_info user(const std::string& name) { return add_user(*db_, default_tenant, name, "pw"); }

    // The user's items a and b, mapped by the phone as LA and LB.
    static fixture seed(sync_store& s, const user_info& u) {
        fixture f;
        f.tenant = u.tenant_id;
        f.ds = s.datastore(f.tenant, u.id, common::item_kind::contact);
        f.phone = s.device_store(f.tenant, s.device(f.tenant, u.id, "phone").id, f.ds, "./c").id;
        f.other = s.device_store(f.tenant, s.device(f.tenant, u.id, "other").id, f.ds, "./c").id;
        f.a = s.add_item(f.tenant, f.ds, "a0", {"k:a", "k:shared"});
        f.b = s.add_item(f.tenant, f.ds, "b0", {"k:b", "k:shared"});
        s.set_mapping(f.tenant, f.phone, "LA", f.a.guid, f.a.modseq);
        s.set_mapping(f.tenant, f.phone, "LB", f.b.guid, f.b.modseq);
        f.base = s.current_modseq(f.tenant, f.ds);
        return f;
    }

    // Adds, replaces of one item twice, a mapping moved to another LUID, a LUID reused for a new item,
    // duplicate keys, a send-back revision, and writes with and without the item's id.
    static std::vector<item_write> writes(const fixture& f) {
        return {
            {{}, "n1", {"k:n1", "k:n1", "k:shared"}, "LN", 0, false, 0},
            {f.a.guid, "a1", {"k:a1"}, "LA", f.a.modseq, true, f.a.item_id},
            {f.b.guid, std::nullopt, {}, "LX", f.b.modseq, false, 0},
            {{}, "n2", {"k:n2"}, "LB", 0, false, 0},
            {f.a.guid, "a2", {"k:a2", "k:shared"}, "LA2", f.a.modseq, false, 0},
            {{}, "n3", {"k:n3"}, {}, 0, false, 0},
        };
    }

    static observed observe(sync_store& s, const fixture& f, const std::vector<written_item>& done) {
        observed o;
        std::map<std::string, std::string> role{{f.a.guid, "a"}, {f.b.guid, "b"}};
        for (std::size_t i = 0; i < done.size(); ++i) {
            if (!role.count(done[i].guid)) role[done[i].guid] = "new" + std::to_string(i);
            o.results.emplace_back(role[done[i].guid], done[i].modseq - f.base);
        }
        for (const auto& luid : {"LA", "LB", "LX", "LN", "LA2"}) {
            if (auto m = s.mapping_of_luid(f.tenant, f.phone, luid))
                o.mappings[luid] = {role.at(m->guid), m->revision - f.base};
        }
        for (const auto& [guid, name] : role) o.contents[name] = s.find_item(f.tenant, f.ds, guid)->content;
        std::vector<std::string> all{"k:a", "k:b", "k:shared", "k:n1", "k:n2", "k:n3", "k:a1", "k:a2"};
        for (const auto& c : s.twin_candidates(f.tenant, f.ds, f.other, all))
            o.keys[role.at(c.guid)] = std::set<std::string>(c.keys.begin(), c.keys.end());
        o.modseq = s.current_modseq(f.tenant, f.ds) - f.base;
        return o;
    }
};

TEST_F(item_batch_test, a_batch_leaves_what_the_per_item_calls_leave) {
    observed batched, one_by_one;
    auto batched_user = user("batched"), one_by_one_user = user("one-by-one");
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, batched_user);
        batched = observe(s, f, s.write_items(f.tenant, f.ds, f.phone, writes(f)));
    }));
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, one_by_one_user);
        one_by_one = observe(s, f, s.sync_store::write_items(f.tenant, f.ds, f.phone, writes(f)));
    }));
    EXPECT_EQ(batched.results, one_by_one.results);
    EXPECT_EQ(batched.mappings, one_by_one.mappings);
    EXPECT_EQ(batched.contents, one_by_one.contents);
    EXPECT_EQ(batched.keys, one_by_one.keys);
    EXPECT_EQ(batched.modseq, one_by_one.modseq);
    // The outcome itself, so that a shared mistake cannot hide.
    EXPECT_EQ(batched.contents.at("a"), "a2");
    EXPECT_EQ(batched.mappings.count("LA"), 0u) << "a moved to LA2";
    EXPECT_EQ(batched.mappings.at("LX").first, "b");
    EXPECT_EQ(batched.mappings.at("LB").first, "new3");
    EXPECT_EQ(batched.mappings.at("LA2"), (std::pair<std::string, int64_t>{"a", batched.results[4].second}));
    EXPECT_EQ(batched.keys.at("a"), (std::set<std::string>{"k:a2", "k:shared"}));
    EXPECT_EQ(batched.keys.at("new0"), (std::set<std::string>{"k:n1", "k:shared"}));
    EXPECT_EQ(batched.keys.count("new5"), 1u) << "an add without a LUID is stored, unmapped";
}

// A client's Map: each item at its current modseq; a deleted or unknown item changes nothing, not even the
// mapping its LUID had.
TEST_F(item_batch_test, a_map_at_the_current_modseq_skips_deleted_and_unknown_items) {
    auto batched_user = user("batched"), one_by_one_user = user("one-by-one");
    auto run = [&](const user_info& u, bool batched) {
        observed o;
        EXPECT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
            auto f = seed(s, u);
            auto replaced = s.replace_item(f.tenant, f.ds, f.a.guid, "a1", {"k:a1"});
            s.delete_item(f.tenant, f.ds, f.b.guid);
            item_write a{f.a.guid, std::nullopt, {}, "MA", 0, false, 0, true};
            item_write b{f.b.guid, std::nullopt, {}, "LA", 0, false, 0, true};
            item_write unknown{"no-such-guid", std::nullopt, {}, "LB", 0, false, 0, true};
            std::vector<item_write> writes{a, b, unknown};
            auto done = batched ? s.write_items(f.tenant, f.ds, f.phone, writes)
                                : s.sync_store::write_items(f.tenant, f.ds, f.phone, writes);
            o = observe(s, f, {done.at(0)});
            EXPECT_EQ(s.mapping_of_luid(f.tenant, f.phone, "MA")->revision, replaced->modseq);
            EXPECT_TRUE(s.mapping_of_luid(f.tenant, f.phone, "LB")) << "the LUID keeps its mapping";
            s.unconfirm_mappings(f.tenant, f.phone);
            auto held = s.twin_candidates(f.tenant, f.ds, f.phone, {"k:a1"});
            EXPECT_EQ(held.size(), 1u);
            for (const auto& c : held) {
                EXPECT_TRUE(c.mapped);
                EXPECT_EQ(c.sent_by_device, -1) << "a Map maps an item the phone received, not one it sent";
            }
        }));
        return o;
    };
    auto batched = run(batched_user, true);
    auto one_by_one = run(one_by_one_user, false);
    EXPECT_EQ(batched.mappings, one_by_one.mappings);
    EXPECT_EQ(batched.results, one_by_one.results);
    EXPECT_EQ(batched.mappings.count("LA"), 0u) << "a moved from LA to MA";
}

// A client's Map of items package 4 sent before they changed or were deleted: mapped at no more than the
// package's end (at_most), so that the change and the Delete still go to the phone; only an unknown item is not
// mapped. The batch and the per-item calls (the in-memory store's) agree.
TEST_F(item_batch_test, a_map_at_most_the_sent_modseq_keeps_later_changes_and_deletes_pending) {
    auto batched_user = user("batched"), one_by_one_user = user("one-by-one");
    auto run = [&](const user_info& u, bool batched) {
        std::map<std::string, std::pair<bool, std::string>> pending;  // luid -> deleted, guid
        EXPECT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
            auto f = seed(s, u);
            auto sent_upto = f.base;  // package 4 sent a and b as they were
            s.replace_item(f.tenant, f.ds, f.a.guid, "a1", {"k:a1"});
            s.delete_item(f.tenant, f.ds, f.b.guid);
            item_write a{f.a.guid, std::nullopt, {}, "MA", 0, false, 0, true, sent_upto};
            item_write b{f.b.guid, std::nullopt, {}, "MB", 0, false, 0, true, sent_upto};
            item_write unknown{"no-such-guid", std::nullopt, {}, "MX", 0, false, 0, true, sent_upto};
            std::vector<item_write> writes{a, b, unknown};
            if (batched) {
                s.write_items(f.tenant, f.ds, f.phone, writes);
            } else {
                s.sync_store::write_items(f.tenant, f.ds, f.phone, writes);
            }
            EXPECT_EQ(s.mapping_of_luid(f.tenant, f.phone, "MA")->revision, sent_upto);
            EXPECT_EQ(s.mapping_of_luid(f.tenant, f.phone, "MB")->revision, sent_upto);
            EXPECT_FALSE(s.mapping_of_luid(f.tenant, f.phone, "MX"));
            auto upto = s.current_modseq(f.tenant, f.ds);
            for (const auto& c : s.change_page(f.tenant, f.ds, f.phone, sent_upto, upto, true, 10))
                pending[c.luid.value_or("")] = {c.deleted, c.guid == f.a.guid ? "a" : "b"};
        }));
        return pending;
    };
    auto batched = run(batched_user, true);
    auto one_by_one = run(one_by_one_user, false);
    EXPECT_EQ(batched, one_by_one);
    EXPECT_EQ(batched, (std::map<std::string, std::pair<bool, std::string>>{{"MA", {false, "a"}}, {"MB", {true, "b"}}}))
        << "the change of a goes out as a Replace, the delete of b as a Delete";
}

TEST_F(item_batch_test, a_send_back_mapping_is_one_below_the_written_modseq) {
    auto u = user("u");
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, u);
        auto done = s.write_items(f.tenant, f.ds, f.phone,
                                  {{f.a.guid, "a1", {"k:a1"}, "LA", f.a.modseq, true, f.a.item_id},
                                   {f.b.guid, std::nullopt, {}, "LB", f.b.modseq, true, f.b.item_id}});
        ASSERT_EQ(done.size(), 2u);
        EXPECT_EQ(done[0].modseq, f.base + 1);
        EXPECT_EQ(s.mapping_of_luid(f.tenant, f.phone, "LA")->revision, f.base);
        EXPECT_EQ(done[1].modseq, f.b.modseq);
        EXPECT_EQ(s.mapping_of_luid(f.tenant, f.phone, "LB")->revision, f.b.modseq - 1);
        auto changes = s.changes(f.tenant, f.phone, 0, s.current_modseq(f.tenant, f.ds), false);
        EXPECT_EQ(changes.size(), 2u) << "both go back to the phone in package 4";
    }));
}

TEST_F(item_batch_test, a_replace_of_a_deleted_item_keeps_it_deleted) {
    auto u = user("u");
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, u);
        auto gone = s.delete_item(f.tenant, f.ds, f.b.guid);
        auto done = s.write_items(f.tenant, f.ds, f.phone, {{f.b.guid, "b1", {"k:b1"}, {}, f.b.modseq, false, 0}});
        EXPECT_EQ(done.at(0).modseq, f.b.modseq);
        auto found = s.find_item(f.tenant, f.ds, f.b.guid);
        EXPECT_TRUE(found->deleted);
        EXPECT_EQ(found->modseq, gone->modseq);
        EXPECT_TRUE(s.twin_candidates(f.tenant, f.ds, f.other, {"k:b1"}).empty());
    }));
}

TEST_F(item_batch_test, text_survives_the_array_parameters) {
    std::string odd = "BEGIN:VCARD\r\nNOTE:a \"quoted\" \\back, {brace} Grüße 日本\r\n\tfolded NULL\r\nEND:VCARD\r\n";
    auto u = user("u");
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) {
        auto f = seed(s, u);
        auto done =
            s.write_items(f.tenant, f.ds, f.phone, {{{}, odd, {"name:\"x\" {y}", "NULL"}, "L,\"1\"", 0, false, 0}});
        EXPECT_EQ(s.find_item(f.tenant, f.ds, done.at(0).guid)->content, odd);
        EXPECT_EQ(s.find_item(f.tenant, f.ds, done.at(0).guid)->item_id > 0, true);
        EXPECT_EQ(s.mapping_of_luid(f.tenant, f.phone, "L,\"1\"")->guid, done[0].guid);
        EXPECT_EQ(s.twin_candidates(f.tenant, f.ds, f.other, {"NULL"}).size(), 1u);
        EXPECT_EQ(content_type_of(odd), "text/vcard");
        // Several multi-byte contents in one batch, added and replaced: each comes back whole.
        auto two = s.write_items(f.tenant, f.ds, f.phone,
                                 {{{}, "é1 日本", {"k:e1"}, "E1", 0, false, 0},
                                  {{}, "ö2 Grüße", {"k:e2"}, "E2", 0, false, 0},
                                  {f.a.guid, "ä3 ÄÖÜ", {"k:e3"}, "LA", f.a.modseq, false, f.a.item_id}});
        EXPECT_EQ(s.find_item(f.tenant, f.ds, two.at(0).guid)->content, "é1 日本");
        EXPECT_EQ(s.find_item(f.tenant, f.ds, two.at(1).guid)->content, "ö2 Grüße");
        EXPECT_EQ(s.find_item(f.tenant, f.ds, f.a.guid)->content, "ä3 ÄÖÜ");
    }));
}

// Keys carry no foreign key (migration 0007): deleting the user's datastores must still take them along.
TEST_F(item_batch_test, deleting_a_user_deletes_its_match_keys) {
    auto gone = user("gone"), kept = user("kept");
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) { seed(s, gone); }));
    ASSERT_TRUE(run_sync_transaction(*db_, [&](sync_store& s) { seed(s, kept); }));
    auto keys_of = [&](const user_info& u) {
        return in_transaction(*db_, [&](pqxx::work& tx) {
            return tx
                .exec_params1(
                    "SELECT count(*) FROM item_match_keys k JOIN datastores d ON d.tenant_id = "
                    "k.tenant_id AND d.datastore_id = k.datastore_id WHERE d.user_id = $1",
                    u.id)[0]
                .as<int64_t>();
        });
    };
    EXPECT_EQ(keys_of(gone), 4);
    delete_user(*db_, default_tenant, "gone");
    auto orphans = in_transaction(*db_, [&](pqxx::work& tx) {
        return tx
            .exec1(
                "SELECT count(*) FROM item_match_keys k WHERE NOT EXISTS (SELECT 1 FROM items i WHERE "
                "i.tenant_id = k.tenant_id AND i.item_id = k.item_id)")[0]
            .as<int64_t>();
    });
    EXPECT_EQ(orphans, 0);
    EXPECT_EQ(keys_of(kept), 4);
}

}  // namespace
}  // namespace syncml::persistence
