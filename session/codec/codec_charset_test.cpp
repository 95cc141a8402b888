// Documents in the 8-bit charsets phones declare (XML encoding="ISO-8859-1"/"windows-1252", WBXML
// charset MIBenums) decode to UTF-8 text, and re-encode (always UTF-8) to the same model.
#include <gtest/gtest.h>
#include <iconv.h>

#include "session/codec/codec.hpp"
#include "session/codec/codec_test_util.hpp"

namespace syncml::session {
namespace {

// glibc iconv as the independent oracle for the 8-bit form of a UTF-8 document.
std::string from_utf8(const std::string& utf8, const char* charset) {
    iconv_t cd = iconv_open(charset, "UTF-8");
    EXPECT_NE(cd, reinterpret_cast<iconv_t>(-1)) << charset;
    std::string out(utf8.size() + 16, '\0');
    char* in_ptr = const_cast<char*>(utf8.data());
    std::size_t in_left = utf8.size();
    char* out_ptr = out.data();
    std::size_t out_left = out.size();
    EXPECT_NE(iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left), static_cast<std::size_t>(-1)) << charset;
    iconv_close(cd);
    out.resize(out.size() - out_left);
    return out;
}

std::string declared(const char* charset, const std::string& body) {
    return std::string("<?xml version=\"1.0\" encoding=\"") + charset + "\"?>\n" + body;
}

const std::string k_latin1_body =
    "<SyncML><SyncHdr><VerDTD>1.1</VerDTD><VerProto>SyncML/1.1</VerProto><SessionID>3</SessionID>"
    "<MsgID>1</MsgID><Target><LocURI>http://s/</LocURI></Target>"
    "<Source><LocURI>IMEI:1</LocURI><LocName>J\xC3\xBCrgen</LocName></Source></SyncHdr><SyncBody>"
    "<Add><CmdID>1</CmdID><Item><Source><LocURI>7</LocURI></Source><Data>BEGIN:VCARD\r\n"
    "N:M\xC3\xBCller;J\xC3\xBCrgen\r\nNOTE:Gr\xC3\xBC&amp;\xC3\x9F<![CDATA[ \xC3\xA9t\xC3\xA9]]>\r\nEND:VCARD\r\n"
    "</Data></Item></Add><Final/></SyncBody></SyncML>";

const std::string& vcard_of(const message& msg) {
    return std::get<add>(msg.body.commands.at(0).value).items.at(0).data->bytes;
}

TEST(xml_charset, an_iso_8859_1_document_decodes_to_the_model_of_its_utf8_twin) {
    const auto utf8 = decode(declared("UTF-8", k_latin1_body));
    const auto latin1_bytes = declared("ISO-8859-1", from_utf8(k_latin1_body, "ISO-8859-1"));
    ASSERT_NE(latin1_bytes.find("M\xFCller"), std::string::npos);
    const auto latin1 = decode(latin1_bytes);
    ASSERT_TRUE(utf8.ok() && latin1.ok()) << latin1.error().describe();
    EXPECT_TRUE(utf8.value() == latin1.value());
    EXPECT_EQ(latin1.value().header.source.loc_name, "J\xC3\xBCrgen");
    EXPECT_EQ(vcard_of(latin1.value()),
              "BEGIN:VCARD\r\nN:M\xC3\xBCller;J\xC3\xBCrgen\r\nNOTE:Gr\xC3\xBC&\xC3\x9F "
              "\xC3\xA9t\xC3\xA9\r\nEND:VCARD\r\n");
    // The encoders write UTF-8: the re-encoded message says so and keeps the text.
    const auto again = encode_xml(latin1.value());
    EXPECT_NE(again.find("encoding=\"UTF-8\""), std::string::npos);
    EXPECT_TRUE(decode(again).value() == latin1.value());
}

TEST(xml_charset, a_windows_1252_corpus_message_with_typographic_quotes_decodes_like_the_original) {
    // devaspot's sync_init.xml has curly quotes around xmlns values and in DevInf text: 0x91..0x94 in 1252.
    const auto original = test::read_bytes(test::corpus_dir() / "devaspot-syncml/apps/simple_sync/test/sync_init.xml");
    const auto cp1252 = declared("windows-1252", from_utf8(original, "WINDOWS-1252"));
    ASSERT_NE(cp1252.find("Jane\x92s phones"), std::string::npos);
    ASSERT_NE(cp1252.find("xmlns=\x92syncml:metinf\x92"), std::string::npos);
    const auto expected = decode(original);
    const auto converted = decode(cp1252);
    ASSERT_TRUE(expected.ok()) << expected.error().describe();
    ASSERT_TRUE(converted.ok()) << converted.error().describe();
    EXPECT_TRUE(expected.value() == converted.value()) << encode_xml_pretty(converted.value());
}

TEST(xml_charset, latin1_is_read_as_windows_1252_like_the_item_codecs_do) {
    const std::string euro_body =
        "<SyncML><SyncHdr><VerDTD>1.2</VerDTD><SessionID>1</SessionID><MsgID>1</MsgID>"
        "<Target><LocURI>5 \x80</LocURI></Target></SyncHdr><SyncBody/></SyncML>";
    auto euro = decode(declared("ISO-8859-1", euro_body));
    ASSERT_TRUE(euro.ok()) << euro.error().describe();
    EXPECT_EQ(euro.value().header.target.loc_uri, "5 \xE2\x82\xAC");
}

TEST(xml_charset, a_document_that_claims_latin1_but_is_utf8_keeps_its_text) {
    // Seen in syncgw's captures (mimedata/vcard21/in02.xml): the declaration says ISO-8859-1, the bytes are UTF-8.
    auto r = decode(declared("ISO-8859-1", k_latin1_body));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().header.source.loc_name, "J\xC3\xBCrgen");
}

TEST(xml_charset, an_unknown_charset_leaves_the_bytes_alone) {
    auto r = decode(declared("x-no-such-charset", from_utf8(k_latin1_body, "ISO-8859-1")));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().header.source.loc_name, "J\xFCrgen");
}

TEST(xml_charset, error_offsets_count_bytes_of_the_8bit_input) {
    const auto bytes = declared("ISO-8859-1", "<SyncML><SyncHdr><MsgID>\xE9\xE9\xE9</MsgRef></SyncHdr></SyncML>");
    auto r = decode(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().offset, bytes.find("</MsgRef>"));
}

std::string wbxml_with_charset(const std::string& mib, const std::string& loc_uri, const std::string& data) {
    auto str = [](const std::string& s) { return std::string("\x03", 1) + s + std::string(1, '\0'); };
    std::string w = "\x02\xA4\x01" + mib + std::string(1, '\0');  // 1.2, SyncML 1.2, table 0
    w += "\x6d\x6c\x71" + str("1.2") + "\x01";                    // SyncML SyncHdr VerDTD
    w += "\x65" + str("1") + "\x01\x5b" + str("1") + "\x01";      // SessionID MsgID
    w += "\x6e\x57" + str(loc_uri) + "\x01\x01\x01";              // Target/LocURI, </SyncHdr>
    w += "\x6b\x45\x4b" + str("1") + "\x01\x54\x4f\xC3" + static_cast<char>(data.size()) + data;  // Add Item Data
    w += std::string("\x01\x01\x01\x12\x01\x01", 6);  // </Data></Item></Add> Final </SyncBody></SyncML>
    return w;
}

TEST(wbxml_charset, strings_in_windows_1252_are_converted_and_opaque_data_is_kept) {
    const auto w = wbxml_with_charset("\x91\x4C", "5 \x80 caf\xE9", "N:\x80");  // MIBenum 2252
    auto r = decode(w);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r.value().header.target.loc_uri, "5 \xE2\x82\xAC caf\xC3\xA9");
    EXPECT_EQ(vcard_of(r.value()), "N:\x80");
    EXPECT_TRUE(decode(encode_wbxml(r.value())).value() == r.value());
}

TEST(wbxml_charset, iso_8859_2_strings_are_converted_by_mibenum) {
    auto r = decode(wbxml_with_charset("\x05",
                                       "\xB3\xF3"
                                       "d\xBC",
                                       "x"));  // "łódź" in ISO-8859-2 (MIBenum 5)
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r.value().header.target.loc_uri,
              "\xC5\x82\xC3\xB3"
              "d\xC5\xBA");
}

}  // namespace
}  // namespace syncml::session
