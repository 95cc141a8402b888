#include "session/codec/codec.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

// The Meta Type of a DevInf Put is rendered as the device sent it, whatever the encoding of the DevInf: a WBXML
// message may say "+xml" and a phone's WBXML that says "+wbxml" is shown so (issue 16, defect 11: the corpus
// message that looked rewritten carries "+wbxml" inline; its "+xml" is an unused string-table entry).

namespace syncml::session {
namespace {

constexpr const char* k_xml_type = "application/vnd.syncml-devinf+xml";
constexpr const char* k_wbxml_type = "application/vnd.syncml-devinf+wbxml";

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

message devinf_put(const std::string& type) {
    message m;
    m.encoding = wire_encoding::wbxml;
    m.header.ver_dtd = "1.2";
    m.header.ver_proto = "SyncML/1.2";
    m.header.session_id = "1";
    m.header.msg_id = "1";
    m.header.target.loc_uri = "http://server/sync";
    m.header.source.loc_uri = "phone";
    put p;
    p.cmd_id = "1";
    p.meta = meta_info{};
    p.meta->type = type;
    item it;
    it.source = location{"./devinf12", std::nullopt, std::nullopt};
    dev_inf info;
    info.ver_dtd = "1.2";
    info.dev_id = "phone";
    info.dev_typ = "phone";
    it.data = item_data{{}, info, std::nullopt};
    p.items.push_back(it);
    m.body.commands.push_back(command{p});
    m.body.final = true;
    return m;
}

TEST(codec_meta_type, a_wbxml_devinf_put_is_rendered_with_the_type_the_device_sent) {
    for (const std::string type : {k_xml_type, k_wbxml_type}) {
        const auto other = type == k_xml_type ? std::string(k_wbxml_type) : std::string(k_xml_type);
        auto wire = encode_wbxml(devinf_put(type));
        ASSERT_EQ(occurrences(wire, type), 1u) << "the WBXML carries " << type;
        auto decoded = decode(wire);
        ASSERT_TRUE(decoded);
        const auto& put_cmd = std::get<put>(decoded.value().body.commands.at(0).value);
        EXPECT_EQ(put_cmd.meta->type.value_or(""), type);
        ASSERT_TRUE(put_cmd.items.at(0).data->devinf) << "the DevInf is decoded inline";
        auto rendered = encode_xml_pretty(decoded.value());
        EXPECT_EQ(occurrences(rendered, type), 1u) << rendered;
        EXPECT_EQ(occurrences(rendered, other), 0u) << rendered;
    }
}

// A phone's message from the corpus: its WBXML names the type inline twice (Put and Get), "+wbxml"; the string
// table holds a "+xml" that no element refers to.
TEST(codec_meta_type, the_corpus_message_with_inline_devinf_says_wbxml_and_is_rendered_so) {
    auto path = std::filesystem::path(SYNCML_CORPUS_DIR) / "wbxml-stream/src/test/examples/syncml11/syncml-003.wbxml";
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << path;
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const auto wire = bytes.str();
    ASSERT_EQ(occurrences(wire, k_wbxml_type), 2u);
    auto decoded = decode(wire);
    ASSERT_TRUE(decoded);
    auto rendered = encode_xml_pretty(decoded.value());
    EXPECT_EQ(occurrences(rendered, k_wbxml_type), 2u) << rendered;
    EXPECT_EQ(occurrences(rendered, k_xml_type), 0u) << rendered;
}

}  // namespace
}  // namespace syncml::session
