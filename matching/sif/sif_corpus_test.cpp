// The SIF-C items of Funambol's C++ client API tests (LOItemTest/sif*.txt): Outlook contacts with every field
// filled, a long body and a JPEG photo.
#include <gtest/gtest.h>

#include "matching/convert/corpus_test_support.hpp"
#include "matching/convert/item_convert.hpp"
#include "matching/sif/sif_test_support.hpp"

namespace syncml::matching {
namespace {

std::vector<std::filesystem::path> funambol_sif_items() {
    std::vector<std::filesystem::path> out;
    for (const auto& path : testing::corpus_files({".txt"})) {
        if (path.filename().string().starts_with("sif")) out.push_back(path);
    }
    return out;
}

TEST(sif_corpus, reads_every_funambol_contact_with_its_outlook_fields) {
    auto items = funambol_sif_items();
    ASSERT_EQ(items.size(), 4u);
    for (const auto& path : items) {
        auto data = testing::read_file(path);
        EXPECT_EQ(detect_dialect(data), item_dialect::sifc) << testing::corpus_name(path);
        auto c = std::get<contact>(testing::sif_or_fail(data));
        EXPECT_TRUE(c.formatted_name.starts_with("Magistrali, ") || c.formatted_name.starts_with("Palladini, "))
            << c.formatted_name;
        ASSERT_TRUE(c.name);
        EXPECT_EQ(c.name->prefix, "Mr.");
        EXPECT_EQ(c.name->additional, "Jhon");
        EXPECT_EQ(c.organization, (std::vector<std::string>{"Funambol", "department"}));
        EXPECT_EQ(c.title, "Ingegnere");
        EXPECT_EQ(c.birthday, "2009-04-15");
        EXPECT_EQ(c.phones.size(), 11u) << testing::corpus_name(path);
        EXPECT_EQ(c.emails.size(), 3u);
        EXPECT_EQ(c.addresses.size(), 3u);
        EXPECT_GT(c.note.size(), 700u);
        ASSERT_TRUE(c.picture) << testing::corpus_name(path);
        EXPECT_EQ(c.picture->media_type, "JPEG");
        EXPECT_TRUE(c.picture->data.starts_with("\xFF\xD8")) << "the photo decodes to a JPEG";
    }
}

TEST(sif_corpus, keeps_every_mapped_field_of_funambols_contacts_through_vcard) {
    for (const auto& path : funambol_sif_items()) {
        auto data = testing::read_file(path);
        SCOPED_TRACE(testing::corpus_name(path));
        testing::expect_sif_survives(data, item_dialect::sifc, item_dialect::vcard21);
        testing::expect_sif_survives(data, item_dialect::sifc, item_dialect::vcard30);
    }
}

TEST(sif_corpus, stores_funambols_contacts_as_vcard_3_0_and_sends_them_back_as_sif) {
    for (const auto& path : funambol_sif_items()) {
        auto data = testing::read_file(path);
        auto stored = canonical_content(data, "text/x-s4j-sifc", "1.0", item_kind::contact);
        ASSERT_TRUE(stored) << stored.error().to_string();
        EXPECT_TRUE(stored->starts_with("BEGIN:VCARD\r\nVERSION:3.0\r\n")) << *stored;
        auto sent = to_device(*stored, "text/x-s4j-sifc", "1.0", item_kind::contact);
        EXPECT_EQ(std::get<contact>(testing::sif_or_fail(sent)), std::get<contact>(testing::sif_or_fail(data)));
    }
}

}  // namespace
}  // namespace syncml::matching
