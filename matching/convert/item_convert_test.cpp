#include "matching/convert/item_convert.hpp"

#include <gtest/gtest.h>

namespace syncml::matching {
namespace {

const std::string journal =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VJOURNAL\r\nUID:u-1\r\nDTSTART;VALUE=DATE:20240120\r\n"
    "SUMMARY:Ideas\r\nDESCRIPTION:Ideas\\nmore\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n";

TEST(item_convert, keeps_journal_memos_in_their_icalendar_form) {
    EXPECT_EQ(to_canonical(journal, "text/calendar", "", item_kind::memo), journal);
}

TEST(item_convert, stores_plain_text_memos_unchanged) {
    EXPECT_EQ(to_canonical("Shopping\r\nmilk\r\n", "text/plain", "", item_kind::memo), "Shopping\r\nmilk\r\n");
}

TEST(item_convert, comparable_form_ignores_volatile_properties_line_order_and_folding) {
    auto a =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nREV:20240101T000000Z\r\nFN:Alice Example\r\nN:Example;Alice;;;\r\n"
        "END:VCARD\r\n";
    auto b =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Example;Alice;;;\r\nFN:Alice \r\n Example\r\nREV:20250101T000000Z\r\n"
        "END:VCARD\r\n";
    auto c = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob\r\nN:;Bob;;;\r\nEND:VCARD\r\n";
    EXPECT_EQ(comparable_form(a), comparable_form(b));
    EXPECT_NE(comparable_form(a), comparable_form(c));
}

}  // namespace
}  // namespace syncml::matching
