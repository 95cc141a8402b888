// The real device items syncgw keeps wrapped in <Data> (vCard 2.1 with photos, Symbian and Sony Ericsson
// vCalendar 1.0, iCalendar, vNote 1.1) parse and round-trip in their own dialect and through the other one.
#include <gtest/gtest.h>

#include "matching/convert/corpus_test_support.hpp"
#include "matching/convert/item_format.hpp"

namespace syncml::matching {
namespace {

std::string xml_unescape(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '&') {
            out += text[i];
            continue;
        }
        auto semi = text.find(';', i);
        if (semi == std::string_view::npos) {
            out += text[i];
            continue;
        }
        std::string_view entity = text.substr(i + 1, semi - i - 1);
        if (entity == "lt")
            out += '<';
        else if (entity == "gt")
            out += '>';
        else if (entity == "amp")
            out += '&';
        else if (entity == "quot")
            out += '"';
        else if (entity == "apos")
            out += '\'';
        else if (entity.starts_with("#x"))
            out += static_cast<char>(std::stoi(std::string(entity.substr(2)), nullptr, 16));
        else if (entity.starts_with("#"))
            out += static_cast<char>(std::stoi(std::string(entity.substr(1))));
        else
            out.append(text.substr(i, semi - i + 1));
        i = semi;
    }
    return out;
}

std::string data_of(const std::string& xml) {
    auto begin = xml.find("<Data>");
    auto end = xml.rfind("</Data>");
    if (begin == std::string::npos || end == std::string::npos || end < begin) return {};
    std::string_view inner(xml.data() + begin + 6, end - begin - 6);
    if (inner.starts_with("<![CDATA[") && inner.ends_with("]]>"))
        return std::string(inner.substr(9, inner.size() - 12));
    return xml_unescape(inner);
}

item_dialect other_of(item_dialect d) {
    switch (d) {
        case item_dialect::vcard21:
            return item_dialect::vcard30;
        case item_dialect::vcard30:
            return item_dialect::vcard21;
        case item_dialect::vcal10:
            return item_dialect::ical20;
        case item_dialect::ical20:
            return item_dialect::vcal10;
        default:
            return d;
    }
}

TEST(device_items, syncgw_items_round_trip) {
    int checked = 0, notes = 0;
    for (const auto& path : testing::corpus_files({".xml"})) {
        std::string name = testing::corpus_name(path);
        if (!name.starts_with("syncgw/test/mimedata/") || name.find("/wbxml/") != std::string::npos) continue;
        // Not an item: a property walkthrough with "* " commentary lines between the properties.
        if (name == "syncgw/test/mimedata/vevent/in01.xml") continue;
        std::string data = data_of(testing::read_file(path));
        auto dialect = detect_dialect(data);
        ASSERT_TRUE(dialect) << name;
        auto parsed = parse_item(data, *dialect);
        ASSERT_TRUE(parsed) << name << ": " << parsed.error().to_string();
        for (auto via : {*dialect, other_of(*dialect)}) {
            auto text = serialize_item(*parsed, via);
            ASSERT_TRUE(text) << name;
            auto middle = parse_item(*text, via);
            ASSERT_TRUE(middle) << name << ": " << middle.error().to_string();
            auto back = parse_item(*serialize_item(*middle, *dialect), *dialect);
            ASSERT_TRUE(back) << name;
            EXPECT_TRUE(*back == *parsed) << name << " via " << name_of(via) << "\n" << *text;
        }
        notes += *dialect == item_dialect::vnote11;
        ++checked;
    }
    EXPECT_GE(checked, 35);
    EXPECT_GE(notes, 5);
}

}  // namespace
}  // namespace syncml::matching
