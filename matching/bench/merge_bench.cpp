// Slow-sync matching cost per contact: match keys, candidate lookup (the in-memory index standing in for the
// key table), twin scoring with one-to-one assignment, and the field merge of each pair. A datastore of N
// contacts meets N incoming contacts, half of them the stored people written as another phone would write them.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "matching/match/match_index.hpp"
#include "matching/match/match_keys.hpp"
#include "matching/match/match_score.hpp"
#include "matching/merge/merge_items.hpp"

namespace syncml::matching {
namespace {

const std::vector<std::string> k_given = {"Anna", "Jürgen", "Marie", "Peter", "Zoë", "John", "Ines", "Lukas"};
const std::vector<std::string> k_family = {"Müller", "Schmidt", "Smith", "Nguyen", "García", "Novák", "Rossi"};

std::string digits(std::size_t n, std::size_t width) {
    std::string s = std::to_string(n);
    return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
}

// Person `i`: a common given and family name plus a unique suffix, so some share names and none are twins.
contact stored_person(std::size_t i) {
    contact c;
    std::string given = k_given[i % k_given.size()];
    std::string family = k_family[(i / k_given.size()) % k_family.size()] + "-" + std::to_string(i / 56);
    c.uid = "srv-" + std::to_string(i);
    c.name = structured_name{family, given, "", "", ""};
    c.formatted_name = given + " " + family;
    c.phones.push_back({{"CELL"}, false, "+49 171 " + digits(i, 7), {}, {}});
    c.phones.push_back({{"HOME"}, false, "+49 30 " + digits(i * 7 + 3, 7), {}, {}});
    c.emails.push_back({{"INTERNET"}, false, "person" + std::to_string(i) + "@example.org", {}, {}});
    c.note = "Met at event " + std::to_string(i % 40);
    c.birthday = "1980-01-" + digits(i % 28 + 1, 2);
    return c;
}

// The same person as a vCard 2.1 phone keeps them: "Family, Given", national numbers, no email, no note.
contact phone_copy(std::size_t i) {
    contact s = stored_person(i);
    contact c;
    c.formatted_name = s.name->family + ", " + s.name->given;
    c.phones.push_back({{"CELL"}, false, "0171 " + digits(i, 7), {}, {}});
    c.phones.push_back({{"HOME"}, false, "030/" + digits(i * 7 + 3, 7), {}, {}});
    return c;
}

struct data_set {
    std::vector<item> stored, incoming;
    match_index index;
};

data_set make_data(std::size_t n) {
    data_set d;
    for (std::size_t i = 0; i < n; ++i) {
        d.stored.emplace_back(stored_person(i));
        d.index.add(i, match_keys_of(d.stored.back()));
    }
    for (std::size_t i = 0; i < n; ++i) {
        d.incoming.emplace_back(i % 2 == 0 ? phone_copy(i) : stored_person(n + i));
    }
    return d;
}

device_capabilities phone_caps() {
    device_capabilities caps;
    for (const char* p : {"N", "FN", "TEL"}) caps.add_property(p);
    return caps;
}

void slow_sync_contacts(benchmark::State& state) {
    auto n = static_cast<std::size_t>(state.range(0));
    data_set d = make_data(n);
    device_capabilities caps = phone_caps();
    std::size_t pairs = 0, key_count = 0;
    for (auto _ : state) {
        std::vector<std::vector<std::size_t>> candidates;
        candidates.reserve(n);
        key_count = 0;
        for (const auto& in : d.incoming) {
            auto keys = match_keys_of(in);
            key_count += keys.size();
            candidates.push_back(d.index.candidates(keys));
        }
        auto twins = assign_twins(d.incoming, d.stored, candidates);
        for (const auto& t : twins) {
            auto r = merge(d.stored[t.stored], d.incoming[t.incoming], caps);
            benchmark::DoNotOptimize(r);
        }
        pairs = twins.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
    state.counters["pairs"] = static_cast<double>(pairs);
    state.counters["keys_per_item"] = static_cast<double>(key_count) / static_cast<double>(n);
    state.counters["us_per_item"] = benchmark::Counter(
        static_cast<double>(n) * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(slow_sync_contacts)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void merge_one_contact(benchmark::State& state) {
    item stored{stored_person(42)};
    item incoming{phone_copy(42)};
    device_capabilities caps = phone_caps();
    for (auto _ : state) benchmark::DoNotOptimize(merge(stored, incoming, caps));
}
BENCHMARK(merge_one_contact);

void keys_of_one_contact(benchmark::State& state) {
    item stored{stored_person(42)};
    for (auto _ : state) benchmark::DoNotOptimize(match_keys_of(stored));
}
BENCHMARK(keys_of_one_contact);

}  // namespace
}  // namespace syncml::matching
