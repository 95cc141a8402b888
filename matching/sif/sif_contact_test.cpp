#include <gtest/gtest.h>

#include "matching/sif/sif_test_support.hpp"

namespace syncml::matching {
namespace {

using testing::sif_or_fail;
using testing::written;

// In the style of Funambol's SIF-C documentation, with Outlook's empty fields and one it does not know.
constexpr std::string_view k_contact = R"(<?xml version="1.0" encoding="UTF-8"?>
<contact>
<SIFVersion>1.1</SIFVersion>
<FileAs>Rossi, Anna Maria</FileAs>
<FirstName>Anna</FirstName>
<MiddleName>Maria</MiddleName>
<LastName>Rossi</LastName>
<Title>Dr.</Title>
<Suffix>Jr.</Suffix>
<NickName>Annie</NickName>
<CompanyName>Acme &amp; Sons</CompanyName>
<Department>R&amp;D</Department>
<JobTitle>Engineer</JobTitle>
<BusinessTelephoneNumber>+39 0523 111111</BusinessTelephoneNumber>
<Business2TelephoneNumber>+39 0523 222222</Business2TelephoneNumber>
<BusinessFaxNumber>+39 0523 333333</BusinessFaxNumber>
<HomeTelephoneNumber>+39 0523 444444</HomeTelephoneNumber>
<MobileTelephoneNumber>+39 333 5555555</MobileTelephoneNumber>
<OtherTelephoneNumber>+39 0523 666666</OtherTelephoneNumber>
<PagerNumber/>
<Email1Address>anna@example.com</Email1Address>
<Email2Address>anna@home.example</Email2Address>
<Email3Address>anna.rossi@acme.example</Email3Address>
<WebPage>http://acme.example/</WebPage>
<HomeWebPage>http://anna.example/</HomeWebPage>
<BusinessAddressStreet>Via Roma 1</BusinessAddressStreet>
<BusinessAddressCity>Piacenza</BusinessAddressCity>
<BusinessAddressState>PC</BusinessAddressState>
<BusinessAddressPostalCode>29121</BusinessAddressPostalCode>
<BusinessAddressCountry>Italia</BusinessAddressCountry>
<HomeAddressStreet>Via Po 2</HomeAddressStreet>
<HomeAddressCity>Castel San Giovanni</HomeAddressCity>
<HomeAddressPostOfficeBox>12</HomeAddressPostOfficeBox>
<OtherAddressCity/>
<Birthday>1980-01-31</Birthday>
<Anniversary>2005-06-18</Anniversary>
<Spouse>Marco</Spouse>
<Body>First line
second line with &lt;markup&gt; and ümlauts</Body>
<Categories>Business, VIP</Categories>
<Sensitivity>2</Sensitivity>
<UnknownOutlookField>ignored</UnknownOutlookField>
</contact>)";

const typed_value* find_value(const std::vector<typed_value>& values, std::string_view value) {
    for (const auto& v : values) {
        if (v.value == value) return &v;
    }
    return nullptr;
}

TEST(sif_contact, maps_names_company_and_job_to_the_vcard_fields) {
    auto c = std::get<contact>(sif_or_fail(k_contact));
    EXPECT_EQ(c.formatted_name, "Rossi, Anna Maria");
    ASSERT_TRUE(c.name);
    EXPECT_EQ(*c.name, (structured_name{"Rossi", "Anna", "Maria", "Dr.", "Jr."}));
    EXPECT_EQ(c.nickname, "Annie");
    EXPECT_EQ(c.organization, (std::vector<std::string>{"Acme & Sons", "R&D"}));
    EXPECT_EQ(c.title, "Engineer");
    EXPECT_EQ(c.birthday, "1980-01-31");
    EXPECT_EQ(c.note, "First line\nsecond line with <markup> and \xC3\xBCmlauts");
    EXPECT_EQ(c.categories, (std::vector<std::string>{"Business", "VIP"}));
}

TEST(sif_contact, gives_phones_emails_and_web_pages_the_types_of_their_slot) {
    auto c = std::get<contact>(sif_or_fail(k_contact));
    ASSERT_EQ(c.phones.size(), 6u) << "the empty PagerNumber is no phone";
    using types = std::vector<std::string>;
    EXPECT_EQ(find_value(c.phones, "+39 0523 111111")->types, (types{"WORK", "VOICE"}));
    EXPECT_EQ(find_value(c.phones, "+39 0523 222222")->types, (types{"WORK", "VOICE"}));
    EXPECT_EQ(find_value(c.phones, "+39 0523 333333")->types, (types{"WORK", "FAX"}));
    EXPECT_EQ(find_value(c.phones, "+39 0523 444444")->types, (types{"HOME", "VOICE"}));
    EXPECT_EQ(find_value(c.phones, "+39 333 5555555")->types, (types{"CELL"}));
    EXPECT_EQ(find_value(c.phones, "+39 0523 666666")->types, (types{"VOICE"}));
    EXPECT_EQ(find_value(c.emails, "anna@example.com")->types, (types{"INTERNET"}));
    EXPECT_EQ(find_value(c.emails, "anna@home.example")->types, (types{"INTERNET", "HOME"}));
    EXPECT_EQ(find_value(c.emails, "anna.rossi@acme.example")->types, (types{"INTERNET", "WORK"}));
    EXPECT_EQ(find_value(c.urls, "http://acme.example/")->types, types{});
    EXPECT_EQ(find_value(c.urls, "http://anna.example/")->types, (types{"HOME"}));
}

TEST(sif_contact, maps_business_home_and_other_addresses) {
    auto c = std::get<contact>(sif_or_fail(k_contact));
    ASSERT_EQ(c.addresses.size(), 2u) << "an Other address without any part is none";
    EXPECT_EQ(c.addresses[0].types, std::vector<std::string>{"WORK"});
    EXPECT_EQ(c.addresses[0].street, "Via Roma 1");
    EXPECT_EQ(c.addresses[0].locality, "Piacenza");
    EXPECT_EQ(c.addresses[0].region, "PC");
    EXPECT_EQ(c.addresses[0].postal_code, "29121");
    EXPECT_EQ(c.addresses[0].country, "Italia");
    EXPECT_EQ(c.addresses[1].types, std::vector<std::string>{"HOME"});
    EXPECT_EQ(c.addresses[1].po_box, "12");
}

TEST(sif_contact, carries_outlook_only_fields_as_the_x_properties_funambols_vcard_uses) {
    auto c = std::get<contact>(sif_or_fail(k_contact));
    auto vcard = written(c, item_dialect::vcard21);
    EXPECT_NE(vcard.find("X-ANNIVERSARY:2005-06-18\r\n"), std::string::npos) << vcard;
    EXPECT_NE(vcard.find("X-SPOUSE:Marco\r\n"), std::string::npos) << vcard;
    EXPECT_NE(vcard.find("CLASS:PRIVATE\r\n"), std::string::npos) << vcard;
    EXPECT_NE(vcard.find("TEL;WORK;FAX:+39 0523 333333\r\n"), std::string::npos) << vcard;
    EXPECT_EQ(vcard.find("Unknown"), std::string::npos) << "unknown SIF fields are left out";
}

TEST(sif_contact, writes_every_field_so_that_a_cleared_one_clears_on_the_client) {
    auto sif = written(sif_or_fail(k_contact), item_dialect::sifc);
    EXPECT_TRUE(
        sif.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<contact>\n<SIFVersion>1.1</SIFVersion>\n"))
        << sif;
    EXPECT_NE(sif.find("<PagerNumber/>"), std::string::npos) << sif;
    EXPECT_NE(sif.find("<OtherAddressStreet/>"), std::string::npos) << sif;
    EXPECT_NE(sif.find("<CompanyName>Acme &amp; Sons</CompanyName>"), std::string::npos) << sif;
    EXPECT_NE(sif.find("<Body>First line\nsecond line with &lt;markup&gt; and \xC3\xBCmlauts</Body>"),
              std::string::npos)
        << sif;
    EXPECT_EQ(std::get<contact>(sif_or_fail(sif)), std::get<contact>(sif_or_fail(k_contact)));
}

TEST(sif_contact, keeps_every_mapped_field_through_vcard_2_1_and_3_0) {
    testing::expect_sif_survives(k_contact, item_dialect::sifc, item_dialect::vcard21);
    testing::expect_sif_survives(k_contact, item_dialect::sifc, item_dialect::vcard30);
}

TEST(sif_contact, puts_a_vcard_from_another_device_into_the_slots_its_types_name) {
    auto card = parse_item(
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob Example\r\nN:Example;Bob;;;\r\n"
        "TEL;TYPE=CELL,VOICE:+1 555 0100\r\nTEL;TYPE=WORK,VOICE,PREF:+1 555 0101\r\nTEL;TYPE=WORK:+1 555 0102\r\n"
        "TEL;TYPE=HOME,FAX:+1 555 0103\r\nTEL:+1 555 0104\r\nTEL;TYPE=CELL:+1 555 0105\r\n"
        "EMAIL;TYPE=WORK:bob@work.example\r\nEMAIL;TYPE=INTERNET:bob@example.com\r\nEMAIL:b@x.example\r\n"
        "EMAIL:c@x.example\r\nADR;TYPE=HOME:;;Main St 1;Springfield;;12345;USA\r\nBDAY:19700415\r\n"
        "URL;TYPE=WORK:http://work.example/\r\nEND:VCARD\r\n",
        item_dialect::vcard30);
    ASSERT_TRUE(card) << card.error().to_string();
    auto sif = written(*card, item_dialect::sifc);
    for (const char* expected :
         {"<MobileTelephoneNumber>+1 555 0100</MobileTelephoneNumber>",
          "<BusinessTelephoneNumber>+1 555 0101</BusinessTelephoneNumber>",
          "<Business2TelephoneNumber>+1 555 0102</Business2TelephoneNumber>",
          "<HomeFaxNumber>+1 555 0103</HomeFaxNumber>", "<OtherTelephoneNumber>+1 555 0104</OtherTelephoneNumber>",
          "<Email3Address>bob@work.example</Email3Address>", "<Email1Address>bob@example.com</Email1Address>",
          "<Email2Address>b@x.example</Email2Address>", "<HomeAddressStreet>Main St 1</HomeAddressStreet>",
          "<HomeAddressCity>Springfield</HomeAddressCity>", "<Birthday>1970-04-15</Birthday>",
          "<BusinessWebPage>http://work.example/</BusinessWebPage>", "<FileAs>Bob Example</FileAs>"}) {
        EXPECT_NE(sif.find(expected), std::string::npos) << expected << "\n" << sif;
    }
    // A second mobile has no slot of its own: the Other phone is taken, so SIF cannot carry it; nor a 4th e-mail.
    EXPECT_EQ(sif.find("+1 555 0105"), std::string::npos) << sif;
    EXPECT_EQ(sif.find("c@x.example"), std::string::npos) << sif;
}

TEST(sif_contact, composes_the_formatted_name_when_file_as_is_empty) {
    auto c = std::get<contact>(sif_or_fail(testing::sif_document(
        "contact", {{"FileAs", ""}, {"FirstName", "Jörg"}, {"LastName", "Müller"}, {"Photo", "R0lGODlh"}})));
    EXPECT_EQ(c.formatted_name, "Jörg Müller");
    ASSERT_TRUE(c.picture) << "a photo without TYPE is still a photo";
    EXPECT_EQ(c.picture->data, "GIF89a");
    auto company = std::get<contact>(sif_or_fail(testing::sif_document("contact", {{"CompanyName", "Acme"}})));
    EXPECT_EQ(company.formatted_name, "Acme");
}

}  // namespace
}  // namespace syncml::matching
