// Hostile input against the decoders (issue 15): every input here is a few KB to a few MB that once cost
// hundreds of MB or seconds to minutes of CPU. Each must come back as a decode error (the engine answers
// 400) or as a bounded model; the assertions are on what was decoded, never on time.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "session/codec/codec.hpp"
#include "session/codec/codec_budget.hpp"

namespace syncml::session {
namespace {

const std::string k_header =
    "<SyncML><SyncHdr><VerDTD>1.2</VerDTD><SessionID>1</SessionID><MsgID>1</MsgID></SyncHdr><SyncBody>";
const std::string k_footer = "</SyncBody></SyncML>";

std::string repeated(std::string_view unit, std::size_t count) {
    std::string out;
    out.reserve(unit.size() * count);
    for (std::size_t i = 0; i < count; ++i) out += unit;
    return out;
}

std::string mb_uint(std::uint32_t value) {
    std::string out(1, static_cast<char>(value & 0x7F));
    while (value >>= 7) out.insert(out.begin(), static_cast<char>(0x80 | (value & 0x7F)));
    return out;
}

// A WBXML SyncML 1.2 message whose string table is `entry` and whose body is one Alert with `references`
// STR_T references to it as its Data: the amplification attack, 2 bytes of input per copy of the entry.
std::string wbxml_alert_of_references(const std::string& entry, std::size_t references) {
    using namespace std::string_literals;
    std::string out = "\x02\xA4\x01\x6A"s + mb_uint(static_cast<std::uint32_t>(entry.size() + 1)) + entry + '\0';
    out +=
        "\x6D\x6C\x71\x03"
        "1.2\0\x01\x65\x03"
        "1\0\x01\x5B\x03"
        "1\0\x01\x01"s;  // SyncML, SyncHdr
    out +=
        "\x6B\x46\x4B\x03"
        "1\0\x01\x4F"s;  // SyncBody, Alert, CmdID, Data
    out += repeated("\x83\x00"s, references);
    out += "\x01\x01\x01\x01"s;  // Data, Alert, SyncBody, SyncML
    return out;
}

TEST(codec_limits, wbxml_string_table_references_past_the_text_budget_are_rejected) {
    const auto bytes = wbxml_alert_of_references(std::string(8000, 'A'), 2000);
    ASSERT_LT(bytes.size(), 16u << 10);  // 16 MB of text from 12 KB
    auto result = decode(bytes);
    ASSERT_FALSE(result.ok()) << "decoded an Alert of "
                              << std::get<alert>(result.value().body.commands.at(0).value).data->size() << " bytes";
    EXPECT_EQ(result.error().expected, k_text_limit_expected);
    // Stopped at the budget (14 copies of the entry), not at the end of the 2,000.
    const auto first_reference = bytes.find(std::string("\x83\x00", 2));
    EXPECT_LT(result.error().offset, first_reference + 2 * 100);
    EXPECT_TRUE(result.error().header.has_value());  // still answerable with a SyncML status
}

TEST(codec_limits, wbxml_string_table_references_within_the_budget_still_decode) {
    const auto bytes = wbxml_alert_of_references(std::string(2000, 'A'), 20);
    auto result = decode(bytes);
    ASSERT_TRUE(result.ok()) << result.error().describe();
    EXPECT_EQ(std::get<alert>(result.value().body.commands.at(0).value).data, std::string(40'000, 'A'));
}

TEST(codec_limits, a_body_of_ampersands_decodes_as_text_in_linear_work) {
    // 4 MB of bare '&': each looked for its ';' to the end of the input before (1.5 MB took 10 s, this
    // minutes), now within the longest entity name. Bare '&' stays text, as before.
    const std::string ampersands(4u << 20, '&');
    const auto bytes = k_header + "<Alert><CmdID>1</CmdID><Data>" + ampersands + "</Data></Alert>" + k_footer;
    auto result = decode(bytes);
    ASSERT_TRUE(result.ok()) << result.error().describe();
    const auto& a = std::get<alert>(result.value().body.commands.at(0).value);
    EXPECT_EQ(a.data, ampersands);
}

TEST(codec_limits, entities_are_still_found_within_their_longest_name) {
    auto result =
        decode(k_header + "<Alert><CmdID>1</CmdID><Data>&amp;&#0001114111;&#x41;& amp;&#65</Data></Alert>" + k_footer);
    ASSERT_TRUE(result.ok()) << result.error().describe();
    EXPECT_EQ(std::get<alert>(result.value().body.commands.at(0).value).data,
              "&\xF4\x8F\xBF\xBF"
              "A& amp;&#65");
}

TEST(codec_limits, a_million_nested_xml_elements_are_rejected_at_the_depth_limit) {
    const auto bytes = k_header + repeated("<Atomic>", 1'000'000);
    auto result = decode(bytes);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().expected, "nesting within depth limit");
    EXPECT_LT(result.error().offset, 64u * 8 + k_header.size());
    ASSERT_TRUE(result.error().header.has_value());  // still answerable with a SyncML status
}

TEST(codec_limits, a_million_nested_wbxml_elements_are_rejected_at_the_depth_limit) {
    // Version 1.2, SyncML 1.2 public id, UTF-8, empty string table, then <SyncML> with content forever.
    std::string bytes("\x02\xA4\x01\x6A\x00", 5);
    bytes.append(1'000'000, '\x6D');
    auto result = decode(bytes);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().expected, "nesting within depth limit");
    EXPECT_LT(result.error().offset, 100u);
}

TEST(codec_limits, nested_data_elements_do_not_copy_their_content_once_per_level) {
    // Each <Data> with child elements keeps its source as raw text: 50 levels around 1 MB were 50 MB.
    const auto bytes = k_header + "<Add><CmdID>1</CmdID><Item>" + repeated("<Data>", 50) + "<x/>" +
                       std::string(1u << 20, 'x') + repeated("</Data>", 50) + "</Item></Add>" + k_footer;
    auto result = decode(bytes);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().expected, k_text_limit_expected);
}

TEST(codec_limits, an_element_flood_is_rejected_at_the_element_limit) {
    const auto bytes = k_header + "<Alert><CmdID>1</CmdID>" + repeated("<a/>", 150'000) + "</Alert>" + k_footer;
    auto result = decode(bytes);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().expected, "element count within limit");
}

TEST(codec_limits, a_flood_of_empty_commands_is_rejected_at_the_model_limit) {
    // 6 bytes of <Add/> became a ~4 KB command: 1.2 MB of them took 1 GB.
    const auto bytes = k_header + repeated("<Add/>", 90'000) + k_footer;
    auto result = decode(bytes);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().expected, k_model_limit_expected);
    const decode_limits defaults;
    EXPECT_LT(result.error().offset, bytes.size() / 2);
    EXPECT_LE(defaults.max_model_bytes / sizeof(command), 10'000u);
}

TEST(codec_limits, a_flood_of_items_is_rejected_at_the_model_limit) {
    const auto bytes = k_header + "<Add><CmdID>1</CmdID>" + repeated("<Item/>", 90'000) + "</Add>" + k_footer;
    auto result = decode(bytes);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().expected, k_model_limit_expected);
}

TEST(codec_limits, devinf_documents_in_item_data_share_the_message_model_budget) {
    // Each escaped DevInf document alone fits; together they exceed the budget given here.
    const auto devinf =
        "&lt;DevInf&gt;&lt;VerDTD&gt;1.2&lt;/VerDTD&gt;" + repeated("&lt;DataStore/&gt;", 20) + "&lt;/DevInf&gt;";
    const auto put = "<Put><CmdID>1</CmdID><Item><Data>" + devinf + "</Data></Item></Put>";
    decode_limits limits;
    limits.max_model_bytes = 100 * sizeof(item) + 30 * 20 * sizeof(datastore);
    auto few = decode(k_header + repeated(put, 20) + k_footer, limits);
    ASSERT_TRUE(few.ok()) << few.error().describe();
    auto many = decode(k_header + repeated(put, 40) + k_footer, limits);
    ASSERT_FALSE(many.ok());
}

TEST(codec_limits, a_devinf_document_past_the_model_limit_is_rejected) {
    const auto bytes = "<DevInf><VerDTD>1.2</VerDTD>" + repeated("<DataStore/>", 90'000) + "</DevInf>";
    auto result = decode_devinf(bytes);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().expected, k_model_limit_expected);
}

}  // namespace
}  // namespace syncml::session
