// Slow-sync twin detection over real vCard/iCalendar text: the same people and events written differently by
// different devices pair up; different people who share a phone or a common name do not.
#include "matching/match/match_score.hpp"

#include <gtest/gtest.h>

#include "matching/convert/item_format.hpp"
#include "matching/convert/item_test_support.hpp"
#include "matching/match/match_index.hpp"

namespace syncml::matching {
namespace {

item parse(std::string_view text, item_dialect dialect) { return testing::parse_or_fail(text, dialect); }

item vcard21(std::string_view body) {
    return parse(std::string("BEGIN:VCARD\r\nVERSION:2.1\r\n") + std::string(body) + "END:VCARD\r\n",
                 item_dialect::vcard21);
}

item vcard30(std::string_view body) {
    return parse(std::string("BEGIN:VCARD\r\nVERSION:3.0\r\n") + std::string(body) + "END:VCARD\r\n",
                 item_dialect::vcard30);
}

const item& server_anna() {
    static const item k_anna = vcard30(
        "N:M\xC3\xBCller;Anna;Maria;;\r\nFN:Anna Maria M\xC3\xBCller\r\nTEL;TYPE=CELL:+49 171 1234567\r\n"
        "TEL;TYPE=HOME:+49 30 7654321\r\nEMAIL;TYPE=INTERNET:anna.mueller@example.org\r\nBDAY:1980-01-31\r\n");
    return k_anna;
}

TEST(twin_score, pairs_a_vcard21_copy_with_other_name_order_national_numbers_and_no_email) {
    item phone = vcard21("N:Mueller;Anna\r\nFN:MULLER, ANNA\r\nTEL;CELL:0171/123 45 67\r\n");
    int score = twin_score(phone, server_anna());
    EXPECT_GE(score, match_options{}.threshold) << score;
}

TEST(twin_score, pairs_structured_and_formatted_only_names_with_accents_folded) {
    item phone = vcard21("FN:anna muller\r\nTEL;HOME:030 7654321\r\n");
    EXPECT_GE(twin_score(phone, server_anna()), match_options{}.threshold);
}

TEST(twin_score, does_not_pair_family_members_sharing_the_home_phone) {
    item peter = vcard21("N:M\xC3\xBCller;Peter\r\nTEL;HOME:030 7654321\r\n");
    EXPECT_LT(twin_score(peter, server_anna()), match_options{}.threshold);
}

TEST(twin_score, does_not_pair_a_common_name_with_different_numbers_and_emails) {
    item a = vcard30("FN:John Smith\r\nTEL:+1 212 555 0100\r\nEMAIL:john@a.example\r\n");
    item b = vcard21("N:Smith;John\r\nTEL:+1 415 555 0199\r\nEMAIL:jsmith@b.example\r\n");
    EXPECT_LT(twin_score(a, b), match_options{}.threshold);
}

TEST(twin_score, does_not_pair_a_common_name_with_different_birthdays) {
    item a = vcard30("FN:John Smith\r\nBDAY:1970-05-01\r\n");
    item b = vcard21("N:Smith;John\r\nBDAY:19820304\r\n");
    EXPECT_LT(twin_score(a, b), match_options{}.threshold);
    item c = vcard21("N:Smith;John\r\nBDAY:19700501\r\n");
    EXPECT_GE(twin_score(a, c), match_options{}.threshold);
}

TEST(twin_score, pairs_nameless_contacts_by_email) {
    item a = vcard30("FN:\r\nEMAIL:Info@Shop.Example\r\n");
    item b = vcard21("EMAIL;INTERNET:info@shop.example\r\n");
    EXPECT_GE(twin_score(a, b), match_options{}.threshold);
}

TEST(twin_score, never_pairs_items_of_different_kinds) {
    item memo_item = memo{"Anna Maria M\xC3\xBCller", "Anna Maria M\xC3\xBCller", {}, {}, {}, {}, {}};
    EXPECT_LT(twin_score(memo_item, server_anna()), 0);
}

const char* k_berlin =
    "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:DAYLIGHT\r\nDTSTART:19810329T020000\r\n"
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n"
    "BEGIN:STANDARD\r\nDTSTART:19961027T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n"
    "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n";

item ical(std::string_view body, bool with_tz = false) {
    return parse(std::string("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n") + (with_tz ? k_berlin : "") +
                     std::string(body) + "END:VCALENDAR\r\n",
                 item_dialect::ical20);
}

TEST(twin_score, pairs_events_without_uid_by_start_in_utc_and_summary) {
    item a = ical(
        "BEGIN:VEVENT\r\nUID:a-1\r\nDTSTART;TZID=Europe/Berlin:20240701T100000\r\nSUMMARY:Team Meeting\r\n"
        "END:VEVENT\r\n",
        true);
    item b = ical("BEGIN:VEVENT\r\nDTSTART:20240701T080000Z\r\nSUMMARY:team  meeting\r\nEND:VEVENT\r\n");
    EXPECT_GE(twin_score(a, b), match_options{}.threshold);
    EXPECT_EQ(match_keys_of(a)[0], match_keys_of(b)[0]);
    item c = ical("BEGIN:VEVENT\r\nDTSTART:20240708T080000Z\r\nSUMMARY:Team meeting\r\nEND:VEVENT\r\n");
    EXPECT_LT(twin_score(a, c), match_options{}.threshold);
}

TEST(twin_score, keeps_recurrence_exceptions_apart_from_their_master) {
    item master = ical(
        "BEGIN:VEVENT\r\nUID:r-1\r\nDTSTART:20240701T080000Z\r\nRRULE:FREQ=WEEKLY\r\n"
        "SUMMARY:Jour fixe\r\nEND:VEVENT\r\n");
    item exception = ical(
        "BEGIN:VEVENT\r\nUID:r-1\r\nRECURRENCE-ID:20240708T080000Z\r\n"
        "DTSTART:20240708T090000Z\r\nSUMMARY:Jour fixe\r\nEND:VEVENT\r\n");
    EXPECT_LT(twin_score(master, exception), match_options{}.threshold);
    EXPECT_GE(twin_score(exception, exception), match_options{}.threshold);
    EXPECT_NE(match_keys_of(master), match_keys_of(exception));
}

TEST(twin_score, pairs_tasks_by_summary_and_due) {
    item a = ical("BEGIN:VTODO\r\nSUMMARY:File taxes\r\nDUE;VALUE=DATE:20240531\r\nEND:VTODO\r\n");
    item b = ical("BEGIN:VTODO\r\nSUMMARY:file TAXES\r\nDUE;VALUE=DATE:20240531\r\nPRIORITY:1\r\nEND:VTODO\r\n");
    item c = ical("BEGIN:VTODO\r\nSUMMARY:File taxes\r\nDUE;VALUE=DATE:20250531\r\nEND:VTODO\r\n");
    item undated = ical("BEGIN:VTODO\r\nSUMMARY:Call mum\r\nEND:VTODO\r\n");
    EXPECT_GE(twin_score(a, b), match_options{}.threshold);
    EXPECT_LT(twin_score(a, c), match_options{}.threshold);
    EXPECT_GE(twin_score(undated, undated), match_options{}.threshold);
}

TEST(twin_score, pairs_memos_by_text_and_truncated_text) {
    item a = memo{"Shopping", "Shopping\r\nMilk\r\nEggs and a long list of other things", {}, {}, {}, {}, {}};
    item b = memo{"shopping", "shopping\nmilk\neggs and a long list of other things", {}, {}, {}, {}, {}};
    item truncated = memo{"Shopping", "Shopping\nMilk\nEggs and a long", {}, {}, {}, {}, {}};
    item other = memo{"Shopping", "Shopping\nBread", {}, {}, {}, {}, {}};
    EXPECT_GE(twin_score(a, b), match_options{}.threshold);
    EXPECT_GE(twin_score(truncated, a), match_options{}.threshold);
    EXPECT_LT(twin_score(other, a), match_options{}.threshold);
}

TEST(match_keys_of, gives_name_phone_and_email_keys_of_a_contact) {
    auto keys = match_keys_of(server_anna());
    auto has = [&](std::string_view kind, std::string_view value) {
        return std::find(keys.begin(), keys.end(), match_key{std::string(kind), std::string(value)}) != keys.end();
    };
    EXPECT_TRUE(has(key_kind::name, "anna maria muller"));
    EXPECT_TRUE(has(key_kind::name, "anna muller"));
    EXPECT_TRUE(has(key_kind::tel, "711234567"));
    EXPECT_TRUE(has(key_kind::tel, "307654321"));
    EXPECT_TRUE(has(key_kind::email, "anna.mueller@example.org"));
    EXPECT_EQ(keys.size(), 5u);
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
}

TEST(match_keys_of, print_as_kind_colon_value_for_the_key_table) {
    EXPECT_EQ(to_string(match_key{"email", "a@example.org"}), "email:a@example.org");
    EXPECT_EQ(to_string(match_keys_of(server_anna()).front()), "email:anna.mueller@example.org");
}

TEST(match_keys_of, bounds_long_values_by_hashing_them) {
    contact c;
    c.formatted_name = std::string(300, 'x') + " y";
    auto keys = match_keys_of(item{c});
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_EQ(keys[0].value.size(), 17u);
    EXPECT_EQ(keys[0].value[0], '#');
}

TEST(match_keys_of, gives_text_and_summary_keys_of_a_memo) {
    auto keys = match_keys_of(item{memo{"Idea", "Idea\nwrite it down", {}, {}, {}, {}, {}}});
    ASSERT_EQ(keys.size(), 2u);
    EXPECT_EQ(keys[0].kind, key_kind::summary);
    EXPECT_EQ(keys[0].value, "idea");
    EXPECT_EQ(keys[1].kind, key_kind::text);
}

TEST(assign_twins, pairs_each_stored_item_with_one_incoming_item_at_most) {
    item anna_a = vcard21("N:Mueller;Anna\r\nTEL;CELL:0171 1234567\r\n");
    item anna_b = vcard21("FN:Anna M\xC3\xBCller\r\nTEL;CELL:0171 1234567\r\nEMAIL:anna.mueller@example.org\r\n");
    item other = vcard21("N:Schmidt;Otto\r\nTEL:0171 9999999\r\n");
    std::vector<item> incoming{anna_a, anna_b, other};
    std::vector<item> stored{server_anna()};
    match_index index;
    index.add(0, match_keys_of(stored[0]));
    std::vector<std::vector<std::size_t>> candidates;
    for (const auto& in : incoming) candidates.push_back(index.candidates(match_keys_of(in)));
    EXPECT_EQ(candidates[2], std::vector<std::size_t>{});
    auto pairs = assign_twins(incoming, stored, candidates);
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].incoming, 1u);  // the copy with the email scores higher
    EXPECT_EQ(pairs[0].stored, 0u);
}

TEST(best_twin, picks_the_highest_score_and_none_below_the_threshold) {
    item anna = vcard21("N:Mueller;Anna\r\nEMAIL:anna.mueller@example.org\r\n");
    std::vector<item> candidates{vcard21("N:Mueller;Anna\r\n"), server_anna(), vcard21("N:Mueller;Peter\r\n")};
    EXPECT_EQ(best_twin(anna, candidates), std::optional<std::size_t>(1));
    std::vector<item> none{vcard21("N:Mueller;Peter\r\n")};
    EXPECT_EQ(best_twin(anna, none), std::nullopt);
}

}  // namespace
}  // namespace syncml::matching
