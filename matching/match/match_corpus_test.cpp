// Every contact and calendar item of the corpus: it has match keys where it has identifying content, it pairs
// with itself re-serialized in the other dialect, and merging it with itself changes nothing.
#include <gtest/gtest.h>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/convert/corpus_test_support.hpp"
#include "matching/convert/item_format.hpp"
#include "matching/match/match_keys.hpp"
#include "matching/match/match_score.hpp"
#include "matching/match/normalize_text.hpp"
#include "matching/merge/merge_items.hpp"
#include "matching/vcard/vcard_codec.hpp"

namespace syncml::matching {
namespace {

struct tally {
    int items = 0, converted = 0;
    std::vector<std::string> failures;
};

bool identifiable(const item& value) {
    if (const auto* c = std::get_if<contact>(&value)) return !c->uid.empty() || !normalized_name(*c).empty();
    const calendar_component* p = primary_component(std::get<calendar>(value));
    return p && (!p->uid.empty() || !p->summary.empty());
}

void check_self_merge(const std::string& name, const item& value, tally& out) {
    // Whole-year calendar exports (1000+ components) once; real SyncML items under every policy.
    const auto* cal = std::get_if<calendar>(&value);
    std::vector<conflict_policy> policies{conflict_policy::merge};
    if (!cal || cal->components.size() <= 20) {
        policies = {conflict_policy::merge, conflict_policy::server_wins, conflict_policy::client_wins,
                    conflict_policy::newest_wins, conflict_policy::duplicate};
    }
    for (auto policy : policies) {
        auto r = merge(value, value, device_capabilities{}, policy);
        if (r.merged != value || r.stored_changed || r.device_needs_update || r.keep_both) {
            out.failures.push_back(name + ": merging with itself is not a no-op under " + std::string(name_of(policy)));
        }
    }
}

void check_item(const std::string& name, const item& value, item_dialect other, tally& out) {
    ++out.items;
    auto keys = match_keys_of(value);
    if (identifiable(value) && keys.empty()) out.failures.push_back(name + ": no match keys");
    check_self_merge(name, value, out);
    auto text = serialize_item(value, other);
    if (!text) return;  // a kind the other dialect cannot carry; the codec tests cover that
    auto back = parse_item(*text, other, testing::k_export_limits);
    if (!back) {
        out.failures.push_back(name + ": converted copy does not parse: " + back.error().to_string());
        return;
    }
    ++out.converted;
    if (identifiable(value) && twin_score(*back, value) < match_options{}.threshold) {
        out.failures.push_back(name + ": does not match itself in " + std::string(name_of(other)) + " (score " +
                               std::to_string(twin_score(*back, value)) + ")");
    }
}

void check_file(const std::filesystem::path& path, tally& out) {
    std::string data = testing::read_file(path);
    auto dialect = detect_dialect(data);
    std::string name = testing::corpus_name(path);
    if (dialect == item_dialect::vcard21 || dialect == item_dialect::vcard30) {
        auto cards = parse_vcards(data, vcard_version::v30, testing::k_export_limits);
        if (!cards) return;
        auto other = dialect == item_dialect::vcard21 ? item_dialect::vcard30 : item_dialect::vcard21;
        for (const auto& c : *cards) check_item(name, item{c}, other, out);
    } else if (dialect == item_dialect::vcal10 || dialect == item_dialect::ical20) {
        auto version = dialect == item_dialect::vcal10 ? calendar_version::vcal10 : calendar_version::ical20;
        auto cals = parse_calendars(data, version, testing::k_export_limits);
        if (!cals) return;
        auto other = dialect == item_dialect::vcal10 ? item_dialect::ical20 : item_dialect::vcal10;
        for (const auto& cal : *cals) {
            if (!cal.components.empty()) check_item(name, item{cal}, other, out);
        }
    }
}

TEST(match_corpus, every_item_has_keys_matches_its_converted_copy_and_merges_with_itself_as_a_no_op) {
    tally out;
    for (const auto& path : testing::corpus_files({".vcf", ".ics", ".vcs"})) check_file(path, out);
    EXPECT_GT(out.items, 600);
    EXPECT_GT(out.converted, 500);
    for (const auto& f : out.failures) ADD_FAILURE() << f;
    std::cerr << out.items << " items, " << out.converted << " converted, " << out.failures.size() << " failures\n";
}

}  // namespace
}  // namespace syncml::matching
