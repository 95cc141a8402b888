// OMA field filters on the wire (issue 18): the DevInf <Property> list inside <Filter><Field> survives both
// encodings and reads as the properties the device wants.
#include "session/engine/field_filter_codec.hpp"

#include <gtest/gtest.h>

#include <string>

#include "session/codec/codec.hpp"
#include "session/codec/codec_model.hpp"
#include "session/codec/xml_reader.hpp"

namespace syncml::session {
namespace {

const std::string k_alert_with_field_filter = R"(<SyncML xmlns="SYNCML:SYNCML1.2"><SyncHdr><VerDTD>1.2</VerDTD>
<VerProto>SyncML/1.2</VerProto><SessionID>1</SessionID><MsgID>1</MsgID><Target><LocURI>http://s/</LocURI></Target>
<Source><LocURI>IMEI:1</LocURI></Source></SyncHdr><SyncBody><Alert><CmdID>1</CmdID><Data>200</Data><Item><Target>
<LocURI>./contacts</LocURI><Filter><Meta><Type xmlns="syncml:metinf">text/vcard</Type></Meta><Field><Item><Meta>
<Type xmlns="syncml:metinf">application/vnd.syncml-devinf+xml</Type></Meta><Data><Property><PropName>N</PropName>
</Property><Property><PropName>TEL</PropName><MaxSize>40</MaxSize></Property></Data></Item></Field></Filter></Target>
<Source><LocURI>./c</LocURI></Source><Meta><Anchor xmlns="syncml:metinf"><Next>1</Next></Anchor></Meta></Item>
</Alert><Final/></SyncBody></SyncML>)";

const filter_part& field_of(const message& m) {
    const auto& a = std::get<alert>(m.body.commands.at(0).value);
    return *a.items.at(0).target->filter->field;
}

TEST(field_filter_codec, the_property_list_of_an_xml_alert_reads_as_the_properties_asked_for) {
    auto decoded = decode(k_alert_with_field_filter);
    ASSERT_TRUE(decoded.ok()) << decoded.error().describe();
    const auto& field = field_of(decoded.value());
    EXPECT_EQ(field.meta->type, "application/vnd.syncml-devinf+xml");
    auto properties = field_filter_properties(field.data.value());
    ASSERT_TRUE(properties);
    ASSERT_EQ(properties->size(), 2u);
    EXPECT_EQ(properties->at(0).prop_name, "N");
    EXPECT_FALSE(properties->at(0).max_size);
    EXPECT_EQ(properties->at(1).prop_name, "TEL");
    EXPECT_EQ(properties->at(1).max_size, 40u);
}

TEST(field_filter_codec, the_property_list_survives_wbxml_and_xml_reencoding) {
    const auto first = decode(k_alert_with_field_filter).value();
    for (auto encoding : {wire_encoding::wbxml, wire_encoding::xml}) {
        auto again = decode(encode(first, encoding));
        ASSERT_TRUE(again.ok()) << again.error().describe();
        EXPECT_EQ(field_of(again.value()), field_of(first));
        EXPECT_EQ(field_filter_properties(*field_of(again.value()).data)->size(), 2u);
    }
}

// The field filter's <Data> of a document read as XML, found by path.
codec_node* field_data(codec_node& root) {
    codec_node* at = &root;
    for (const char* name : {"SyncBody", "Alert", "Item", "Target", "Filter", "Field", "Item", "Data"}) {
        codec_node* next = nullptr;
        for (auto& c : at->children)
            if (c.name == name) next = &c;
        if (!next) return nullptr;
        at = next;
    }
    return at;
}

// WBXML brings a field filter's properties as elements, which the decoder writes out as XML: a million of them must
// not turn into megabytes of text first.
TEST(field_filter_codec, property_elements_beyond_64_kib_of_xml_fail_the_message_before_they_are_written) {
    for (std::size_t count : {std::size_t{10}, std::size_t{100'000}}) {
        auto doc = read_xml(k_alert_with_field_filter, decode_limits{});
        ASSERT_FALSE(doc.error);
        auto* data = field_data(doc.root);
        ASSERT_NE(data, nullptr);
        data->raw.reset();
        data->children.clear();
        for (std::size_t i = 0; i < count; ++i) data->add("Property").add("PropName", "N");
        auto decoded = message_from_tree(doc.root, decode_limits{}, std::nullopt);
        if (count == 10) {
            ASSERT_TRUE(std::holds_alternative<message>(decoded));
            EXPECT_EQ(field_filter_properties(*field_of(std::get<message>(decoded)).data)->size(), 10u);
        } else {
            ASSERT_TRUE(std::holds_alternative<decode_error>(decoded));
            EXPECT_NE(std::get<decode_error>(decoded).expected.find("filter data"), std::string::npos);
        }
    }
}

TEST(field_filter_codec, text_that_lists_no_property_is_not_a_field_filter) {
    EXPECT_FALSE(field_filter_properties(""));
    EXPECT_FALSE(field_filter_properties("PHOTO"));
    EXPECT_FALSE(field_filter_properties("<Property><PropName>N</PropName>"));               // not closed
    EXPECT_FALSE(field_filter_properties("<Property><DataType>chr</DataType></Property>"));  // no name
    EXPECT_FALSE(field_filter_properties("</Field><Property><PropName>N</PropName></Property><Field>"));
    std::string deep;
    for (int i = 0; i < 20; ++i) deep += "<a>";
    deep += "<Property><PropName>N</PropName></Property>";
    for (int i = 0; i < 20; ++i) deep += "</a>";
    EXPECT_FALSE(field_filter_properties(deep)) << "nesting beyond a DevInf's is refused, not walked";
}

}  // namespace
}  // namespace syncml::session
