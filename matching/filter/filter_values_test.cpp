// Every property FilterCap announces is one a filter can actually read from the item model.
#include "matching/filter/filter_values.hpp"

#include <gtest/gtest.h>

#include "matching/convert/item_format.hpp"
#include "matching/convert/item_test_support.hpp"
#include "matching/filter/filter_cgi.hpp"

namespace syncml::matching {
namespace {

using testing::parse_or_fail;

void expect_all_readable(const item& value, item_kind kind) {
    for (auto name : filterable_properties(kind)) {
        property_ref ref{.name = canonical_property_name(name), .sub_field = {}, .param_name = {}, .param_value = {}};
        EXPECT_FALSE(values_of(value, ref).empty()) << name;
    }
}

TEST(filterable_properties, are_all_read_from_a_full_contact) {
    item full = parse_or_fail(
        "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nFN:Jane Doe\r\nNICKNAME:JD\r\nTEL:1\r\nEMAIL:j@x.org\r\n"
        "URL:http://x.org\r\nADR:;;Street;Town;;1;Land\r\nORG:X\r\nTITLE:T\r\nROLE:R\r\nBDAY:1990-01-01\r\n"
        "CATEGORIES:A\r\nNOTE:n\r\nPHOTO;VALUE=uri:http://x.org/p.jpg\r\nUID:u\r\nREV:20260101T000000Z\r\n"
        "END:VCARD\r\n",
        item_dialect::vcard30);
    expect_all_readable(full, item_kind::contact);
}

TEST(filterable_properties, are_all_read_from_full_calendar_data) {
    item full = parse_or_fail(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        "BEGIN:VEVENT\r\nUID:e\r\nSUMMARY:s\r\nDESCRIPTION:d\r\nLOCATION:l\r\nSTATUS:CONFIRMED\r\nCLASS:PUBLIC\r\n"
        "TRANSP:OPAQUE\r\nDTSTART:20260101T100000Z\r\nDTEND:20260101T110000Z\r\nCREATED:20251201T000000Z\r\n"
        "LAST-MODIFIED:20251202T000000Z\r\nDTSTAMP:20251203T000000Z\r\nCATEGORIES:A\r\nPRIORITY:1\r\n"
        "SEQUENCE:2\r\nRRULE:FREQ=DAILY;COUNT=3\r\nEXDATE:20260102T100000Z\r\nRDATE:20260110T100000Z\r\nEND:VEVENT\r\n"
        "BEGIN:VEVENT\r\nUID:e\r\nRECURRENCE-ID:20260103T100000Z\r\nDTSTART:20260103T120000Z\r\nDURATION:PT1H\r\n"
        "END:VEVENT\r\n"
        "BEGIN:VTODO\r\nUID:t\r\nDUE:20260105T000000Z\r\nCOMPLETED:20260104T000000Z\r\nPERCENT-COMPLETE:100\r\n"
        "END:VTODO\r\nEND:VCALENDAR\r\n",
        item_dialect::ical20);
    expect_all_readable(full, item_kind::event);
}

TEST(filterable_properties, are_all_read_from_a_full_memo) {
    memo full;
    full.summary = "s";
    full.body = "s\nb";
    full.categories = {"A"};
    full.class_ = "PRIVATE";
    full.created = testing::wall_time(2026, 1, 1);
    full.last_modified = testing::wall_time(2026, 1, 2);
    expect_all_readable(item{full}, item_kind::memo);
}

TEST(filter_keywords, are_the_ones_the_parser_reads_as_settings) {
    for (auto keyword : filter_keywords()) {
        bool date = keyword == "SINCE" || keyword == "BEFORE";
        auto parsed = parse_filter_cgi(std::string(keyword) + "&EQ;" + (date ? "20260101T000000Z" : "1"));
        ASSERT_TRUE(parsed) << keyword;
        EXPECT_TRUE(parsed->record.where.empty()) << keyword;
        EXPECT_NE(*parsed, item_filter{}) << keyword;
    }
}

}  // namespace
}  // namespace syncml::matching
