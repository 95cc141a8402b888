// ATTENDEE parameters between vCalendar 1.0 (STATUS, RSVP=YES/NO, EXPECT, ROLE=ORGANIZER...) and iCalendar 2.0
// (PARTSTAT, RSVP=TRUE/FALSE, ROLE=REQ-PARTICIPANT...): mapped where both can say it, kept exactly otherwise.
#include <gtest/gtest.h>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_test_support.hpp"
#include "matching/calendar/vcal_attendee.hpp"
#include "matching/convert/corpus_test_support.hpp"

namespace syncml::matching {
namespace {

using testing::parse_one;

std::vector<std::string> attendee_lines(std::string text) {
    for (auto at = text.find("\r\n "); at != std::string::npos; at = text.find("\r\n ")) text.erase(at, 3);
    std::vector<std::string> out;
    for (auto at = text.find("\r\nATTENDEE"); at != std::string::npos; at = text.find("\r\nATTENDEE", at + 2))
        out.push_back(text.substr(at + 2, text.find("\r\n", at + 2) - at - 2));
    return out;
}

// syncgw's Symbian capture: 1.0 ROLE/RSVP/STATUS next to 2.0-style PARTSTAT and X- parameters.
std::string symbian_event() {
    auto xml = testing::read_file(testing::corpus_dir() / "syncgw/test/mimedata/vevent/in06.xml");
    auto begin = xml.find("<Data>") + 6;
    std::string data = xml.substr(begin, xml.find("</Data>") - begin);
    for (auto [from, to] : {std::pair{"&lt;", "<"}, std::pair{"&gt;", ">"}}) {
        for (auto at = data.find(from); at != std::string::npos; at = data.find(from)) data.replace(at, 4, to);
    }
    return data;
}

TEST(vcal_attendee, symbian_attendees_read_as_icalendar_parameters_and_go_back_unchanged) {
    const auto vcal = symbian_event();
    const auto cal = parse_one(vcal, calendar_version::vcal10);
    const auto ical = write_calendar(cal, calendar_version::ical20);
    const auto lines = attendee_lines(ical);
    ASSERT_EQ(lines.size(), 2u) << ical;
    EXPECT_NE(lines[0].find("X-SYNCML-VCAL-ROLE=ATTENDEE;RSVP=TRUE;X-ROLE=REQ-PARTICIPANT;"
                            "X-SYNCML-VCAL-PARTSTAT=NEEDS-ACTION"),
              std::string::npos)
        << lines[0];
    EXPECT_NE(lines[1].find("ATTENDEE;PARTSTAT=NEEDS-ACTION:"), std::string::npos) << lines[1];
    // The phone owner's ROLE=ORGANIZER line is the event's organizer.
    EXPECT_NE(ical.find("\r\nORGANIZER;RSVP=FALSE;TYPE=X-PHONEOWNER:havardw (a) wigtil.net\r\n"), std::string::npos)
        << ical;
    // 1.0 -> 2.0 -> 1.0: the phone gets its own parameters back.
    const auto again = write_calendar(parse_one(ical, calendar_version::ical20), calendar_version::vcal10);
    EXPECT_NE(again.find("ATTENDEE;ROLE=ORGANIZER;RSVP=NO;X-PHONEOWNER:havardw (a) wigtil.net"), std::string::npos)
        << again;
    EXPECT_NE(again.find("ATTENDEE;ROLE=ATTENDEE;RSVP=YES;X-ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION"),
              std::string::npos)
        << again;
    EXPECT_NE(again.find("ATTENDEE;STATUS=NEEDS ACTION:"), std::string::npos) << again;
    EXPECT_TRUE(parse_one(again, calendar_version::vcal10) == cal);
}

TEST(vcal_attendee, icalendar_partstat_role_and_rsvp_become_1_0_status_expect_and_rsvp) {
    const std::string ical =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r\n"
        "DTSTART:20260601T090000Z\r\nSUMMARY:m\r\n"
        "ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=TRUE:mailto:joe@example.com\r\n"
        "ATTENDEE;ROLE=OPT-PARTICIPANT;PARTSTAT=TENTATIVE;RSVP=FALSE:mailto:ann@example.com\r\n"
        "ATTENDEE;ROLE=CHAIR;CUTYPE=INDIVIDUAL:mailto:b@x.org\r\n"
        "ATTENDEE;PARTSTAT=IN-PROCESS:mailto:p@x.org\r\n"
        "ATTENDEE;ROLE=NON-PARTICIPANT;STATUS=odd:mailto:f@x.org\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n";
    const auto cal = parse_one(ical, calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    const auto lines = attendee_lines(vcal);
    ASSERT_EQ(lines.size(), 5u) << vcal;
    EXPECT_EQ(lines[0], "ATTENDEE;EXPECT=REQUIRE;STATUS=ACCEPTED;RSVP=YES:joe@example.com");
    EXPECT_EQ(lines[1], "ATTENDEE;EXPECT=REQUEST;STATUS=TENTATIVE;RSVP=NO:ann@example.com");
    EXPECT_EQ(lines[2], "ATTENDEE;X-SYNCML-ICAL-ROLE=CHAIR;CUTYPE=INDIVIDUAL:b@x.org");
    EXPECT_EQ(lines[3], "ATTENDEE;X-SYNCML-ICAL-PARTSTAT=IN-PROCESS:p@x.org");
    EXPECT_EQ(lines[4], "ATTENDEE;EXPECT=FYI;X-SYNCML-ICAL-STATUS=odd:f@x.org");
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal);
}

TEST(vcal_attendee, reading_what_was_written_gives_every_parameter_back) {
    const std::vector<param> tricky = {{"PARTSTAT", {"NEEDS-ACTION"}},
                                       {"PARTSTAT", {"X-CUSTOM"}},
                                       {"PARTSTAT", {"ACCEPTED", "DECLINED"}},
                                       {"RSVP", {"yes"}},
                                       {"ROLE", {"CHAIR"}},
                                       {"STATUS", {"ACCEPTED"}},
                                       {"EXPECT", {"REQUIRE"}},
                                       {"X-SYNCML-VCAL-ROLE", {"OWNER"}},
                                       {"X-SYNCML-VCAL-STATUS", {"ACCEPTED"}},
                                       {"X-SYNCML-ICAL-ROLE", {"CHAIR"}},
                                       {"CN", {"Joe"}},
                                       {"", {"X-PHONEOWNER"}},
                                       {"X-SYNCML-VCAL-X-SYNCML-VCAL-A", {}}};
    for (const auto& p : tricky) {
        std::vector<param> back = attendee_params_to_vcal({p});
        attendee_params_from_vcal(back);
        ASSERT_EQ(back.size(), 1u);
        EXPECT_TRUE(back[0] == p) << p.name << " came back as " << back[0].name;
    }
}

std::string ical_with(const std::string& attendees) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\n"
           "DTSTAMP:20260101T000000Z\r\nDTSTART:20260601T090000Z\r\nSUMMARY:m\r\n" +
           attendees + "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

std::string vcal_with(const std::string& attendees) {
    return "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260601T090000Z\r\n"
           "SUMMARY:m\r\n" +
           attendees + "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

TEST(vcal_attendee, a_common_name_reaches_the_phone_as_name_and_address) {
    const auto cal =
        parse_one(ical_with("ATTENDEE;CN=Joe Cool;PARTSTAT=ACCEPTED:mailto:joe@example.com\r\n"
                            "ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=\"XXXX/UNSA\":mailto:x@x.ba\r\n"
                            "ATTENDEE;CN=\"Doe, Jane\":mailto:jane@example.com\r\n"),
                  calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    const auto lines = attendee_lines(vcal);
    ASSERT_EQ(lines.size(), 3u) << vcal;
    EXPECT_EQ(lines[0], "ATTENDEE;STATUS=ACCEPTED:Joe Cool <joe@example.com>");
    // A CN that is not the first parameter stays in place, so that reading it back keeps the parameter order.
    EXPECT_EQ(lines[1], "ATTENDEE;EXPECT=REQUIRE;STATUS=ACCEPTED;CN=XXXX/UNSA:XXXX/UNSA <x@x.ba>");
    EXPECT_EQ(lines[2], "ATTENDEE:Doe, Jane <jane@example.com>");
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal);
}

TEST(vcal_attendee, a_phone_name_and_address_read_as_cn_and_mailto) {
    const auto vcal = vcal_with(
        "ATTENDEE;STATUS=ACCEPTED:\"Luc Donovan\" <luc@yahoo.fr>\r\n"
        "ATTENDEE;ROLE=ORGANIZER:Ann Smith <ann@example.com>\r\n"
        "ATTENDEE:<bob@example.com>\r\nATTENDEE: <>\r\nATTENDEE:carl@example.com\r\n");
    const auto cal = parse_one(vcal, calendar_version::vcal10);
    const auto ical = write_calendar(cal, calendar_version::ical20);
    const auto lines = attendee_lines(ical);
    ASSERT_EQ(lines.size(), 4u) << ical;
    EXPECT_EQ(lines[0], "ATTENDEE;CN=Luc Donovan;PARTSTAT=ACCEPTED:mailto:luc@yahoo.fr");
    EXPECT_NE(ical.find("\r\nORGANIZER;CN=Ann Smith:mailto:ann@example.com\r\n"), std::string::npos) << ical;
    EXPECT_EQ(lines[1], "ATTENDEE:mailto:bob@example.com");
    EXPECT_EQ(lines[2], "ATTENDEE: <>");
    EXPECT_EQ(lines[3], "ATTENDEE:mailto:carl@example.com");
    const auto back = parse_one(ical, calendar_version::ical20);
    EXPECT_TRUE(back == cal);
    const auto again = write_calendar(back, calendar_version::vcal10);
    EXPECT_NE(again.find("ATTENDEE;STATUS=ACCEPTED:Luc Donovan <luc@yahoo.fr>\r\n"), std::string::npos) << again;
    EXPECT_NE(again.find("ATTENDEE;ROLE=ORGANIZER:Ann Smith <ann@example.com>\r\n"), std::string::npos) << again;
    EXPECT_TRUE(parse_one(again, calendar_version::vcal10) == cal);
}

TEST(vcal_attendee, the_organizer_is_the_1_0_attendee_with_role_organizer) {
    const auto cal = parse_one(ical_with("ORGANIZER;CN=Boss:mailto:boss@example.com\r\n"
                                         "ATTENDEE;CN=Joe:mailto:joe@example.com\r\n"),
                               calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    const auto lines = attendee_lines(vcal);
    ASSERT_EQ(lines.size(), 2u) << vcal;
    EXPECT_EQ(lines[0], "ATTENDEE;ROLE=ORGANIZER:Boss <boss@example.com>");
    EXPECT_EQ(lines[1], "ATTENDEE:Joe <joe@example.com>");
    EXPECT_EQ(vcal.find("X-SYNCML-ICAL-ORGANIZER"), std::string::npos) << vcal;
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal);
    // An organizer 1.0 cannot state exactly still comes back through its hint.
    const auto odd = parse_one(ical_with("ORGANIZER;SENT-BY=\"mailto:a@example.com\":Boss <boss@example.com>\r\n"),
                               calendar_version::ical20);
    const auto odd_vcal = write_calendar(odd, calendar_version::vcal10);
    EXPECT_NE(odd_vcal.find("X-SYNCML-ICAL-ORGANIZER"), std::string::npos) << odd_vcal;
    EXPECT_TRUE(parse_one(odd_vcal, calendar_version::vcal10) == odd);
}

TEST(vcal_attendee, values_the_name_form_would_change_stay_exact) {
    const auto cal = parse_one(ical_with("ATTENDEE:Joe <joe@example.com>\r\n"
                                         "ATTENDEE;CN=\"a <b>\":mailto:ab@example.com\r\n"
                                         "ATTENDEE;CN=Other:Joe <joe@example.com>\r\n"
                                         "ATTENDEE;CN=Upper:MAILTO:up@example.com\r\n"
                                         "ATTENDEE;CN=:mailto:empty@example.com\r\n"),
                               calendar_version::ical20);
    const auto vcal = write_calendar(cal, calendar_version::vcal10);
    EXPECT_NE(vcal.find("X-SYNCML-ICAL-ATTENDEE:Joe <joe@example.com>"), std::string::npos) << vcal;
    EXPECT_TRUE(parse_one(vcal, calendar_version::vcal10) == cal) << vcal;
}

TEST(vcal_attendee, mailboxes_parse_with_and_without_a_name) {
    auto m = parse_mailbox(" \"Doe, Jane\" <jane@example.com> ");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->name, "Doe, Jane");
    EXPECT_EQ(m->address, "jane@example.com");
    m = parse_mailbox("<jane@example.com>");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->name, "");
    EXPECT_EQ(format_mailbox(*m), "<jane@example.com>");
    for (const char* bad : {"jane@example.com", "<>", "Jane <jane@example.com", "Jane <a b@example.com>",
                            "J<ane <jane@example.com>", "Jane <mailto:jane@example.com>"}) {
        EXPECT_FALSE(parse_mailbox(bad)) << bad;
    }
}

}  // namespace
}  // namespace syncml::matching
