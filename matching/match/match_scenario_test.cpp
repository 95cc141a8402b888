// The slow-sync scenarios on the library level: a second phone's address book written differently pairs
// one-to-one with the server's, adds its own people, and a repeated slow sync changes nothing.
#include <gtest/gtest.h>

#include <set>

#include "matching/match/match_index.hpp"
#include "matching/match/match_score.hpp"
#include "matching/merge/merge_items.hpp"

namespace syncml::matching {
namespace {

const std::vector<std::string> k_given = {"Anna", "J\xC3\xBCrgen", "Marie", "Peter", "Zo\xC3\xAB", "John"};
const std::vector<std::string> k_family = {"M\xC3\xBCller", "Schmidt", "Smith", "Nguyen",
                                           "Garc\xC3\xAD"
                                           "a"};

std::string seven_digits(std::size_t n) {
    std::string s = std::to_string(1000000 + n % 9000000);
    return s.substr(s.size() - 7);
}

// Person i of phone A. Families of four share a home number and a family name; given names repeat, so
// "Anna Müller" exists several times with different numbers.
contact phone_a_person(std::size_t i) {
    contact c;
    std::size_t family = i / 4;
    c.name = structured_name{k_family[family % k_family.size()], k_given[i % k_given.size()], "", "", ""};
    c.formatted_name = c.name->given + " " + c.name->family;
    c.phones.push_back({{"CELL"}, false, "+49 171 " + seven_digits(i * 13 + 1), {}, {}});
    c.phones.push_back({{"HOME"}, false, "+49 30 " + seven_digits(family * 7 + 2), {}, {}});
    c.emails.push_back({{"INTERNET"}, false, "p" + std::to_string(i) + "@example.org", {}, {}});
    return c;
}

// The same person as phone B stores them: "Family, Given", national numbers, no email, a work number.
contact phone_b_copy(std::size_t i) {
    contact a = phone_a_person(i);
    contact c;
    c.formatted_name = a.name->family + ", " + a.name->given;
    c.phones.push_back({{"CELL"}, false, "0171 " + seven_digits(i * 13 + 1), {}, {}});
    c.phones.push_back({{"WORK"}, false, "089 " + seven_digits(i + 5), {}, {}});
    return c;
}

struct sync_outcome {
    std::vector<twin_pair> pairs;
    std::size_t added = 0;
};

// One slow sync into `server`: pairs, merges each pair in place, appends the rest.
sync_outcome slow_sync(std::vector<item>& server, const std::vector<item>& incoming) {
    match_index index;
    for (std::size_t i = 0; i < server.size(); ++i) index.add(i, match_keys_of(server[i]));
    std::vector<std::vector<std::size_t>> candidates;
    for (const auto& in : incoming) candidates.push_back(index.candidates(match_keys_of(in)));
    sync_outcome out;
    out.pairs = assign_twins(incoming, server, candidates);
    std::vector<bool> paired(incoming.size());
    for (const auto& p : out.pairs) {
        paired[p.incoming] = true;
        server[p.stored] = merge(server[p.stored], incoming[p.incoming], device_capabilities{}).merged;
    }
    for (std::size_t i = 0; i < incoming.size(); ++i) {
        if (!paired[i]) {
            server.push_back(incoming[i]);
            ++out.added;
        }
    }
    return out;
}

TEST(slow_sync_scenario, a_repeated_slow_sync_pairs_everything_and_changes_nothing) {
    std::vector<item> phone_a;
    for (std::size_t i = 0; i < 500; ++i) phone_a.emplace_back(phone_a_person(i));
    std::vector<item> server;
    slow_sync(server, phone_a);
    ASSERT_EQ(server.size(), 500u);
    for (int round = 0; round < 5; ++round) {
        std::vector<item> before = server;
        auto out = slow_sync(server, phone_a);
        EXPECT_EQ(out.added, 0u);
        ASSERT_EQ(out.pairs.size(), 500u);
        for (const auto& p : out.pairs) EXPECT_EQ(p.incoming, p.stored);
        EXPECT_EQ(server, before);
    }
}

TEST(slow_sync_scenario, a_second_phone_with_the_same_people_written_differently_adds_only_its_own) {
    std::vector<item> server;
    for (std::size_t i = 0; i < 500; ++i) server.emplace_back(phone_a_person(i));
    std::vector<item> phone_b;
    for (std::size_t i = 0; i < 300; ++i) phone_b.emplace_back(phone_b_copy(i * 5 / 3));
    for (std::size_t i = 0; i < 100; ++i) phone_b.emplace_back(phone_a_person(1000 + i));
    auto out = slow_sync(server, phone_b);
    EXPECT_EQ(server.size(), 600u);
    EXPECT_EQ(out.added, 100u);
    ASSERT_EQ(out.pairs.size(), 300u);
    std::set<std::size_t> stored_used;
    for (const auto& p : out.pairs) {
        EXPECT_EQ(p.stored, p.incoming * 5 / 3) << "incoming " << p.incoming;
        stored_used.insert(p.stored);
        const contact& c = std::get<contact>(server[p.stored]);
        EXPECT_EQ(c.phones.size(), 3u);  // cell (once), home, and the new work number
        EXPECT_EQ(c.emails.size(), 1u);
        EXPECT_EQ(c.name, phone_a_person(p.stored).name);
    }
    EXPECT_EQ(stored_used.size(), 300u);
}

}  // namespace
}  // namespace syncml::matching
