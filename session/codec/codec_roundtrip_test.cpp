// Regression cases the round-trip fuzzers found: inputs that decoded, but whose re-encoding (XML or
// WBXML) decoded to a different model. Each test states the shape of the input that lost something.
#include <gtest/gtest.h>

#include "session/codec/codec.hpp"
#include "session/codec/codec_test_util.hpp"

namespace syncml::session {
namespace {

// The property the fuzzers assert: encode(decode(x)) decodes to decode(x), in both encodings.
void expect_roundtrip(const std::string& bytes) {
    auto first = decode(bytes);
    ASSERT_TRUE(first.ok()) << first.error().describe();
    for (auto e : {wire_encoding::xml, wire_encoding::wbxml}) {
        auto again = decode(encode(first.value(), e));
        ASSERT_TRUE(again.ok()) << again.error().describe();
        auto expected = first.value();
        expected.encoding = e;
        EXPECT_TRUE(again.value() == expected) << encode_xml_pretty(expected) << "\n----\n"
                                               << encode_xml_pretty(again.value());
    }
}

message put_message(std::string data_bytes) {
    message msg;
    msg.version = syncml_version::v1_1;
    msg.header.ver_dtd = "1.1";
    msg.header.ver_proto = "SyncML/1.1";
    msg.header.session_id = "1";
    msg.header.msg_id = "1";
    put p;
    p.cmd_id = "1";
    item it;
    it.data = item_data{std::move(data_bytes), std::nullopt, std::nullopt};
    p.items.push_back(std::move(it));
    msg.body.commands.push_back(command{std::move(p)});
    return msg;
}

dev_inf small_devinf() {
    dev_inf info;
    info.ver_dtd = "1.1";
    info.dev_id = "IMEI:1";
    info.dev_typ = "phone";
    info.datastores.emplace_back().source_ref = "./contacts";
    return info;
}

TEST(codec_roundtrip, nested_devinf_next_to_child_elements_in_wbxml_data_is_found_like_after_reencoding) {
    // WBXML <Data> holding an opaque nested DevInf document followed by a child element (<Final/>):
    // the child made the decoder skip the DevInf check, the re-encoded message (children dropped) found it.
    const auto devinf = encode_devinf_wbxml(small_devinf());
    auto w = encode_wbxml(put_message("@@"));
    const std::string placeholder("\xC3\x02@@", 4);
    const auto at = w.find(placeholder);
    ASSERT_NE(at, std::string::npos);
    ASSERT_LT(devinf.size(), 0x80u);
    w.replace(at, placeholder.size(), "\xC3" + std::string(1, static_cast<char>(devinf.size())) + devinf + "\x12");
    auto r = decode(w);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto& data = std::get<put>(r.value().body.commands.at(0).value).items.at(0).data;
    ASSERT_TRUE(data->devinf.has_value());
    EXPECT_TRUE(*data->devinf == small_devinf());
    expect_roundtrip(w);
}

TEST(codec_roundtrip, nested_ctcaps_in_a_devinf_1_1_keep_max_occur_and_no_truncate) {
    // DevInf 1.1 is written with flat CTCaps, which have no MaxOccur/NoTruncate: devices that mix the
    // styles sent them nested, and the flat re-encoding dropped them.
    const std::string xml =
        "<SyncML><SyncHdr><VerDTD>1.1</VerDTD><SessionID>1</SessionID><MsgID>1</MsgID></SyncHdr><SyncBody>"
        "<Put><CmdID>1</CmdID><Item><Data><DevInf xmlns='syncml:devinf'><VerDTD>1.1</VerDTD><DevID>x</DevID>"
        "<DevTyp>phone</DevTyp><DataStore><SourceRef>c</SourceRef><CTCap><CTType>text/x-vcard</CTType>"
        "<Property><PropName>N</PropName><MaxOccur>1</MaxOccur><NoTruncate/></Property></CTCap></DataStore>"
        "<CTCap><CTType>text/x-vcalendar</CTType><Property><PropName>SUMMARY</PropName><MaxSize>64</MaxSize>"
        "<NoTruncate/></Property></CTCap></DevInf></Data></Item></Put></SyncBody></SyncML>";
    auto r = decode(xml);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto& info = *std::get<put>(r.value().body.commands.at(0).value).items.at(0).data->devinf;
    EXPECT_EQ(info.datastores.at(0).ct_caps.at(0).properties.at(0).max_occur, 1u);
    EXPECT_TRUE(info.ct_caps.at(0).properties.at(0).no_truncate);
    expect_roundtrip(xml);
    EXPECT_TRUE(decode_devinf(encode_devinf_wbxml(info)).value() == info);
    EXPECT_TRUE(decode_devinf(encode_devinf_xml(info)).value() == info);
}

TEST(codec_roundtrip, flat_ctcaps_of_devinf_1_1_stay_flat_when_nothing_is_lost) {
    dev_inf info = small_devinf();
    auto& cap = info.datastores[0].ct_caps.emplace_back();
    cap.ct_type = "text/x-vcard";
    cap.properties.push_back(ct_property{"TEL", {}, {}, 20, false, {"HOME", "WORK"}, {}, {}});
    const auto xml = encode_devinf_xml(info);
    EXPECT_EQ(xml.find("<Property>"), std::string::npos) << xml;
    EXPECT_NE(xml.find("<PropName>TEL</PropName><ValEnum>HOME</ValEnum>"), std::string::npos) << xml;
    EXPECT_TRUE(decode_devinf(xml).value() == info);
}

}  // namespace
}  // namespace syncml::session
