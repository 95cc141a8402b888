// Truncated and bit-flipped corpus messages: the decoders must return (ok or an error inside the
// input) without crashing, hanging or allocating without bound, and anything they accept must
// survive re-encoding.
#include <gtest/gtest.h>

#include <ctime>

#include "session/codec/codec.hpp"
#include "session/codec/codec_test_util.hpp"

namespace syncml::session {
namespace {

void expect_sane(const std::string& bytes, const std::string& what) {
    auto result = decode(bytes);
    if (!result.ok()) {
        EXPECT_LE(result.error().offset, bytes.size()) << what;
        EXPECT_FALSE(result.error().expected.empty()) << what;
        return;
    }
    for (auto e : {wire_encoding::xml, wire_encoding::wbxml}) {
        auto again = decode(encode(result.value(), e));
        ASSERT_TRUE(again.ok()) << what;
        auto expected = result.value();
        expected.encoding = e;
        EXPECT_TRUE(again.value() == expected) << what;
    }
}

// CPU seconds since `start`: the bound is on the decoder's work, not on how busy the machine running the
// tests is (wall-clock time doubles on a loaded CI host).
double cpu_seconds_since(std::clock_t start) { return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; }

// Positions to cut or flip: an even spread of at most `count` per file (bounded test time under ASan).
std::vector<std::size_t> positions(std::size_t size, std::size_t count) {
    std::vector<std::size_t> out;
    const std::size_t step = size <= count ? 1 : size / count;
    for (std::size_t i = 0; i < size; i += step) out.push_back(i);
    return out;
}

TEST(codec_robustness, every_truncation_of_every_corpus_message_fails_cleanly_or_decodes) {
    const auto start = std::clock();
    for (const auto& path : test::message_files()) {
        const auto bytes = test::read_bytes(path);
        const auto name = test::relative_name(path);
        for (auto cut : positions(bytes.size(), 150))
            expect_sane(bytes.substr(0, cut), name + " cut at " + std::to_string(cut));
    }
    EXPECT_LT(cpu_seconds_since(start), 60.0);
}

TEST(codec_robustness, bit_flips_in_every_corpus_message_fail_cleanly_or_decode) {
    const auto start = std::clock();
    for (const auto& path : test::message_files()) {
        const auto original = test::read_bytes(path);
        const auto name = test::relative_name(path);
        for (auto at : positions(original.size(), 60)) {
            auto bytes = original;
            bytes[at] = static_cast<char>(bytes[at] ^ (1u << (at % 8)));
            expect_sane(bytes, name + " bit flipped at " + std::to_string(at));
        }
    }
    EXPECT_LT(cpu_seconds_since(start), 60.0);
}

// Found by the WBXML fuzzer: a VerDTD of "1.1" followed by carriage returns. WBXML keeps the CRs, an XML reader
// turns them into line feeds; both decodings must still read version 1.1, not fall back to the public id's 1.2.
TEST(codec_robustness, a_ver_dtd_padded_with_carriage_returns_reads_the_same_in_both_encodings) {
    // WBXML 1.2, public id SyncML 1.2, UTF-8: <SyncML><SyncHdr><VerDTD>1.1\r\r</VerDTD>...
    using namespace std::string_literals;
    const auto wbxml =
        "\x02\xa4\x01\x6a\x00\x6d\x6c\x71\x03"
        "1.1\r\r\x00\x01"s +
        "\x72\x03SyncML/1.1\x00\x01\x65\x03"
        "1\x00\x01\x5b\x03"
        "1\x00\x01"s +
        "\x6e\x57\x03srv\x00\x01\x01\x67\x57\x03phone\x00\x01\x01\x01"s +
        "\x6b\x12\x01\x01"s;  // <SyncBody><Final/></SyncBody></SyncML>
    auto result = decode(wbxml);
    ASSERT_TRUE(result.ok()) << result.error().describe();
    EXPECT_EQ(result.value().version, syncml_version::v1_1);
    expect_sane(wbxml, "VerDTD with carriage returns");
}

TEST(codec_robustness, a_truncated_body_still_yields_the_header_for_an_error_reply) {
    const auto bytes =
        test::read_bytes(test::corpus_dir() / "txsyncml/txsyncml/tests/fixtures/sony-ericsson-k800i-package1.xml");
    const auto body = bytes.find("<SyncBody>");
    ASSERT_NE(body, std::string::npos);
    auto result = decode(bytes.substr(0, body + 200));
    ASSERT_FALSE(result.ok());
    ASSERT_TRUE(result.error().header.has_value());
    EXPECT_FALSE(result.error().header->msg_id.empty());
    EXPECT_EQ(result.error().version, syncml_version::v1_2);
    EXPECT_EQ(result.error().encoding, wire_encoding::xml);

    const auto wbxml = encode_wbxml(decode(bytes).value());
    auto cut = decode(wbxml.substr(0, wbxml.size() / 2));
    ASSERT_FALSE(cut.ok());
    ASSERT_TRUE(cut.error().header.has_value());
    EXPECT_EQ(cut.error().header->msg_id, decode(bytes).value().header.msg_id);
}

TEST(codec_robustness, limits_stop_deep_nesting_large_input_and_element_floods) {
    std::string deep = "<SyncML>";
    for (int i = 0; i < 200; ++i) deep += "<a>";
    auto r = decode(deep);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().expected, "nesting within depth limit");

    decode_limits small;
    small.max_input_bytes = 10;
    r = decode(std::string("<SyncML></SyncML>"), small);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().expected, "input within size limit");

    std::string flood = "<SyncML>";
    for (int i = 0; i < 2000; ++i) flood += "<x/>";
    decode_limits few;
    few.max_elements = 100;
    r = decode(flood + "</SyncML>", few);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().expected, "element count within limit");

    // A WBXML opaque length far beyond the input must not allocate it.
    const std::string huge_opaque("\x02\x9f\x53\x6a\x00\x6d\xc3\x8f\xff\xff\xff\x7f", 12);
    r = decode(huge_opaque);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().expected, "opaque data within input");
}

}  // namespace
}  // namespace syncml::session
