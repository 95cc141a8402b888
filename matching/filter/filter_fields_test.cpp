// Field filters take out what a device does not want and say what they took, so the merge can keep it.
#include "matching/filter/filter_fields.hpp"

#include <gtest/gtest.h>

#include "matching/convert/item_format.hpp"
#include "matching/convert/item_test_support.hpp"

namespace syncml::matching {
namespace {

item parse(std::string_view text, item_dialect dialect) { return testing::parse_or_fail(text, dialect); }

item card() {
    return parse(
        "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nFN:Jane Doe\r\nTEL;TYPE=CELL:+1 555 0100\r\n"
        "NOTE:" +
            std::string(300, 'n') + "\r\nPHOTO;ENCODING=b;TYPE=JPEG:" + std::string(4000, 'A') +
            "\r\nX-SKYPE:jane.doe\r\nEND:VCARD\r\n",
        item_dialect::vcard30);
}

item meeting() {
    return parse(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:m1\r\n"
        "DTSTART:20260101T100000Z\r\nDTEND:20260101T110000Z\r\nSUMMARY:Review\r\nDESCRIPTION:Agenda\r\n"
        "ATTACH:http://example.org/slides.pdf\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\n"
        "DESCRIPTION:x\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        item_dialect::ical20);
}

TEST(field_filter, leaves_the_item_alone_when_empty) {
    item value = card();
    item before = value;
    EXPECT_TRUE(apply_field_filter(field_filter{}, value).empty());
    EXPECT_EQ(value, before);
}

TEST(field_filter, removes_excluded_properties_and_reports_them) {
    item value = card();
    field_filter f;
    f.exclude = {"PHOTO", "X-SKYPE", "EMAIL"};  // EMAIL is absent: not reported
    EXPECT_EQ(apply_field_filter(f, value), (std::vector<std::string>{"PHOTO", "X-SKYPE"}));
    const auto& c = std::get<contact>(value);
    EXPECT_FALSE(c.picture);
    EXPECT_TRUE(c.extra.empty() || c.extra.front().name != "X-SKYPE");
    EXPECT_EQ(c.phones.size(), 1u);
}

TEST(field_filter, removes_values_over_the_size_limit) {
    item value = card();
    field_filter f;
    f.max_value_size = 1024;
    EXPECT_EQ(apply_field_filter(f, value), std::vector<std::string>{"PHOTO"});
    f.max_value_size = 100;
    EXPECT_EQ(apply_field_filter(f, value), std::vector<std::string>{"NOTE"});
}

TEST(field_filter, limits_one_property_without_touching_the_others) {
    item value = card();
    field_filter f;
    f.size_limits = {field_rule{"PHOTO", 1024}, field_rule{"NOTE", 1000}};
    EXPECT_EQ(apply_field_filter(f, value), std::vector<std::string>{"PHOTO"});
    const auto& c = std::get<contact>(value);
    EXPECT_EQ(c.note.size(), 300u);
    EXPECT_EQ(c.phones.size(), 1u);
}

TEST(field_filter, keeps_only_included_properties_and_those_that_identify_the_item) {
    item value = card();
    field_filter f;
    f.include = {field_rule{"TEL", std::nullopt}, field_rule{"NOTE", 100}};
    EXPECT_EQ(apply_field_filter(f, value), (std::vector<std::string>{"NOTE", "PHOTO", "X-SKYPE"}));
    const auto& c = std::get<contact>(value);
    EXPECT_EQ(c.formatted_name, "Jane Doe");  // always kept
    ASSERT_TRUE(c.name);
    EXPECT_EQ(c.phones.size(), 1u);
    EXPECT_TRUE(c.note.empty());  // included, but longer than its MaxSize
}

TEST(field_filter, takes_attachments_and_alarms_out_of_events_but_never_their_times) {
    item value = meeting();
    field_filter f;
    f.exclude = {"ATTACH", "VALARM", "DTSTART", "UID"};
    EXPECT_EQ(apply_field_filter(f, value), (std::vector<std::string>{"ATTACH", "VALARM"}));
    const auto& e = std::get<calendar>(value).components.front();
    EXPECT_TRUE(e.alarms.empty());
    EXPECT_TRUE(e.start);
    EXPECT_EQ(e.uid, "m1");
    EXPECT_EQ(e.description, "Agenda");
}

TEST(field_filter, filters_memo_extras_but_keeps_the_text) {
    item note = parse("Title\nbody text", item_dialect::plain_text);
    field_filter f;
    f.include = {field_rule{"CATEGORIES", std::nullopt}};
    EXPECT_TRUE(apply_field_filter(f, note).empty());
    EXPECT_EQ(std::get<memo>(note).summary, "Title");
}

}  // namespace
}  // namespace syncml::matching
