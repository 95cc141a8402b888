#include "dav/dav_items.hpp"

#include <gtest/gtest.h>

namespace syncml::dav {
namespace {

const collection_info& contacts() { return *find_collection("contacts"); }
const collection_info& calendar() { return *find_collection("calendar"); }
const collection_info& tasks() { return *find_collection("tasks"); }
const collection_info& memos() { return *find_collection("memos"); }

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

std::string vcalendar(const std::string& inner) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + inner + "END:VCALENDAR\r\n";
}

std::string event(const std::string& uid, const std::string& start, const std::string& end,
                  const std::string& extra = "") {
    return vcalendar("BEGIN:VEVENT\r\nUID:" + uid + "\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:" + start +
                     "\r\nDTEND:" + end + "\r\n" + extra + "SUMMARY:" + uid + "\r\nEND:VEVENT\r\n");
}

const std::string k_card =
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ann-1\r\nFN:Ann Example\r\nN:Example;Ann;;;\r\n"
    "EMAIL;TYPE=INTERNET:ann@example.org\r\nEND:VCARD\r\n";

TEST(dav_items, accepts_a_vcard_into_the_address_book_with_its_index_keys) {
    auto in = read_client_body(contacts(), k_card);
    ASSERT_EQ(in.error, "");
    EXPECT_EQ(first_property(in.canonical, "FN"), "Ann Example");
    EXPECT_EQ(first_property(in.canonical, "UID"), "ann-1");
    EXPECT_FALSE(in.keys.empty());
}

TEST(dav_items, stores_a_vcard_4_as_vcard_3) {
    auto in = read_client_body(contacts(), "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:x\r\nFN:Ann\r\nEND:VCARD\r\n");
    ASSERT_EQ(in.error, "");
    EXPECT_EQ(first_property(in.canonical, "VERSION"), "3.0");
    EXPECT_EQ(first_property(in.canonical, "FN"), "Ann");
}

TEST(dav_items, refuses_objects_without_the_structure_the_rfcs_require) {
    const std::vector<std::pair<std::string, std::string>> broken{
        {"no END", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\n"},
        {"no content line", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nthis is just text\r\nEND:VCARD\r\n"},
        {"no name", "BEGIN:VCARD\r\nVERSION:3.0\r\n:Ann\r\nEND:VCARD\r\n"},
        {"bad name", "BEGIN:VCARD\r\nVERSION:3.0\r\nF N:Ann\r\nEND:VCARD\r\n"},
        {"data after", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\nFN:Bob\r\n"},
        {"second object", k_card + k_card},
        {"wrong END", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCALENDAR\r\n"},
        {"empty", ""},
        {"plain text", "Ann Example\r\n"},
    };
    for (const auto& [why, body] : broken) {
        auto in = read_client_body(contacts(), body);
        EXPECT_NE(in.error, "") << why;
        EXPECT_EQ(in.canonical, "") << why;
    }
}

TEST(dav_items, accepts_folded_lines_quoted_colons_and_quoted_printable_soft_breaks) {
    auto folded = read_client_body(contacts(),
                                   "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nNOTE:a long\r\n  note\r\n"
                                   "X-A;X-P=\"a:b\":c\r\nEND:VCARD\r\n");
    EXPECT_EQ(folded.error, "");
    auto qp = read_client_body(contacts(),
                               "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Example;Ann\r\n"
                               "NOTE;ENCODING=QUOTED-PRINTABLE:first=0D=0A=\r\nsecond line\r\nEND:VCARD\r\n");
    EXPECT_EQ(qp.error, "");
}

TEST(dav_items, refuses_calendar_data_in_the_address_book_and_cards_in_calendars) {
    EXPECT_NE(read_client_body(contacts(), event("e", "20250310T090000Z", "20250310T100000Z")).error, "");
    EXPECT_NE(read_client_body(calendar(), k_card).error, "");
}

TEST(dav_items, refuses_a_component_the_calendar_does_not_hold) {
    const auto todo = vcalendar("BEGIN:VTODO\r\nUID:t\r\nDTSTAMP:20250101T000000Z\r\nSUMMARY:t\r\nEND:VTODO\r\n");
    auto in_calendar = read_client_body(calendar(), todo);
    EXPECT_EQ(in_calendar.error, "this collection holds only VEVENT");
    EXPECT_EQ(read_client_body(tasks(), todo).error, "");
    EXPECT_EQ(read_client_body(tasks(), event("e", "20250310T090000Z", "20250310T100000Z")).error,
              "this collection holds only VTODO");
    const auto journal =
        vcalendar("BEGIN:VJOURNAL\r\nUID:j\r\nDTSTAMP:20250101T000000Z\r\nSUMMARY:note\r\nEND:VJOURNAL\r\n");
    auto memo = read_client_body(memos(), journal);
    EXPECT_EQ(memo.error, "");
    EXPECT_EQ(first_property(memo.canonical, "UID"), "j") << "journals keep their iCalendar form";
}

TEST(dav_items, gives_an_item_without_uid_its_guid_in_the_first_component) {
    const std::string card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n";
    auto body = client_body(contacts(), card, "guid-1");
    EXPECT_EQ(body, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nUID:guid-1\r\nEND:VCARD\r\n");

    const auto with_alarm = vcalendar(
        "BEGIN:VEVENT\r\nDTSTART:20250310T090000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nUID:alarm\r\nEND:VALARM\r\n"
        "END:VEVENT\r\n");
    auto ics = client_body(calendar(), with_alarm, "guid-2");
    EXPECT_NE(ics.find("END:VALARM\r\nUID:guid-2\r\nEND:VEVENT\r\n"), std::string::npos) << ics;
    EXPECT_EQ(occurrences(ics, "UID:guid-2"), 1u);
}

TEST(dav_items, keeps_a_uid_the_item_has) {
    EXPECT_EQ(client_body(contacts(), k_card, "guid-1"), k_card);
    const auto ev = event("own", "20250310T090000Z", "20250310T100000Z");
    EXPECT_EQ(client_body(calendar(), ev, "guid-2"), ev);
}

TEST(dav_items, serves_a_plain_text_memo_as_a_vjournal) {
    auto body = client_body(memos(), "Buy milk\nand eggs", "guid-3");
    EXPECT_EQ(first_property(body, "BEGIN"), "VCALENDAR");
    EXPECT_EQ(occurrences(body, "BEGIN:VJOURNAL"), 1u) << body;
    EXPECT_EQ(first_property(body, "UID"), "guid-3");
    EXPECT_NE(body.find("Buy milk"), std::string::npos) << body;
}

TEST(dav_items, finds_property_values_unfolded_and_without_groups_or_parameters) {
    const std::string card =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\n Example\r\nitem1.EMAIL;TYPE=work:a@example.org\r\n"
        "email:b@example.org\r\nEND:VCARD\r\n";
    EXPECT_EQ(first_property(card, "FN"), "AnnExample");
    EXPECT_EQ(property_values(card, "EMAIL"), (std::vector<std::string>{"a@example.org", "b@example.org"}));
    EXPECT_FALSE(first_property(card, "TEL"));
}

}  // namespace
}  // namespace syncml::dav
