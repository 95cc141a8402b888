#include <gtest/gtest.h>

#include "matching/sif/sif_test_support.hpp"

namespace syncml::matching {
namespace {

using testing::sif_or_fail;
using testing::written;

constexpr std::string_view k_note = R"(<?xml version="1.0" encoding="UTF-8"?>
<note><SIFVersion>1.1</SIFVersion><Subject>Shopping</Subject><Body>Shopping
milk &amp; eggs</Body><Categories>Personal</Categories><Color>1</Color><Height>200</Height><Width>180</Width>
<Left>80</Left><Top>80</Top></note>)";

TEST(sif_note, reads_subject_and_body_as_a_memo) {
    auto m = std::get<memo>(sif_or_fail(k_note));
    EXPECT_EQ(m.summary, "Shopping");
    EXPECT_EQ(m.body, "Shopping\nmilk & eggs");
    EXPECT_EQ(m.categories, std::vector<std::string>{"Personal"});
    EXPECT_EQ(written(item{m}, item_dialect::plain_text), "Shopping\r\nmilk & eggs");
}

TEST(sif_note, makes_a_subject_the_body_lacks_its_first_line) {
    auto m = std::get<memo>(sif_or_fail(testing::sif_document("note", {{"Subject", "Title"}, {"Body", "text"}})));
    EXPECT_EQ(m.body, "Title\ntext");
    auto untitled = std::get<memo>(sif_or_fail(testing::sif_document("note", {{"Body", "first\nsecond"}})));
    EXPECT_EQ(untitled.summary, "first");
}

TEST(sif_note, keeps_the_text_through_plain_text_vnote_and_journal) {
    testing::expect_sif_survives(testing::sif_document("note", {{"Subject", "a"}, {"Body", "a\nb"}}),
                                 item_dialect::sifn, item_dialect::plain_text);
    testing::expect_sif_survives(k_note, item_dialect::sifn, item_dialect::vnote11);
    auto journal = parse_item(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VJOURNAL\r\nUID:j1\r\nSUMMARY:Diary\r\n"
        "DESCRIPTION:today\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n",
        item_dialect::ical20);
    ASSERT_TRUE(journal);
    auto sif = written(*journal, item_dialect::sifn);
    EXPECT_NE(sif.find("<Subject>Diary</Subject>\n<Body>Diary\ntoday</Body>"), std::string::npos) << sif;
}

}  // namespace
}  // namespace syncml::matching
