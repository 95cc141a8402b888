// Merge rules: fields the device cannot store or truncated survive, multi-valued properties union, and each
// conflict policy decides as documented.
#include "matching/merge/merge_items.hpp"

#include <gtest/gtest.h>

#include "matching/convert/item_format.hpp"

namespace syncml::matching {
namespace {

contact vcard(std::string_view version, std::string_view body) {
    auto r = parse_item(
        std::string("BEGIN:VCARD\r\nVERSION:") + std::string(version) + "\r\n" + std::string(body) + "END:VCARD\r\n",
        version == "2.1" ? item_dialect::vcard21 : item_dialect::vcard30);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    return r ? std::get<contact>(*r) : contact{};
}

const contact& server_copy() {
    static const contact k_server =
        vcard("3.0",
              "UID:srv-1\r\nN:Doe;Jane;;;\r\nFN:Jane Doe\r\nTEL;TYPE=CELL:+49 171 1234567\r\n"
              "EMAIL;TYPE=INTERNET:jane@example.org\r\nBDAY:1985-04-12\r\n"
              "NOTE:Met at the conference in Berlin; likes long walks and good coffee.\r\n"
              "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ==\r\nX-SPOUSE:John\r\n");
    return k_server;
}

// A phone that stores N, FN, TEL (CELL, HOME, WORK) and EMAIL only.
device_capabilities basic_phone() {
    device_capabilities caps;
    caps.add_property("N");
    caps.add_property("FN");
    caps.add_property("TEL").params["TYPE"] = {"CELL", "HOME", "WORK"};
    caps.add_property("EMAIL");
    return caps;
}

const contact& merged_contact(const merge_result& r) { return std::get<contact>(r.merged); }

TEST(merge, keeps_note_photo_and_bday_a_device_cannot_store) {
    contact phone = vcard("2.1", "N:Doe;Jane\r\nFN:Jane Doe\r\nTEL;CELL:0171 1234567\r\nEMAIL:jane@example.org\r\n");
    auto r = merge(item{server_copy()}, item{phone}, basic_phone());
    const contact& m = merged_contact(r);
    EXPECT_EQ(m.note, server_copy().note);
    EXPECT_EQ(m.birthday, "1985-04-12");
    ASSERT_TRUE(m.picture.has_value());
    EXPECT_EQ(m.picture, server_copy().picture);
    EXPECT_EQ(m.uid, "srv-1");
    ASSERT_EQ(m.phones.size(), 1u);
    EXPECT_EQ(m.phones[0].value, "+49 171 1234567");  // the same line: the richer stored form stays
    EXPECT_FALSE(r.stored_changed);
    EXPECT_FALSE(r.device_needs_update);
    EXPECT_FALSE(r.keep_both);
}

TEST(merge, keeps_everything_absent_from_the_device_copy_without_ctcap) {
    contact phone = vcard("2.1", "N:Doe;Jane\r\nTEL;CELL:0171 1234567\r\n");
    auto r = merge(item{server_copy()}, item{phone}, device_capabilities{});
    EXPECT_EQ(merged_contact(r), server_copy());
    EXPECT_FALSE(r.stored_changed);
    EXPECT_FALSE(r.device_needs_update);
}

TEST(merge, takes_present_device_values_and_reports_the_decision) {
    contact phone = vcard("2.1", "N:Doe;Jane\r\nFN:Jane Doe-Smith\r\nTEL;CELL:0171 1234567\r\n");
    auto r = merge(item{server_copy()}, item{phone}, device_capabilities{});
    EXPECT_EQ(merged_contact(r).formatted_name, "Jane Doe-Smith");
    EXPECT_TRUE(r.stored_changed);
    ASSERT_FALSE(r.decisions.empty());
    EXPECT_NE(std::find(r.decisions.begin(), r.decisions.end(), "FN: device value replaces server value"),
              r.decisions.end());
}

TEST(merge, keeps_the_longer_value_a_device_truncated_to_its_max_size) {
    device_capabilities caps = basic_phone();
    caps.add_property("NOTE").max_size = 20;
    contact phone = server_copy();
    phone.note = server_copy().note.substr(0, 20);
    auto r = merge(item{server_copy()}, item{phone}, caps);
    EXPECT_EQ(merged_contact(r).note, server_copy().note);
    EXPECT_FALSE(r.stored_changed);
    EXPECT_FALSE(r.device_needs_update);  // sending it again would only truncate it again
}

TEST(merge, takes_a_shorter_value_that_is_not_a_truncation) {
    device_capabilities caps = basic_phone();
    caps.add_property("NOTE").max_size = 20;
    contact phone = server_copy();
    phone.note = "Call back";
    EXPECT_EQ(merged_contact(merge(item{server_copy()}, item{phone}, caps)).note, "Call back");
    caps.properties["NOTE"].no_truncate = true;
    phone.note = server_copy().note.substr(0, 20);
    EXPECT_EQ(merged_contact(merge(item{server_copy()}, item{phone}, caps)).note, phone.note);
}

TEST(merge, unions_phones_emails_and_categories_by_normalized_value) {
    contact phone = vcard("2.1",
                          "N:Doe;Jane\r\nTEL;CELL:0171/123 45 67\r\nTEL;HOME:030 555 0101\r\n"
                          "EMAIL:JANE@EXAMPLE.ORG\r\nEMAIL:jd@work.example\r\nCATEGORIES:Friends\r\n");
    contact server = server_copy();
    server.categories = {"friends", "Berlin"};
    auto r = merge(item{server}, item{phone}, device_capabilities{});
    const contact& m = merged_contact(r);
    ASSERT_EQ(m.phones.size(), 2u);
    EXPECT_EQ(m.phones[0].value, "+49 171 1234567");
    EXPECT_EQ(m.phones[1].value, "030 555 0101");
    ASSERT_EQ(m.emails.size(), 2u);
    EXPECT_EQ(m.emails[1].value, "jd@work.example");
    EXPECT_EQ(m.categories, (std::vector<std::string>{"friends", "Berlin"}));
    EXPECT_TRUE(r.stored_changed);
}

TEST(merge, keeps_the_richer_stored_name_and_accents_when_a_phone_writes_them_with_less) {
    contact server = vcard("3.0",
                           "N:M\xC3\xBCller;Anna;Maria;;\r\nFN:Anna Maria M\xC3\xBCller\r\n"
                           "TEL;TYPE=CELL:+49 171 1234567\r\nEMAIL:anna@example.org\r\nORG:Caf\xC3\xA9 Central\r\n");
    contact phone = vcard("2.1",
                          "N:Mueller;Anna\r\nFN:MUELLER, ANNA\r\nTEL;CELL:0171 1234567\r\n"
                          "TEL;WORK:030 555 0199\r\nORG:CAFE CENTRAL\r\n");
    auto r = merge(item{server}, item{phone}, device_capabilities{});
    const contact& m = merged_contact(r);
    EXPECT_EQ(m.name, server.name);
    EXPECT_EQ(m.formatted_name, server.formatted_name);
    EXPECT_EQ(m.organization, server.organization);
    EXPECT_EQ(m.emails, server.emails);
    ASSERT_EQ(m.phones.size(), 2u);  // the union: the work number is new
    EXPECT_EQ(m.phones[1].value, "030 555 0199");
    phone.formatted_name = "Anna Schmidt";
    phone.name = structured_name{"Schmidt", "Anna", "", "", ""};
    EXPECT_EQ(merged_contact(merge(item{server}, item{phone}, device_capabilities{})).formatted_name, "Anna Schmidt");
}

TEST(merge, sends_the_device_values_it_can_store_but_lacks) {
    contact phone = vcard("2.1", "N:Doe;Jane\r\nFN:Jane Doe\r\nTEL;HOME:030 555 0101\r\nEMAIL:jane@example.org\r\n");
    auto r = merge(item{server_copy()}, item{phone}, basic_phone());
    EXPECT_EQ(merged_contact(r).phones.size(), 2u);
    EXPECT_TRUE(r.device_needs_update);  // it can store the CELL number the server has
}

TEST(merge, keeps_types_the_device_cannot_express) {
    contact server = server_copy();
    server.phones[0].types = {"CELL", "VOICE", "X-EVOLUTION-CALLBACK"};
    contact phone = server_copy();
    phone.phones[0].types = {"CELL"};
    auto r = merge(item{server}, item{phone}, basic_phone());
    EXPECT_EQ(merged_contact(r).phones[0].types, (std::vector<std::string>{"CELL", "VOICE", "X-EVOLUTION-CALLBACK"}));
}

TEST(merge, update_mode_with_ctcap_clears_what_the_device_removed_but_keeps_what_it_cannot_store) {
    device_capabilities caps = basic_phone();
    caps.add_property("BDAY");
    contact phone = vcard("2.1", "N:Doe;Jane\r\nFN:Jane Doe\r\nTEL;HOME:030 555 0101\r\n");
    auto r = merge(item{server_copy()}, item{phone}, caps, conflict_policy::merge, merge_mode::update);
    const contact& m = merged_contact(r);
    EXPECT_EQ(m.birthday, "");
    EXPECT_TRUE(m.emails.empty());
    ASSERT_EQ(m.phones.size(), 1u);
    EXPECT_EQ(m.phones[0].value, "030 555 0101");
    EXPECT_EQ(m.note, server_copy().note);
    EXPECT_EQ(m.picture, server_copy().picture);
    EXPECT_TRUE(r.stored_changed);
    EXPECT_FALSE(r.device_needs_update);
}

TEST(merge, update_mode_without_ctcap_stays_conservative) {
    contact phone = vcard("2.1", "N:Doe;Jane\r\nFN:Jane Doe\r\n");
    auto r = merge(item{server_copy()}, item{phone}, device_capabilities{}, conflict_policy::merge, merge_mode::update);
    EXPECT_EQ(merged_contact(r), server_copy());
}

TEST(merge, keeps_server_values_beyond_the_devices_max_occur) {
    device_capabilities caps = basic_phone();
    caps.properties["TEL"].max_occur = 1;
    contact server = server_copy();
    server.phones.push_back({{"WORK"}, false, "+49 30 999999", {}, {}});
    contact phone = server_copy();
    auto r = merge(item{server}, item{phone}, caps, conflict_policy::client_wins);
    EXPECT_EQ(merged_contact(r).phones.size(), 2u);
    EXPECT_FALSE(r.device_needs_update);
}

contact edited_on_phone() {
    contact phone = server_copy();
    phone.formatted_name = "Jane D.";
    phone.revision = "2030-01-01T00:00:00Z";
    phone.emails.clear();
    return phone;
}

TEST(merge, server_wins_keeps_the_stored_copy_and_updates_the_device) {
    auto r = merge(item{server_copy()}, item{edited_on_phone()}, device_capabilities{}, conflict_policy::server_wins);
    EXPECT_EQ(merged_contact(r), server_copy());
    EXPECT_FALSE(r.stored_changed);
    EXPECT_TRUE(r.device_needs_update);
}

TEST(merge, client_wins_takes_the_device_copy_for_what_it_can_store) {
    device_capabilities caps = basic_phone();
    caps.add_property("REV");
    auto r = merge(item{server_copy()}, item{edited_on_phone()}, caps, conflict_policy::client_wins);
    const contact& m = merged_contact(r);
    EXPECT_EQ(m.formatted_name, "Jane D.");
    EXPECT_TRUE(m.emails.empty());
    EXPECT_EQ(m.note, server_copy().note);
    EXPECT_TRUE(r.stored_changed);
    EXPECT_FALSE(r.device_needs_update);
}

TEST(merge, newest_wins_follows_rev_and_falls_back_to_the_server) {
    contact server = server_copy();
    server.revision = "20240101T000000Z";
    auto newer = merge(item{server}, item{edited_on_phone()}, device_capabilities{}, conflict_policy::newest_wins);
    EXPECT_EQ(merged_contact(newer).formatted_name, "Jane D.");
    contact older = edited_on_phone();
    older.revision = "2020-01-01";
    auto r = merge(item{server}, item{older}, device_capabilities{}, conflict_policy::newest_wins);
    EXPECT_EQ(merged_contact(r), server);
    contact undated = edited_on_phone();
    undated.revision.clear();
    EXPECT_EQ(merged_contact(merge(item{server}, item{undated}, {}, conflict_policy::newest_wins)), server);
}

TEST(merge, duplicate_keeps_both_copies_only_for_a_true_conflict) {
    auto r = merge(item{server_copy()}, item{edited_on_phone()}, device_capabilities{}, conflict_policy::duplicate);
    EXPECT_TRUE(r.keep_both);
    EXPECT_EQ(merged_contact(r), edited_on_phone());
    EXPECT_FALSE(r.stored_changed);
    contact subset = vcard("2.1", "N:Doe;Jane\r\nFN:Jane Doe\r\n");
    auto same = merge(item{server_copy()}, item{subset}, basic_phone(), conflict_policy::duplicate);
    EXPECT_FALSE(same.keep_both);
    EXPECT_EQ(merged_contact(same), server_copy());
}

TEST(merge, keeps_both_items_of_different_kinds) {
    auto r = merge(item{server_copy()}, item{memo{}}, device_capabilities{});
    EXPECT_TRUE(r.keep_both);
}

TEST(conflict_policy, names_round_trip) {
    for (auto p : {conflict_policy::merge, conflict_policy::server_wins, conflict_policy::client_wins,
                   conflict_policy::newest_wins, conflict_policy::duplicate}) {
        EXPECT_EQ(conflict_policy_from_name(name_of(p)), p);
    }
    EXPECT_EQ(conflict_policy_from_name("server-wins"), conflict_policy::server_wins);
    EXPECT_EQ(conflict_policy_from_name("bogus"), std::nullopt);
}

TEST(device_capability_set, finds_content_types_case_insensitively) {
    device_capability_set set;
    set.add_content_type("text/x-vcard").add_property("tel").params["TYPE"] = {"CELL"};
    const auto& caps = set.for_content_type("TEXT/X-VCARD; charset=utf-8");
    EXPECT_TRUE(caps.known);
    EXPECT_TRUE(caps.can_store("TEL"));
    EXPECT_FALSE(caps.can_store("NOTE"));
    EXPECT_TRUE(caps.find("TEL")->supports_param_value("type", "cell"));
    EXPECT_FALSE(caps.find("TEL")->supports_param_value("TYPE", "HOME"));
    EXPECT_FALSE(set.for_content_type("text/calendar").known);
    EXPECT_TRUE(set.for_content_type("text/calendar").can_store("NOTE"));
}

}  // namespace
}  // namespace syncml::matching
