// libwbxml2 as an independent oracle: our WBXML, decoded by libwbxml2, is the same document as our
// XML. Test-only dependency; the product never links libwbxml2.
#include <gtest/gtest.h>
#include <wbxml/wbxml.h>

#include <cstdlib>

#include "session/codec/codec.hpp"
#include "session/codec/codec_test_util.hpp"
#include "session/codec/xml_reader.hpp"

namespace syncml::session {
namespace {

std::optional<std::string> libwbxml_to_xml(const std::string& wbxml) {
    WBXMLConvWBXML2XML* conv = nullptr;
    if (wbxml_conv_wbxml2xml_create(&conv) != WBXML_OK) return std::nullopt;
    wbxml_conv_wbxml2xml_set_gen_type(conv, WBXML_GEN_XML_COMPACT);
    wbxml_conv_wbxml2xml_enable_preserve_whitespaces(conv);
    WB_UTINY* xml = nullptr;
    WB_ULONG xml_len = 0;
    std::string input = wbxml;
    auto rc = wbxml_conv_wbxml2xml_run(conv, reinterpret_cast<WB_UTINY*>(input.data()),
                                       static_cast<WB_ULONG>(input.size()), &xml, &xml_len);
    wbxml_conv_wbxml2xml_destroy(conv);
    if (rc != WBXML_OK) return std::nullopt;
    std::string out(reinterpret_cast<const char*>(xml), xml_len);
    std::free(xml);
    return out;
}

codec_node parse(const std::string& xml) {
    auto doc = read_xml(xml, decode_limits{});
    EXPECT_FALSE(doc.error) << doc.error->describe();
    return doc.root;
}

// libwbxml2 rewrites a MetInf Type "...+wbxml" to "...+xml" when it produces XML.
std::string content_type_agnostic(const codec_node& node) {
    if (node.name != "Type" || !node.text.ends_with("+wbxml")) return node.text;
    return node.text.substr(0, node.text.size() - 6) + "+xml";
}

// Same names, same text (libwbxml may re-indent, so whitespace around child elements is ignored),
// same children. Nested DevInf documents are compared separately (see below): libwbxml2 0.11 does
// not switch to the DevInf token table inside a SyncML document.
void expect_same(const codec_node& ours, const codec_node& oracle, const std::string& where) {
    ASSERT_EQ(ours.name, oracle.name) << where;
    const auto path = where + "/" + ours.name;
    if (ours.name == "Data" && ours.child("DevInf")) return;
    // Other nested WBXML documents (OMA DM DDF) stay opaque bytes for us; libwbxml2 expands them.
    if (ours.name == "Data" && !ours.text.empty() && static_cast<unsigned char>(ours.text[0]) <= 3) return;
    if (ours.children.empty()) {
        EXPECT_EQ(content_type_agnostic(ours), content_type_agnostic(oracle)) << path;
    }
    ASSERT_EQ(ours.children.size(), oracle.children.size()) << path;
    for (std::size_t i = 0; i < ours.children.size(); ++i) expect_same(ours.children[i], oracle.children[i], path);
}

void collect_devinfs(const std::vector<command>& commands, std::vector<dev_inf>& out) {
    for (const auto& c : commands) {
        std::visit(
            [&out](const auto& v) {
                if constexpr (requires { v.items; }) {
                    if constexpr (std::is_same_v<decltype(v.items), const std::vector<item>&> ||
                                  std::is_same_v<std::decay_t<decltype(v.items)>, std::vector<item>>) {
                        for (const auto& it : v.items)
                            if (it.data && it.data->devinf) out.push_back(*it.data->devinf);
                    }
                }
                if constexpr (requires { v.commands; }) collect_devinfs(v.commands, out);
            },
            c.value);
    }
}

TEST(wbxml_oracle, libwbxml2_reads_our_wbxml_as_our_xml_for_every_corpus_message) {
    int compared = 0;
    for (const auto& path : test::message_files()) {
        auto decoded = decode(test::read_bytes(path));
        if (!decoded.ok()) continue;
        const auto name = test::relative_name(path);
        auto oracle_xml = libwbxml_to_xml(encode_wbxml(decoded.value()));
        ASSERT_TRUE(oracle_xml) << name << ": libwbxml2 rejected our WBXML";
        expect_same(parse(encode_xml(decoded.value())), parse(*oracle_xml), name);
        ++compared;
    }
    EXPECT_GE(compared, 60);
}

TEST(wbxml_oracle, libwbxml2_reads_our_nested_devinf_documents_as_our_xml) {
    std::vector<dev_inf> infos;
    for (const auto& path : test::message_files()) {
        auto decoded = decode(test::read_bytes(path));
        if (decoded.ok()) collect_devinfs(decoded.value().body.commands, infos);
        auto standalone = decode_devinf(test::read_bytes(path));
        if (standalone.ok()) infos.push_back(standalone.value());
    }
    ASSERT_GE(infos.size(), 10u);
    for (const auto& info : infos) {
        auto oracle_xml = libwbxml_to_xml(encode_devinf_wbxml(info));
        ASSERT_TRUE(oracle_xml) << "DevInf " << info.dev_id;
        expect_same(parse(encode_devinf_xml(info)), parse(*oracle_xml), "DevInf " + info.dev_id);
    }
}

}  // namespace
}  // namespace syncml::session
