#include "src/admin/transfer/pim_text.hpp"

#include <gtest/gtest.h>

namespace syncml::server {
namespace {

const std::string zone =
    "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\n"
    "TZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n";

std::string calendar(const std::string& body) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n";
}

TEST(pim_text, splits_a_vcf_file_into_its_vcards) {
    const auto cards = split_vcards(
        "BEGIN:VCARD\nVERSION:3.0\nFN:A\nNOTE:folded\n  on\nEND:VCARD\r\n\r\nbegin:vcard\r\nFN:B\r\nend:vcard\r\n");
    ASSERT_EQ(cards.size(), 2u);
    EXPECT_EQ(cards[0], "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nNOTE:folded\r\n  on\r\nEND:VCARD\r\n");
    EXPECT_EQ(cards[1], "begin:vcard\r\nFN:B\r\nend:vcard\r\n");
}

TEST(pim_text, joins_calendar_items_with_each_time_zone_once_and_splits_them_by_uid) {
    const std::string zoned = calendar(zone +
                                       "BEGIN:VEVENT\r\nUID:a\r\nDTSTART;TZID=Europe/Berlin:20261210T090000\r\n"
                                       "BEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT\r\n");
    const std::string zoned_too =
        calendar(zone + "BEGIN:VEVENT\r\nUID:b\r\nDTSTART;TZID=Europe/Berlin:20261211T090000\r\nEND:VEVENT\r\n");
    const std::string recurring = calendar(
        "BEGIN:VEVENT\r\nUID:c\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\n"
        "BEGIN:VEVENT\r\nUID:c\r\nRECURRENCE-ID:20261212T090000Z\r\nEND:VEVENT\r\n");
    const auto file = join_icalendar({zoned, zoned_too, recurring});
    EXPECT_EQ(file.find("BEGIN:VTIMEZONE"), file.rfind("BEGIN:VTIMEZONE"));
    EXPECT_EQ(file.find("BEGIN:VCALENDAR"), file.rfind("BEGIN:VCALENDAR"));

    const auto items = split_icalendar(file);
    ASSERT_EQ(items.size(), 3u);
    EXPECT_NE(items[0].find("BEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT"), std::string::npos);
    EXPECT_NE(items[1].find("TZID:Europe/Berlin"), std::string::npos);
    EXPECT_EQ(items[2].find("VTIMEZONE"), std::string::npos) << "names no zone";
    EXPECT_NE(items[2].find("RECURRENCE-ID"), std::string::npos) << "the exception stays with its series";
    EXPECT_EQ(split_icalendar(join_icalendar({})).size(), 0u);
}

}  // namespace
}  // namespace syncml::server
