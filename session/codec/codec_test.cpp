// Codec behaviour on hand-made messages: namespaces, XML syntax variants, WBXML header variants,
// encoder output and size estimates.
#include "session/codec/codec.hpp"

#include <gtest/gtest.h>

namespace syncml::session {
namespace {

const std::string k_plain = R"(<SyncML><SyncHdr><VerDTD>1.2</VerDTD><VerProto>SyncML/1.2</VerProto>
<SessionID>7</SessionID><MsgID>1</MsgID><Target><LocURI>http://s/</LocURI></Target>
<Source><LocURI>IMEI:1</LocURI></Source><Meta><MaxMsgSize>5000</MaxMsgSize></Meta></SyncHdr>
<SyncBody><Add><CmdID>2</CmdID><Meta><Type>text/x-vcard</Type></Meta><Item><Source><LocURI>1</LocURI></Source>
<Data>BEGIN:VCARD&#13;
N:a&amp;b&lt;c&gt;&#13;
END:VCARD&#13;
</Data></Item></Add><Final/></SyncBody></SyncML>)";

const std::string k_declared =
    "\xEF\xBB\xBF"
    R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE SyncML PUBLIC "-//SYNCML//DTD SyncML 1.2//EN" "http://www.syncml.org/docs/syncml_represent_v12.dtd" [
  <!ENTITY x "y">
]>
<!-- captured -->
<s:SyncML xmlns:s='SYNCML:SYNCML1.2' xmlns:m="syncml:metinf"><s:SyncHdr><s:VerDTD>1.2</s:VerDTD>
<s:VerProto>SyncML/1.2</s:VerProto><s:SessionID> 7 </s:SessionID><s:MsgID>1</s:MsgID><s:Target><s:LocURI>http://s/</s:LocURI>
</s:Target><s:Source><s:LocURI>IMEI:1</s:LocURI></s:Source><s:Meta><m:MaxMsgSize>5000</m:MaxMsgSize></s:Meta>
</s:SyncHdr><s:SyncBody><s:Add><s:CmdID>2</s:CmdID><s:Meta><m:Type>text/x-vcard</m:Type></s:Meta><s:Item><s:Source>
<s:LocURI>1</s:LocURI></s:Source><s:Data><![CDATA[BEGIN:VCARD)"
    "\r\nN:a&b<c>\r\nEND:VCARD\r\n"
    R"(]]></s:Data></s:Item></s:Add><s:Final/></s:SyncBody></s:SyncML>)";

TEST(xml_decoder, namespaces_prefixes_bom_doctype_and_cdata_do_not_change_the_model) {
    auto a = decode(k_plain);
    auto b = decode(k_declared);
    ASSERT_TRUE(a.ok()) << a.error().describe();
    ASSERT_TRUE(b.ok()) << b.error().describe();
    EXPECT_TRUE(a.value() == b.value());
    const auto& add_cmd = std::get<add>(a.value().body.commands.at(0).value);
    EXPECT_EQ(add_cmd.items.at(0).data->bytes, "BEGIN:VCARD\r\nN:a&b<c>\r\nEND:VCARD\r\n");
    EXPECT_EQ(a.value().header.meta->max_msg_size, 5000u);
    EXPECT_TRUE(a.value().body.final);
}

TEST(xml_decoder, reports_offset_and_expected_end_tag_for_mismatched_tags) {
    auto r = decode(std::string("<SyncML><SyncHdr><MsgID>1</MsgRef></SyncHdr></SyncML>"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().offset, 25u);  // the '<' of </MsgRef>
    EXPECT_EQ(r.error().expected, "</MsgID>");
    EXPECT_NE(r.error().describe().find("offset 25"), std::string::npos);
}

TEST(xml_encoder, writes_the_namespace_of_the_message_version) {
    auto msg = decode(k_plain).value();
    for (auto [v, ns] :
         {std::pair{syncml_version::v1_0, "SYNCML:SYNCML1.0"}, std::pair{syncml_version::v1_1, "SYNCML:SYNCML1.1"},
          std::pair{syncml_version::v1_2, "SYNCML:SYNCML1.2"}}) {
        msg.version = v;
        const auto xml = encode_xml(msg);
        EXPECT_NE(xml.find(std::string("<SyncML xmlns=\"") + ns + "\">"), std::string::npos) << xml;
        EXPECT_NE(xml.find("<MaxMsgSize xmlns=\"syncml:metinf\">5000</MaxMsgSize>"), std::string::npos);
        EXPECT_EQ(encode_xml(msg), xml) << "deterministic";
    }
}

TEST(wbxml_encoder, uses_numeric_public_ids_opaque_item_data_and_switches_to_metinf) {
    auto msg = decode(k_plain).value();
    msg.version = syncml_version::v1_1;
    msg.header.ver_dtd = "1.1";
    const auto w = encode_wbxml(msg);
    EXPECT_EQ(w.substr(0, 4), std::string("\x02\x9f\x53\x6a", 4));     // WBXML 1.2, 0xFD3, UTF-8
    EXPECT_NE(w.find(std::string("\x00\x01", 2)), std::string::npos);  // SWITCH_PAGE 1
    EXPECT_NE(w.find("\xC3\x22"
                     "BEGIN:VCARD\r\n"),
              std::string::npos);  // OPAQUE, length 34
    auto back = decode(w);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back.value().version, syncml_version::v1_1);
}

TEST(wbxml_decoder, reads_string_public_ids_and_latin1_strings) {
    // Public id "-//SYNCML//DTD SyncML 1.1//EN" at string table index 0, charset ISO-8859-1 (4).
    const std::string id = "-//SYNCML//DTD SyncML 1.1//EN";
    std::string w = std::string("\x02\x00\x00\x04", 4) + static_cast<char>(id.size() + 1) + id + std::string(1, '\0');
    auto str = [](const std::string& s) { return std::string("\x03", 1) + s + std::string(1, '\0'); };
    w += "\x6d\x6c";                                               // SyncML, SyncHdr
    w += "\x71" + str("1.1") + "\x01";                             // VerDTD
    w += "\x65" + str("1") + "\x01" + "\x5b" + str("2") + "\x01";  // SessionID, MsgID
    w += "\x6e\x57" + str("caf\xE9") + "\x01\x01";                 // Target/LocURI in Latin-1
    w += "\x01\x6b\x12\x01\x01";                                   // </SyncHdr> SyncBody Final </SyncBody> </SyncML>
    auto r = decode(w);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r.value().version, syncml_version::v1_1);
    EXPECT_EQ(r.value().header.target.loc_uri, "caf\xC3\xA9");
    EXPECT_TRUE(r.value().body.final);
}

TEST(codec, command_size_estimate_bounds_what_the_command_adds) {
    auto msg = decode(k_plain).value();
    for (auto e : {wire_encoding::xml, wire_encoding::wbxml}) {
        auto without = msg;
        without.body.commands.clear();
        const auto grown = encoded_size(msg, e) - encoded_size(without, e);
        EXPECT_GE(encoded_size(msg.body.commands[0], msg.version, e), grown);
        EXPECT_EQ(encoded_size(msg, e), encode(msg, e).size());
    }
}

TEST(codec, devinf_sent_as_escaped_text_decodes_like_inline_devinf) {
    const std::string devinf =
        "<DevInf xmlns='syncml:devinf'><VerDTD>1.1</VerDTD><DevID>d</DevID><DevTyp>phone</DevTyp>"
        "<DataStore><SourceRef>./c</SourceRef></DataStore></DevInf>";
    std::string escaped;
    for (char c : devinf) escaped += c == '<' ? std::string("&lt;") : std::string(1, c);
    auto wrap = [](const std::string& data) {
        return "<SyncML><SyncHdr><VerDTD>1.1</VerDTD><SessionID>1</SessionID><MsgID>1</MsgID></SyncHdr><SyncBody>"
               "<Put><CmdID>1</CmdID><Item><Data>" +
               data + "</Data></Item></Put></SyncBody></SyncML>";
    };
    auto inline_form = decode(wrap(devinf));
    auto escaped_form = decode(wrap(escaped));
    ASSERT_TRUE(inline_form.ok() && escaped_form.ok());
    EXPECT_TRUE(inline_form.value() == escaped_form.value());
    const auto& data = std::get<put>(inline_form.value().body.commands[0].value).items[0].data;
    ASSERT_TRUE(data->devinf.has_value());
    EXPECT_EQ(data->devinf->datastores.at(0).source_ref, "./c");
}

}  // namespace
}  // namespace syncml::session
