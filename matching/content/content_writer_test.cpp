// TYPE on legacy output: vCard 2.1 writes its values bare (TEL;HOME;VOICE:), vCalendar 1.0 names the parameter
// (AALARM;TYPE=WAVE:) as the 1.0 spec's examples, Symbian and the Synthesis profiles do; readers take both.
#include "matching/content/content_line.hpp"

#include <gtest/gtest.h>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_test_support.hpp"
#include "matching/vcard/vcard_codec.hpp"

namespace syncml::matching {
namespace {

using testing::vcal_event;

calendar parse_vcal(const std::string& text) { return testing::parse_one(text, calendar_version::vcal10); }

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(content_writer, names_type_on_vcalendar_10_lines) {
    const auto cal =
        parse_vcal(vcal_event("AALARM;TYPE=WAVE;VALUE=URL:20260601T084500Z;;;file:///beep.wav\r\n"
                              "X-EPOC-SOUND;X-CHIME:1\r\n"));
    const auto out = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(contains(out, "\r\nAALARM;TYPE=WAVE;VALUE=URL:20260601T084500Z;")) << out;
    EXPECT_TRUE(contains(out, "\r\nX-EPOC-SOUND;TYPE=X-CHIME:1\r\n")) << out;
    EXPECT_TRUE(parse_vcal(out) == cal) << out;
}

TEST(content_writer, reads_a_bare_vcalendar_10_type_as_the_named_one) {
    const auto bare = parse_vcal(vcal_event("AALARM;WAVE;VALUE=URL:20260601T084500Z;;;file:///beep.wav\r\n"));
    const auto named = parse_vcal(vcal_event("AALARM;TYPE=WAVE;VALUE=URL:20260601T084500Z;;;file:///beep.wav\r\n"));
    ASSERT_EQ(bare.components.size(), 1u);
    ASSERT_EQ(bare.components[0].alarms.size(), 1u);
    EXPECT_TRUE(bare == named);
    EXPECT_EQ(write_calendar(bare, calendar_version::vcal10), write_calendar(named, calendar_version::vcal10));
}

TEST(content_writer, keeps_vcard_21_type_values_bare) {
    auto parsed =
        parse_vcards("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nN:A;;;;\r\nTEL;TYPE=HOME,VOICE:+4930123\r\nEND:VCARD\r\n",
                     vcard_version::v30);
    ASSERT_TRUE(parsed && parsed->size() == 1);
    const auto v21 = write_vcard(parsed->front(), vcard_version::v21);
    EXPECT_TRUE(contains(v21, "\r\nTEL;HOME;VOICE:+4930123\r\n")) << v21;
    const auto v30 = write_vcard(parsed->front(), vcard_version::v30);
    EXPECT_TRUE(contains(v30, "\r\nTEL;TYPE=HOME,VOICE:+4930123\r\n")) << v30;
}

TEST(content_writer, writes_bare_types_only_on_legacy_lines_that_ask_for_them) {
    const std::vector<param> params{{"TYPE", {"HOME", "VOICE"}}};
    content_writer legacy(line_syntax::legacy);
    legacy.write({}, "TEL", params, "1");
    EXPECT_EQ(legacy.take(), "TEL;TYPE=HOME,VOICE:1\r\n");
    content_writer bare(line_syntax::legacy, type_params::bare);
    bare.write({}, "TEL", params, "1");
    EXPECT_EQ(bare.take(), "TEL;HOME;VOICE:1\r\n");
    content_writer modern(line_syntax::modern, type_params::bare);
    modern.write({}, "TEL", params, "1");
    EXPECT_EQ(modern.take(), "TEL;TYPE=HOME,VOICE:1\r\n");
}

}  // namespace
}  // namespace syncml::matching
