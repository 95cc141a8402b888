// VALARM <-> vCalendar 1.0 AALARM/DALARM/PALARM/MALARM: each alarm 1.0 can say travels as a real 1.0 alarm,
// only the others also as a hint, and both round trips give the original alarm list back in order.
#include "matching/calendar/vcal_alarm.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_test_support.hpp"
#include "matching/calendar/vcal_writer.hpp"

namespace syncml::matching {
namespace {

using testing::ical_event;
using testing::parse_one;
using testing::vcal_event;

// The event's content lines (unfolded, quoted-printable decoded) without BEGIN/END.
std::vector<content_line> event_lines(const std::string& text) {
    auto lines = read_content_lines(text);
    EXPECT_TRUE(lines);
    std::vector<content_line> out;
    bool inside = false;
    for (auto& line : lines ? *lines : std::vector<content_line>{}) {
        if (line.name == "BEGIN" || line.name == "END") {
            inside = line.name == "BEGIN" && line.value == "VEVENT";
            continue;
        }
        if (inside) out.push_back(line);
    }
    return out;
}

std::vector<std::string> alarm_names(const std::string& text) {
    std::vector<std::string> out;
    for (const auto& line : event_lines(text)) {
        if (is_vcal_alarm_property(line.name) || line.name == "X-SYNCML-ICAL-VALARM") out.push_back(line.name);
    }
    return out;
}

std::string value_of(const std::string& text, std::string_view name) {
    for (const auto& line : event_lines(text)) {
        if (line.name == name) return line.value;
    }
    return "(none)";
}

const std::string k_display = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:soon\r\nEND:VALARM\r\n";
const std::string k_display_with_uid =
    "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:soon\r\n"
    "X-EVOLUTION-ALARM-UID:20060825T154249Z-17150\r\nEND:VALARM\r\n";
const std::string k_audio = "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n";

// 2.0 -> 1.0 -> 2.0 gives the model back; returns the 1.0 text.
std::string through_vcal(const calendar& cal) {
    const std::string vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal) << vcal;
    return vcal;
}

TEST(vcal_alarm, one_alarm_1_0_cannot_say_does_not_turn_the_others_into_hints) {
    const auto cal = parse_one(ical_event(k_display + k_display_with_uid + k_audio), calendar_version::ical20);
    ASSERT_EQ(cal.components.at(0).alarms.size(), 3u);
    const auto vcal = through_vcal(cal);
    EXPECT_EQ(alarm_names(vcal), (std::vector<std::string>{"DALARM", "DALARM", "X-SYNCML-ICAL-VALARM", "AALARM"}))
        << vcal;
}

TEST(vcal_alarm, hints_go_back_to_their_own_line_when_lines_look_alike) {
    // The hinted alarm reads like the plain one once flattened to 1.0: order must still come back exactly.
    for (const auto& alarms : {k_display + k_display_with_uid + k_display, k_display_with_uid + k_display,
                               k_display + k_display_with_uid, k_display_with_uid + k_display_with_uid}) {
        const auto cal = parse_one(ical_event(alarms), calendar_version::ical20);
        through_vcal(cal);
    }
}

TEST(vcal_alarm, a_phone_that_changed_a_hinted_alarm_keeps_its_version) {
    const auto cal = parse_one(ical_event(k_display + k_display_with_uid), calendar_version::ical20);
    std::string vcal = write_calendar(cal, calendar_version::vcal10);
    const std::string line = "DALARM:20260601T084500Z;;0;soon";
    auto at = vcal.find(line + "\r\nX-SYNCML-ICAL-VALARM");
    ASSERT_NE(at, std::string::npos) << vcal;
    vcal.replace(at, line.size(), "DALARM:20260601T083000Z;;0;soon!");  // the phone moved the second alarm
    const auto back = parse_one(vcal, calendar_version::vcal10).components.at(0).alarms;
    ASSERT_EQ(back.size(), 2u);
    EXPECT_TRUE(back[0] == cal.components[0].alarms[0]);
    EXPECT_EQ(back[1].trigger_duration, "-PT30M");
    EXPECT_EQ(back[1].description, "soon!");
    EXPECT_TRUE(back[1].extra.empty());  // the stale hint is not applied to the phone's alarm
}

TEST(vcal_alarm, the_earlier_all_hints_form_still_reads_back) {
    // Written before alarms were hinted one by one: every line first, then a hint for every alarm.
    const auto cal = parse_one(ical_event(k_display_with_uid + k_audio), calendar_version::ical20);
    std::string hints;
    for (const auto& a : cal.components[0].alarms)
        hints += "X-SYNCML-ICAL-VALARM:" + escape_text(write_valarm(a)) + "\r\n";
    const auto vcal = vcal_event("DALARM:20260601T084500Z;;0;soon\r\nAALARM:20260601T085500Z;;0;\r\n" + hints);
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10).components.at(0).alarms == cal.components[0].alarms);
}

TEST(vcal_alarm, aalarm_type_and_url_are_attach_fmttype_and_uri) {
    const auto cal =
        parse_one(vcal_event("AALARM;TYPE=WAVE;VALUE=URL:20260601T084500Z;PT5M;2;file:///sounds/beep.wav\r\n"),
                  calendar_version::vcal10);
    const auto ical = write_calendar(cal, calendar_version::ical20);
    EXPECT_NE(ical.find("ATTACH;FMTTYPE=audio/x-wav;VALUE=URI:file:///sounds/beep.wav\r\n"), std::string::npos) << ical;
    EXPECT_EQ(ical.find("X-SYNCML-VCAL-PARAMS"), std::string::npos) << ical;
    const auto back = parse_one(ical, calendar_version::ical20);
    EXPECT_TRUE(back == cal);
    const auto vcal = through_vcal(back);
    EXPECT_EQ(alarm_names(vcal), std::vector<std::string>{"AALARM"}) << vcal;
    EXPECT_EQ(value_of(vcal, "AALARM"), "20260601T084500Z;PT5M;2;file:///sounds/beep.wav");
}

TEST(vcal_alarm, aalarm_content_id_is_a_cid_uri) {
    // The vCalendar 1.0 spec's own example.
    const auto cal = parse_one(
        vcal_event("AALARM;TYPE=WAVE;VALUE=CONTENT-ID:19960903T060000;PT15M;4;<jsmith.part.xyzMail@host1.com>\r\n"),
        calendar_version::vcal10);
    const auto& a = cal.components.at(0).alarms.at(0);
    ASSERT_EQ(a.extra.size(), 1u);
    EXPECT_EQ(a.extra[0].name, "ATTACH");
    EXPECT_EQ(a.extra[0].value, "cid:jsmith.part.xyzMail@host1.com");
    EXPECT_TRUE(a.extra[0].params == (std::vector<param>{{"FMTTYPE", {"audio/x-wav"}}, {"VALUE", {"URI"}}}));
    const auto ical = write_calendar(cal, calendar_version::ical20);
    const auto vcal = through_vcal(parse_one(ical, calendar_version::ical20));
    EXPECT_EQ(value_of(vcal, "AALARM"), "19960903T060000;PT15M;4;<jsmith.part.xyzMail@host1.com>") << vcal;
}

TEST(vcal_alarm, icalendar_audio_types_reach_the_phone_as_aalarm_types) {
    const std::vector<std::pair<std::string, std::string>> types = {
        {"audio/basic", "PCM"}, {"audio/x-wav", "WAVE"}, {"audio/x-aiff", "AIFF"}};
    for (const auto& [mime, type] : types) {
        const auto cal =
            parse_one(ical_event("BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT15M\r\nATTACH;FMTTYPE=" + mime +
                                 ":http://host.com/pub/bell.aud\r\nEND:VALARM\r\n"),
                      calendar_version::ical20);
        const auto vcal = through_vcal(cal);
        const auto lines = event_lines(vcal);
        auto aalarm = std::find_if(lines.begin(), lines.end(), [](const auto& l) { return l.name == "AALARM"; });
        ASSERT_NE(aalarm, lines.end()) << vcal;
        EXPECT_TRUE(aalarm->params == (std::vector<param>{{"TYPE", {type}}})) << vcal;
        EXPECT_EQ(alarm_names(vcal), std::vector<std::string>{"AALARM"}) << vcal;
    }
}

TEST(vcal_alarm, inline_audio_travels_as_base64_aalarm_content) {
    const auto cal = parse_one(ical_event("BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT15M\r\n"
                                          "ATTACH;FMTTYPE=audio/x-aiff;ENCODING=BASE64;VALUE=BINARY:Rk9STQAAAA==\r\n"
                                          "END:VALARM\r\n"),
                               calendar_version::ical20);
    const auto vcal = through_vcal(cal);
    EXPECT_EQ(alarm_names(vcal), std::vector<std::string>{"AALARM"}) << vcal;
    EXPECT_EQ(value_of(vcal, "AALARM"), "20260601T084500Z;;0;Rk9STQAAAA==") << vcal;
}

TEST(vcal_alarm, palarm_url_is_a_procedure_uri) {
    const auto vcal = vcal_event("PALARM;VALUE=URL:20260601T085500Z;PT5M;2;file:///myapps/shockme.exe\r\n");
    const auto cal = parse_one(vcal, calendar_version::vcal10);
    const auto ical = write_calendar(cal, calendar_version::ical20);
    EXPECT_NE(ical.find("ACTION:PROCEDURE\r\n"), std::string::npos) << ical;
    EXPECT_NE(ical.find("ATTACH;VALUE=URI:file:///myapps/shockme.exe\r\n"), std::string::npos) << ical;
    EXPECT_TRUE(parse_one(ical, calendar_version::ical20) == cal);
    through_vcal(cal);
}

TEST(vcal_alarm, an_email_alarm_is_a_malarm_with_address_subject_and_body) {
    const auto cal = parse_one(ical_event("BEGIN:VALARM\r\nTRIGGER:-P2D\r\nACTION:EMAIL\r\n"
                                          "ATTENDEE;CN=John Doe:mailto:john_doe@example.com\r\n"
                                          "SUMMARY:*** REMINDER: SEND AGENDA ***\r\n"
                                          "DESCRIPTION:A draft agenda needs to be sent out.\r\nEND:VALARM\r\n"),
                               calendar_version::ical20);
    const auto vcal = through_vcal(cal);
    EXPECT_EQ(alarm_names(vcal), std::vector<std::string>{"MALARM"}) << vcal;
    EXPECT_EQ(value_of(vcal, "MALARM"),
              "20260530T090000Z;;0;John Doe <john_doe@example.com>;*** REMINDER: SEND AGENDA ***\\n\\n"
              "A draft agenda needs to be sent out.")
        << vcal;
}

TEST(vcal_alarm, the_spec_malarm_reads_as_an_email_alarm_and_goes_back_unchanged) {
    const auto vcal = vcal_event("MALARM:20260601T080000Z;PT1H;24;IRS@us.gov;The Check Is In The Mail!\r\n");
    const auto cal = parse_one(vcal, calendar_version::vcal10);
    const auto& a = cal.components.at(0).alarms.at(0);
    EXPECT_EQ(a.action, "EMAIL");
    EXPECT_EQ(a.description, "The Check Is In The Mail!");
    ASSERT_EQ(a.extra.size(), 1u);
    EXPECT_TRUE(a.extra[0] == (property{{}, "ATTENDEE", {}, "mailto:IRS@us.gov"}));
    const auto ical = write_calendar(cal, calendar_version::ical20);
    const auto again = write_calendar(parse_one(ical, calendar_version::ical20), calendar_version::vcal10);
    EXPECT_EQ(value_of(again, "MALARM"), "20260601T080000Z;PT1H;24;IRS@us.gov;The Check Is In The Mail!");
    EXPECT_TRUE(parse_one(again, calendar_version::vcal10) == cal);
}

TEST(vcal_alarm, an_email_alarm_1_0_cannot_carry_is_still_sent_and_restored_by_its_hint) {
    const auto cal = parse_one(ical_event("BEGIN:VALARM\r\nTRIGGER:-P2D\r\nACTION:EMAIL\r\n"
                                          "ATTENDEE:mailto:a@example.com\r\nATTENDEE:mailto:b@example.com\r\n"
                                          "SUMMARY:s\r\nDESCRIPTION:d\r\nEND:VALARM\r\n" +
                                          k_display),
                               calendar_version::ical20);
    const auto vcal = through_vcal(cal);
    EXPECT_EQ(alarm_names(vcal), (std::vector<std::string>{"MALARM", "X-SYNCML-ICAL-VALARM", "DALARM"})) << vcal;
    EXPECT_EQ(value_of(vcal, "MALARM"), "20260530T090000Z;;0;a@example.com;s\\n\\nd") << vcal;
}

TEST(vcal_alarm, an_aalarm_type_icalendar_has_no_name_for_goes_back_to_the_phone) {
    // Symbian's own sound reference (syncgw's S60 captures).
    const auto vcal = vcal_event("AALARM;TYPE=X-EPOCSOUND:20260601T084500Z;;0;0x100048ac0x00000205\r\n");
    const auto cal = parse_one(vcal, calendar_version::vcal10);
    const auto& a = cal.components.at(0).alarms.at(0);
    EXPECT_EQ(a.attach, "0x100048ac0x00000205");
    const auto ical = write_calendar(cal, calendar_version::ical20);
    const auto again = write_calendar(parse_one(ical, calendar_version::ical20), calendar_version::vcal10);
    const auto lines = event_lines(again);
    auto aalarm = std::find_if(lines.begin(), lines.end(), [](const auto& l) { return l.name == "AALARM"; });
    ASSERT_NE(aalarm, lines.end()) << again;
    EXPECT_TRUE(aalarm->params == (std::vector<param>{{"TYPE", {"X-EPOCSOUND"}}})) << again;
    EXPECT_EQ(aalarm->value, "20260601T084500Z;;0;0x100048ac0x00000205");
    EXPECT_TRUE(parse_one(again, calendar_version::vcal10) == cal);
}

}  // namespace
}  // namespace syncml::matching
