// Every vCard, vCalendar, iCalendar and vNote item of the corpus parses (or fails clearly where upstream marks it
// invalid) and survives serialization in its own dialect and conversion through the other one.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/convert/corpus_test_support.hpp"
#include "matching/convert/item_format.hpp"
#include "matching/vcard/vcard_codec.hpp"

namespace syncml::matching {
namespace {

using testing::corpus_files;
using testing::corpus_name;
using testing::read_file;

// Files upstream marks invalid (ical4j samples/invalid/) or keeps as fuzzer crash reproducers (libical). They must
// not crash the parser; whether they parse leniently or fail with a message, no round trip is expected of them.
const std::map<std::string, std::string>& invalid_upstream() {
    static const std::map<std::string, std::string> k_list = {
        {"libical/test-data/caltime.ics", "fuzzer input: properties named by digits, garbage values"},
        {"libical/test-data/crash.ics", "fuzzer crash reproducer"},
        {"libical/test-data/get_char_test.ics", "fuzzer input: BEGIN:000, truncated names"},
        {"libical/test-data/issue250.ics", "fuzzer input: 'BEGIN;' without ':'"},
        {"libical/test-data/issue252.ics", "fuzzer input: control characters in names"},
        {"libical/test-data/issue253.ics", "fuzzer input: binary bytes"},
        {"libical/test-data/malloc.ics", "fuzzer input: truncated quoted parameter"},
        {"libical/test-data/zday.ics", "fuzzer input: truncated quoted parameter"},
        {"libical/test-data/smallcluster.ics", "VCALENDAR nested in VCALENDAR, UNTIL=123456T123456"},
        {"python-icalendar/src/icalendar/tests/calendars/fuzz_testcase_0_char_in_component_name.ics",
         "fuzzer input: NUL in a component name"},
        {"python-icalendar/src/icalendar/tests/calendars/multiple_calendar_components.ics",
         "broken on purpose: VERSION without ':' and value"},
    };
    return k_list;
}

bool is_invalid_upstream(const std::string& name) {
    return name.starts_with("ical4j/src/test/resources/samples/invalid/") || invalid_upstream().count(name) > 0;
}

struct outcome {
    std::vector<std::string> failures;
    int items = 0;
};

void check_calendar_file(const std::filesystem::path& path, const std::string& data, outcome& out) {
    auto dialect = detect_dialect(data);
    auto version = dialect == item_dialect::vcal10 ? calendar_version::vcal10 : calendar_version::ical20;
    auto other = version == calendar_version::vcal10 ? calendar_version::ical20 : calendar_version::vcal10;
    auto cals = parse_calendars(data, version, testing::k_export_limits);
    if (!cals) {
        out.failures.push_back(corpus_name(path) + ": " + cals.error().to_string());
        return;
    }
    for (const auto& cal : *cals) {
        ++out.items;
        for (auto via : {version, other}) {
            auto back = parse_calendars(write_calendar(cal, via), via, testing::k_export_limits);
            if (via != version && back && back->size() == 1)
                back = parse_calendars(write_calendar((*back)[0], version), version, testing::k_export_limits);
            if (!back || back->size() != 1 || (*back)[0] != cal) {
                out.failures.push_back(corpus_name(path) + ": round trip via " +
                                       (via == calendar_version::vcal10 ? "1.0" : "2.0") + " changed the model");
                if (std::getenv("SYNCML_ITEMS_DEBUG") && back && back->size() == 1) {
                    std::cerr << "--- " << corpus_name(path) << "\n"
                              << write_calendar(cal, calendar_version::ical20) << "+++\n"
                              << write_calendar((*back)[0], calendar_version::ical20) << "\n";
                }
            }
        }
    }
}

void check_vcard_file(const std::filesystem::path& path, const std::string& data, outcome& out) {
    auto cards = parse_vcards(data, vcard_version::v21, testing::k_export_limits);
    if (!cards) {
        out.failures.push_back(corpus_name(path) + ": " + cards.error().to_string());
        return;
    }
    for (const auto& card : *cards) {
        ++out.items;
        for (auto via : {vcard_version::v21, vcard_version::v30}) {
            auto back = parse_vcards(write_vcard(card, via), via);
            if (!back || back->size() != 1 || (*back)[0] != card) {
                out.failures.push_back(corpus_name(path) + ": round trip via " +
                                       (via == vcard_version::v21 ? "2.1" : "3.0") + " changed the model");
            }
        }
    }
}

TEST(corpus_items, every_item_parses_and_round_trips) {
    outcome out;
    int files = 0, invalid = 0;
    for (const auto& path : corpus_files({".vcf", ".ics", ".vcs", ".vnt"})) {
        std::string data = read_file(path);
        auto dialect = detect_dialect(data);
        std::string name = corpus_name(path);
        bool expected_bad = is_invalid_upstream(name);
        ++files;
        std::size_t before = out.failures.size();
        if (!dialect || dialect == item_dialect::plain_text) {
            out.failures.push_back(name + ": no dialect detected");
        } else if (dialect == item_dialect::vcal10 || dialect == item_dialect::ical20) {
            check_calendar_file(path, data, out);
        } else if (dialect == item_dialect::vnote11) {
            auto r = parse_item(data, *dialect);
            if (!r) out.failures.push_back(name + ": " + r.error().to_string());
        } else {
            check_vcard_file(path, data, out);
        }
        if (expected_bad) {
            for (std::size_t i = before; i < out.failures.size(); ++i)
                std::cerr << "invalid upstream: " << out.failures[i] << "\n";
            out.failures.resize(before);
            ++invalid;
        }
    }
    EXPECT_GT(files, 600);
    EXPECT_EQ(invalid, 22 + static_cast<int>(invalid_upstream().size()));
    EXPECT_GT(out.items, 600);
    for (const auto& f : out.failures) ADD_FAILURE() << f;
    std::cerr << files << " files, " << out.items << " items, " << out.failures.size() << " failures\n";
}

}  // namespace
}  // namespace syncml::matching
