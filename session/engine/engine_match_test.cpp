#include "session/engine/engine_match.hpp"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <map>

#include "session/codec/codec.hpp"
#include "session/engine/device_caps.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/engine/fake_sync_store.hpp"
#include "session/engine/test_phone.hpp"

// Issue 7 through the whole engine: slow-sync twins, CTCap-aware merge and conflict policies.

namespace syncml::session {
namespace {

using store_t = testing::fake_sync_store;
using testing::change;
using testing::phone;

std::string vcard30(const std::string& given, const std::string& family, const std::string& extra) {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nN:" + family + ";" + given + ";;;\r\nFN:" + given + " " + family + "\r\n" +
           extra + "END:VCARD\r\n";
}

std::vector<const store_t::stored_item*> live(const store_t& store) {
    return store.items.empty() ? std::vector<const store_t::stored_item*>{}
                               : store.live_items(store.items[0].datastore);
}

const store_t::stored_item* live_with(const store_t& store, const std::string& text) {
    for (const auto* it : live(store)) {
        if (it->content.find(text) != std::string::npos) return it;
    }
    return nullptr;
}

// A 1.2 DevInf whose contacts CTCap lists only these properties.
dev_inf devinf_storing(const std::string& ct_type, const std::string& version) {
    return testing::devinf_storing(ct_type, version, {"BEGIN", "END", "VERSION", "N", "FN", "TEL", "EMAIL"});
}

TEST(engine_match, repeated_slow_syncs_pair_every_item_with_one_lookup_per_message) {
    store_t store;
    phone a(store, "phone-a", "text/vcard");
    std::vector<change> all;
    for (int i = 0; i < 50; ++i) {
        all.push_back({std::to_string(i), vcard30("Given" + std::to_string(i), "Family",
                                                  "TEL:+49 30 5550" + std::to_string(100 + i) + "\r\n")});
    }
    a.sync(201, all);
    ASSERT_EQ(live(store).size(), 50u);
    for (int round = 0; round < 3; ++round) {
        // Engines rewrite REV on every sync: the resend is not byte-identical.
        auto resend = all;
        for (auto& c : resend) c.data.insert(c.data.find("END:VCARD"), "REV:2024010" + std::to_string(round) + "\r\n");
        int queries = store.candidate_queries;
        auto codes = a.sync(201, resend);
        EXPECT_EQ(store.candidate_queries - queries, 1) << "one candidate lookup for the whole message";
        EXPECT_EQ(live(store).size(), 50u) << "round " << round;
        EXPECT_EQ(a.sent("Add"), 0u) << "nothing comes back as new";
        EXPECT_EQ(std::count(codes.begin(), codes.end(), "200"), 50);
    }
}

// The Status codes of the phone's item commands in a reply.
std::vector<std::string> item_codes(const message& reply) {
    std::vector<std::string> codes;
    for (const auto& c : reply.body.commands) {
        auto* s = std::get_if<status>(&c.value);
        if (s && (s->cmd == "Add" || s->cmd == "Replace")) codes.push_back(s->data);
    }
    return codes;
}

// Package 3 of a slow sync in two messages; `between` runs after the first.
template <class Fn>
std::vector<std::string> slow_sync_in_two_messages(phone& p, const std::vector<change>& first,
                                                   const std::vector<change>& second, Fn between) {
    p.send(p.start(201));
    auto m1 = p.changes_message(first);
    m1.body.final = false;
    auto codes = item_codes(p.send(m1).reply);
    between();
    auto last = p.send(p.changes_message(second)).reply;
    for (auto& code : item_codes(last)) codes.push_back(code);
    return codes;
}

TEST(engine_match, a_slow_sync_into_an_empty_datastore_looks_up_no_twins) {
    store_t store;
    phone a(store, "phone-a", "text/vcard");
    auto codes =
        slow_sync_in_two_messages(a, {{"1", vcard30("Anna", "Schmidt", "")}},
                                  {{"2", vcard30("Bernd", "Meier", "")}, {"3", vcard30("Anna", "Schmidt", "")}}, [] {});
    EXPECT_EQ(codes, (std::vector<std::string>{"201", "201", "201"})) << "its own items are no twins of each other";
    EXPECT_EQ(store.candidate_queries, 0);
    EXPECT_EQ(live(store).size(), 3u);
}

TEST(engine_match, an_item_another_device_stores_during_a_slow_sync_into_an_empty_datastore_is_found_as_twin) {
    store_t store;
    phone a(store, "phone-a", "text/vcard");
    phone b(store, "phone-b", "text/vcard");
    auto codes = slow_sync_in_two_messages(a, {{"1", vcard30("Anna", "Schmidt", "")}},
                                           {{"2", vcard30("Bernd", "Meier", "TEL:+49 30 9876543\r\n")}}, [&] {
                                               b.sync(201, {{"b1", vcard30("Bernd", "Meier", "")}});
                                           });
    EXPECT_EQ(codes, (std::vector<std::string>{"201", "200"}));
    EXPECT_EQ(store.candidate_queries, 2) << "B's slow sync and A's second message";
    EXPECT_EQ(live(store).size(), 2u) << "Bernd once";
}

TEST(engine_match, a_twin_in_another_format_and_name_order_pairs_and_gets_the_union_of_fields) {
    store_t store;
    phone a(store, "phone-a", "text/vcard");
    a.sync(201, {{"1", vcard30("Anna", "Schmidt", "TEL;TYPE=CELL:+49 171 2345678\r\nEMAIL:anna@example.org\r\n")},
                 {"2", vcard30("Bernd", "Meier", "TEL:+49 30 9876543\r\n")}});
    phone b(store, "phone-b", "text/x-vcard");
    b.devinf = devinf_storing("text/x-vcard", "2.1");  // it can store the email it lacks: it gets it
    auto codes = b.sync(201, {{"b1",
                               "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Schmidt;Anna\r\nFN:Schmidt, Anna\r\nTEL;CELL:0171 "
                               "2345678\r\nTEL;HOME:030 1112223\r\nEND:VCARD\r\n"},
                              {"b2", "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Neu;Nora\r\nTEL:0301234567\r\nEND:VCARD\r\n"}});
    EXPECT_EQ(codes, (std::vector<std::string>{"200", "201"}));
    ASSERT_EQ(live(store).size(), 3u) << "Anna once, Bernd, Nora";
    const auto* anna = live_with(store, "Schmidt");
    ASSERT_TRUE(anna);
    EXPECT_NE(anna->content.find("anna@example.org"), std::string::npos) << anna->content;
    EXPECT_NE(anna->content.find("1112223"), std::string::npos) << "the home number B added" << anna->content;
    EXPECT_EQ(b.items.size(), 3u) << "B gets Bernd, and its Anna back with the email";
    EXPECT_EQ(b.sent("Add"), 1u);
    EXPECT_EQ(b.sent("Replace"), 1u);
}

TEST(engine_match, fields_missing_from_the_devices_ctcap_survive_a_slow_sync_and_a_replace) {
    store_t store;
    phone a(store, "phone-a", "text/vcard");
    a.sync(201, {{"1", vcard30("Carl", "Rich",
                               "TEL:+49 89 1234567\r\nNOTE:met at the fair\r\nBDAY:1980-02-03\r\n"
                               "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRg==\r\n")}});
    phone b(store, "phone-b", "text/x-vcard");
    b.devinf = devinf_storing("text/x-vcard", "2.1");
    b.sync(201, {{"b1", "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Rich;Carl\r\nTEL:089 1234567\r\nEND:VCARD\r\n"}});
    ASSERT_EQ(live(store).size(), 1u);
    auto content = live(store)[0]->content;
    for (const char* kept : {"NOTE:met at the fair", "BDAY", "PHOTO"}) {
        EXPECT_NE(content.find(kept), std::string::npos) << kept << " kept after the slow sync:\n" << content;
    }
    auto codes =
        b.sync(200, {{"b1", "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Rich;Carl\r\nTEL:089 7654321\r\nEND:VCARD\r\n", true}});
    EXPECT_EQ(codes, std::vector<std::string>{"200"});
    content = live(store)[0]->content;
    EXPECT_NE(content.find("7654321"), std::string::npos) << content;
    EXPECT_EQ(content.find("1234567"), std::string::npos) << "the device stores TEL: its change replaces it";
    for (const char* kept : {"NOTE:met at the fair", "BDAY", "PHOTO"}) {
        EXPECT_NE(content.find(kept), std::string::npos) << kept << " kept after the Replace:\n" << content;
    }
}

// A and B hold Dora; A changes her email, then B changes her phone before syncing again.
struct conflict_setup {
    store_t store;
    phone a{store, "phone-a", "text/vcard"};
    phone b{store, "phone-b", "text/vcard"};
    std::string b_luid;

    explicit conflict_setup(const std::string& policy) {
        store.policy = policy;
        b.devinf = devinf_storing("text/vcard", "3.0");
        a.sync(201, {{"1", vcard30("Dora", "Doe", "TEL:+49 40 1111111\r\nEMAIL:dora@old.example\r\n")}});
        b.sync(201, {});
        b_luid = b.items.begin()->first;
        a.sync(
            200,
            {{"1", vcard30("Dora", "Doe", "TEL:+49 40 1111111\r\nEMAIL:dora@new.example\r\nREV:20200101T000000Z\r\n"),
              true}});
    }
    std::vector<std::string> b_changes_phone() {
        return b.sync(
            200, {{b_luid,
                   vcard30("Dora", "Doe", "TEL:+49 40 2222222\r\nEMAIL:dora@old.example\r\nREV:20990101T000000Z\r\n"),
                   true}});
    }
};

double conflicts(prometheus::Registry& registry, const std::string& policy, const std::string& resolution) {
    for (const auto& family : registry.Collect()) {
        if (family.name != "syncml_conflicts_total") continue;
        for (const auto& metric : family.metric) {
            std::map<std::string, std::string> labels;
            for (const auto& l : metric.label) labels[l.name] = l.value;
            if (labels["policy"] == policy && labels["resolution"] == resolution) return metric.counter.value;
        }
    }
    return -1;
}

TEST(engine_match, conflict_merge_keeps_both_changes_answers_207_and_sends_the_merge_back) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    conflict_setup t("merge");
    t.b.limits.metrics = &metrics;
    EXPECT_EQ(t.b_changes_phone(), std::vector<std::string>{"207"});
    ASSERT_EQ(live(t.store).size(), 1u);
    auto content = live(t.store)[0]->content;
    EXPECT_NE(content.find("2222222"), std::string::npos) << content;
    EXPECT_NE(content.find("dora@new.example"), std::string::npos) << content;
    EXPECT_EQ(t.b.sent("Replace"), 1u) << "B gets the merged copy";
    EXPECT_NE(t.b.items[t.b_luid].find("dora@new.example"), std::string::npos);
    EXPECT_EQ(conflicts(registry, "merge", "merged"), 1);
    EXPECT_TRUE(t.a.sync(200, {}).empty());
    EXPECT_EQ(t.a.sent("Replace"), 1u) << "A gets B's phone";
}

TEST(engine_match, conflict_server_wins_keeps_the_server_copy_answers_419_and_resends_it) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    conflict_setup t("server_wins");
    t.b.limits.metrics = &metrics;
    EXPECT_EQ(t.b_changes_phone(), std::vector<std::string>{"419"});
    auto content = live(t.store)[0]->content;
    EXPECT_NE(content.find("1111111"), std::string::npos) << content;
    EXPECT_EQ(content.find("2222222"), std::string::npos) << content;
    EXPECT_EQ(t.b.sent("Replace"), 1u);
    EXPECT_NE(t.b.items[t.b_luid].find("dora@new.example"), std::string::npos);
    EXPECT_EQ(conflicts(registry, "server_wins", "server_won"), 1);
}

TEST(engine_match, conflict_client_wins_takes_the_device_copy_and_answers_208) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    conflict_setup t("client_wins");
    t.b.limits.metrics = &metrics;
    EXPECT_EQ(t.b_changes_phone(), std::vector<std::string>{"208"});
    auto content = live(t.store)[0]->content;
    EXPECT_NE(content.find("2222222"), std::string::npos) << content;
    EXPECT_NE(content.find("dora@old.example"), std::string::npos) << content;
    EXPECT_EQ(t.b.sent("Replace") + t.b.sent("Add"), 0u);
    EXPECT_EQ(conflicts(registry, "client_wins", "client_won"), 1);
}

TEST(engine_match, conflict_newest_wins_follows_rev_and_duplicate_keeps_both_with_209) {
    {
        conflict_setup t("newest_wins");
        EXPECT_EQ(t.b_changes_phone(), std::vector<std::string>{"208"}) << "B's REV is newer";
        EXPECT_NE(live(t.store)[0]->content.find("2222222"), std::string::npos);
    }
    conflict_setup t("duplicate");
    EXPECT_EQ(t.b_changes_phone(), std::vector<std::string>{"209"});
    ASSERT_EQ(live(t.store).size(), 2u);
    EXPECT_TRUE(live_with(t.store, "2222222"));
    EXPECT_TRUE(live_with(t.store, "dora@new.example"));
    EXPECT_EQ(t.b.sent("Add"), 1u) << "B gets the server's copy as a new item";
    EXPECT_EQ(t.b.items.size(), 2u);
}

TEST(engine_match, deleting_an_item_the_server_changed_keeps_it_and_answers_419_under_merge) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    conflict_setup t("merge");
    t.b.limits.metrics = &metrics;
    EXPECT_EQ(t.b.sync(200, {{t.b_luid, ""}}), std::vector<std::string>{"419"});
    ASSERT_EQ(live(t.store).size(), 1u);
    EXPECT_EQ(t.b.sent("Add"), 1u) << "B gets the changed item back";
    EXPECT_EQ(conflicts(registry, "merge", "server_won"), 1);

    conflict_setup c("client_wins");
    EXPECT_EQ(c.b.sync(200, {{c.b_luid, ""}}), std::vector<std::string>{"208"});
    EXPECT_TRUE(live(c.store).empty());
}

TEST(engine_match, changes_without_conflict_are_not_counted) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    conflict_setup t("merge");
    t.b.limits.metrics = &metrics;
    EXPECT_TRUE(t.b.sync(200, {}).empty());
    auto codes = t.b.sync(200, {{t.b_luid, vcard30("Dora", "Doe", "TEL:+49 40 3333333\r\n"), true}});
    EXPECT_EQ(codes, std::vector<std::string>{"200"});
    EXPECT_EQ(conflicts(registry, "merge", "merged"), 0);
}

TEST(device_caps, reads_flat_and_nested_ctcap_with_bare_type_parameters) {
    dev_inf info;
    ct_cap flat;
    flat.ct_type = "text/x-vCard";
    ct_property tel;
    tel.prop_name = "TEL";
    tel.params.push_back(prop_param{"HOME", std::nullopt, {}, std::nullopt});
    tel.params.push_back(prop_param{"TYPE", std::nullopt, {"cell", "work"}, std::nullopt});
    ct_property note;
    note.prop_name = "note";
    note.max_size = 255;
    flat.properties = {tel, note};
    info.ct_caps.push_back(flat);
    datastore ds;
    ct_cap nested;
    nested.ct_type = "text/calendar";
    ct_property summary;
    summary.prop_name = "SUMMARY";
    nested.properties = {summary};
    ds.ct_caps.push_back(nested);
    info.datastores.push_back(ds);

    auto caps = capabilities_of(info);
    const auto& vcard = caps.for_content_type("text/x-vcard; charset=utf-8");
    EXPECT_TRUE(vcard.known);
    EXPECT_TRUE(vcard.can_store("NOTE"));
    EXPECT_FALSE(vcard.can_store("PHOTO"));
    ASSERT_TRUE(vcard.find("TEL"));
    EXPECT_TRUE(vcard.find("TEL")->supports_param_value("TYPE", "home"));
    EXPECT_TRUE(vcard.find("TEL")->supports_param_value("TYPE", "CELL"));
    EXPECT_FALSE(vcard.find("TEL")->supports_param_value("TYPE", "FAX"));
    EXPECT_EQ(vcard.find("NOTE")->max_size, 255u);
    EXPECT_TRUE(caps.for_content_type("text/calendar").can_store("SUMMARY"));
    EXPECT_FALSE(caps.for_content_type("text/calendar").can_store("LOCATION"));
    EXPECT_FALSE(caps.for_content_type("text/plain").known);
    EXPECT_EQ(capabilities_of_stored(encode_devinf_xml(info)).by_content_type.size(), 2u) << "from the stored XML";
    EXPECT_TRUE(capabilities_of_stored("").by_content_type.empty());
}

}  // namespace
}  // namespace syncml::session
