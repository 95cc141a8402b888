// vCalendar 1.0 events whose times are UTC: TZ/DAYLIGHT only say how to read local times, so such an event
// reads into iCalendar without a VTIMEZONE and equals the iCalendar copy another phone holds. The vCalendar
// texts are what SyncEvolution 2.0 sends for a vCalendar 1.0 store (TZ:+00:00 and DAYLIGHT:FALSE on every item).
#include <gtest/gtest.h>

#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_test_support.hpp"
#include "matching/convert/item_format.hpp"
#include "matching/match/normalize_time.hpp"
#include "matching/merge/merge_items.hpp"

namespace syncml::matching {
namespace {

using testing::parse_one;

std::string vcal(const std::string& zone_lines, const std::string& event_lines) {
    return "BEGIN:VCALENDAR\r\nVERSION:1.0\r\n" + zone_lines + "BEGIN:VEVENT\r\n" + event_lines +
           "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

const std::string k_utc_event =
    "LAST-MODIFIED:20240324T113127Z\r\nCATEGORIES:Work;Business\r\nCLASS:PUBLIC\r\nSUMMARY:Call supplier #1\r\n"
    "DESCRIPTION;CHARSET=UTF-8:Grüße aus der Straße\r\nLOCATION:Home\r\nDTSTART:20240511T091500Z\r\n"
    "RRULE:D1 20240520T091500Z\r\nEXDATE:20240512T091500Z\r\nDTEND:20240511T131500Z\r\n";

// The same event as the iCalendar phone that created it holds it.
const std::string k_ical_copy =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//SyncML interop//gen-contacts//EN\r\nBEGIN:VEVENT\r\n"
    "UID:interop-e-11-gen-00001\r\nDTSTAMP:20240324T113127Z\r\nLAST-MODIFIED:20240324T113127Z\r\n"
    "SUMMARY:Call supplier #1\r\nDTSTART:20240511T091500Z\r\nDTEND:20240511T131500Z\r\nLOCATION:Home\r\n"
    "RRULE:FREQ=DAILY;UNTIL=20240520T091500Z\r\nEXDATE:20240512T091500Z\r\nCATEGORIES:Work,Business\r\n"
    "CLASS:PUBLIC\r\nDESCRIPTION:Grüße aus der Straße\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

const std::string k_syncevolution_zone = "TZ:+00:00\r\nDAYLIGHT:FALSE\r\n";
const std::string k_cet_zone = "TZ:+01:00\r\nDAYLIGHT:TRUE;+02:00;20240331T010000Z;20241027T010000Z;CET;CEST\r\n";

std::string to_ical(const std::string& text) {
    auto converted = convert_item(text, item_dialect::vcal10, item_dialect::ical20);
    EXPECT_TRUE(converted.has_value());
    return converted ? *converted : std::string();
}

TEST(vcal_utc_times, utc_times_need_no_vtimezone_whatever_tz_says) {
    for (const auto& zone : {std::string(), k_syncevolution_zone, k_cet_zone}) {
        const auto text = vcal(zone, k_utc_event);
        const auto cal = parse_one(text, calendar_version::vcal10);
        EXPECT_TRUE(cal.timezones.empty()) << zone;
        ASSERT_EQ(cal.components.size(), 1u);
        EXPECT_TRUE(cal.components[0].start->utc);
        const auto ical = to_ical(text);
        EXPECT_EQ(ical.find("VTIMEZONE"), std::string::npos) << ical;
        EXPECT_NE(ical.find("\r\nDTSTART:20240511T091500Z\r\n"), std::string::npos) << ical;
        EXPECT_NE(ical.find("\r\nRRULE:FREQ=DAILY;UNTIL=20240520T091500Z\r\n"), std::string::npos) << ical;
    }
}

TEST(vcal_utc_times, syncevolution_vcal_copy_equals_the_icalendar_copy_but_for_uid_and_dtstamp) {
    const auto from_vcal = parse_one(vcal(k_syncevolution_zone, k_utc_event), calendar_version::vcal10);
    auto from_ical = parse_one(k_ical_copy, calendar_version::ical20);
    ASSERT_EQ(from_ical.components.size(), 1u);
    from_ical.components[0].uid.clear();
    from_ical.components[0].stamp.reset();
    EXPECT_TRUE(from_vcal.timezones == from_ical.timezones);
    EXPECT_TRUE(from_vcal.components == from_ical.components) << write_calendar(from_vcal, calendar_version::ical20);
}

device_capabilities syncevolution_vcal_phone() {
    device_capabilities caps;
    for (const char* p :
         {"TZ", "DAYLIGHT", "LAST-MODIFIED", "DCREATED", "UID", "SEQUENCE", "CATEGORIES", "CLASS", "SUMMARY",
          "DESCRIPTION", "LOCATION", "DTSTART", "DTEND", "RRULE", "EXDATE", "AALARM", "DALARM"}) {
        caps.add_property(p);
    }
    return caps;
}

TEST(vcal_utc_times, pairing_the_vcal_copy_with_the_stored_icalendar_copy_changes_nothing) {
    auto stored = parse_item(k_ical_copy, item_dialect::ical20);
    auto incoming = parse_item(vcal(k_syncevolution_zone, k_utc_event), item_dialect::vcal10);
    ASSERT_TRUE(stored && incoming);
    auto r = merge(*stored, *incoming, syncevolution_vcal_phone());
    EXPECT_FALSE(r.stored_changed) << *serialize_item(r.merged, item_dialect::ical20);
    EXPECT_TRUE(r.merged == *stored);
}

// A phone that writes local times under TZ/DAYLIGHT keeps its zone; the times mean the same instants as the
// stored copy's Europe/Berlin ones, and merging adds no second zone to the stored copy.
const std::string k_local_event =
    "SUMMARY:Standup\r\nDTSTART:20240701T100000\r\nDTEND:20240701T101500\r\nRRULE:W1 MO 20240729T100000\r\n";

const std::string k_berlin_copy =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
    "BEGIN:DAYLIGHT\r\nDTSTART:19810329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nTZOFFSETFROM:+0100\r\n"
    "TZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\nBEGIN:STANDARD\r\nDTSTART:19961027T030000\r\n"
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
    "END:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:standup-1\r\nDTSTAMP:20240601T000000Z\r\nSUMMARY:Standup\r\n"
    "DTSTART;TZID=Europe/Berlin:20240701T100000\r\nDTEND;TZID=Europe/Berlin:20240701T101500\r\n"
    "RRULE:FREQ=WEEKLY;UNTIL=20240729T080000Z;BYDAY=MO\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

TEST(vcal_utc_times, local_times_under_tz_keep_a_zone_that_round_trips) {
    const auto text = vcal(k_cet_zone, k_local_event);
    const auto cal = parse_one(text, calendar_version::vcal10);
    ASSERT_EQ(cal.timezones.size(), 1u);
    const auto& start = *cal.components.at(0).start;
    EXPECT_EQ(start.tzid, cal.timezones[0].tzid);
    EXPECT_EQ(normalized_time(start, cal.timezones), "20240701T080000Z");
    const auto ical = write_calendar(cal, calendar_version::ical20);
    const auto back = parse_one(ical, calendar_version::ical20);
    EXPECT_TRUE(back.components == cal.components) << ical;
    EXPECT_TRUE(back.timezones == cal.timezones) << ical;
    EXPECT_EQ(write_calendar(back, calendar_version::vcal10), write_calendar(cal, calendar_version::vcal10));
}

TEST(vcal_utc_times, merging_local_times_under_tz_into_the_berlin_copy_adds_no_zone) {
    auto stored = parse_item(k_berlin_copy, item_dialect::ical20);
    auto incoming = parse_item(vcal(k_cet_zone, k_local_event), item_dialect::vcal10);
    ASSERT_TRUE(stored && incoming);
    const auto& s = std::get<calendar>(*stored);
    const auto& i = std::get<calendar>(*incoming);
    EXPECT_EQ(normalized_time(*s.components[0].start, s.timezones),
              normalized_time(*i.components[0].start, i.timezones));
    auto r = merge(*stored, *incoming, syncevolution_vcal_phone());
    const auto& merged = std::get<calendar>(r.merged);
    ASSERT_EQ(merged.timezones.size(), 1u);
    EXPECT_EQ(merged.timezones[0].tzid, "Europe/Berlin");
    EXPECT_EQ(merged.components.at(0).start, s.components[0].start);
}

// vCalendar 1.0 names the weekday of a weekly rule (W1 TH); the stored RFC 5545 rule leaves it to DTSTART.
TEST(vcal_utc_times, a_weekly_rule_that_names_dtstarts_weekday_is_the_same_rule) {
    const std::string stored_text =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:w-1\r\n"
        "DTSTAMP:20240101T000000Z\r\nSUMMARY:Review\r\nDTSTART:20240801T164500Z\r\nDTEND:20240801T174500Z\r\n"
        "RRULE:FREQ=WEEKLY;INTERVAL=1;UNTIL=20240822T164500Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    auto stored = parse_item(stored_text, item_dialect::ical20);
    ASSERT_TRUE(stored);
    for (const auto& [rule, same] : {std::pair{"W1 TH 20240822T164500Z", true},
                                     {"W1 FR 20240822T164500Z", false},
                                     {"W1 TH 20240815T164500Z", false}}) {
        auto incoming = parse_item(vcal(k_syncevolution_zone,
                                        "SUMMARY:Review\r\nDTSTART:20240801T164500Z\r\nDTEND:20240801T174500Z\r\n"
                                        "RRULE:" +
                                            std::string(rule) + "\r\n"),
                                   item_dialect::vcal10);
        ASSERT_TRUE(incoming);
        auto r = merge(*stored, *incoming, syncevolution_vcal_phone());
        EXPECT_EQ(r.stored_changed, !same) << rule << "\n" << *serialize_item(r.merged, item_dialect::ical20);
        const auto& merged_rule = std::get<calendar>(r.merged).components.at(0).rrules.at(0);
        EXPECT_EQ(merged_rule.by_day.empty(), same) << rule;
    }
}

// A CTCap without DESCRIPTION (SyncEvolution's profile lists VALARM's DESCRIPTION with the event's) makes the
// device send its alarms without text: the stored alarm's text stays and the item is unchanged.
TEST(vcal_utc_times, an_alarm_text_the_device_cannot_store_is_kept) {
    const std::string event =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:e-1\r\n"
        "DTSTAMP:20240101T000000Z\r\nSUMMARY:Yoga\r\nDTSTART:20240701T100000Z\r\nDTEND:20240701T110000Z\r\n"
        "DESCRIPTION:Bring a mat\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Yoga #21\r\n"
        "END:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    std::string device = event;
    device.replace(device.find("DESCRIPTION:Bring a mat\r\n"), 25, "");
    device.replace(device.find("DESCRIPTION:Yoga #21\r\n"), 22, "");
    auto stored = parse_item(event, item_dialect::ical20);
    auto incoming = parse_item(device, item_dialect::ical20);
    ASSERT_TRUE(stored && incoming);
    device_capabilities caps;
    for (const char* p : {"UID", "DTSTAMP", "SUMMARY", "DTSTART", "DTEND", "TRIGGER", "ACTION"}) caps.add_property(p);
    auto r = merge(*stored, *incoming, caps);
    EXPECT_FALSE(r.stored_changed) << *serialize_item(r.merged, item_dialect::ical20);
    EXPECT_EQ(std::get<calendar>(r.merged).components.at(0).alarms.at(0).description, "Yoga #21");
}

// What SyncEvolution sends back for an all-day daily event with a reminder that it received from the server
// in vCalendar 1.0: the rule ends at the end of its last day, and the one reminder is an AALARM and a DALARM.
const std::string k_all_day_ical =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:interop-e-11-gen-00014\r\n"
    "DTSTAMP:20240106T052159Z\r\nSUMMARY:Yoga #14\r\nDTSTART;VALUE=DATE:20240804\r\n"
    "DTEND;VALUE=DATE:20240805\r\nRRULE:FREQ=DAILY;UNTIL=20240814\r\nEXDATE;VALUE=DATE:20240805\r\n"
    "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Yoga #14\r\nEND:VALARM\r\n"
    "END:VEVENT\r\nEND:VCALENDAR\r\n";

const std::string k_all_day_vcal =
    vcal("",
         "UID:interop-e-11-gen-00014\r\nSUMMARY:Yoga #14\r\nDTSTART:20240804T000000\r\nRRULE:D1 20240814T235959\r\n"
         "EXDATE:20240805T000000\r\nDTEND:20240805T000000\r\nAALARM:20240803T234500;;0;Yoga #14\r\n"
         "DALARM:20240803T234500;;0;Yoga #14\r\n");

TEST(vcal_utc_times, an_all_day_rule_ending_at_the_end_of_its_last_day_ends_on_that_date) {
    const auto cal = parse_one(k_all_day_vcal, calendar_version::vcal10);
    const auto& e = cal.components.at(0);
    ASSERT_TRUE(e.start && e.start->date_only);
    ASSERT_EQ(e.rrules.size(), 1u);
    EXPECT_EQ(e.rrules[0].until, (date_time{2024, 8, 14, 0, 0, 0, true, false, {}}));
    const auto ical = parse_one(k_all_day_ical, calendar_version::ical20);
    EXPECT_TRUE(e.rrules == ical.components.at(0).rrules);
}

TEST(vcal_utc_times, an_aalarm_beside_the_dalarm_of_the_stored_reminder_is_no_new_alarm) {
    auto stored = parse_item(k_all_day_ical, item_dialect::ical20);
    auto incoming = parse_item(k_all_day_vcal, item_dialect::vcal10);
    ASSERT_TRUE(stored && incoming);
    ASSERT_EQ(std::get<calendar>(*incoming).components.at(0).alarms.size(), 2u);
    auto r = merge(*stored, *incoming, syncevolution_vcal_phone());
    EXPECT_FALSE(r.stored_changed) << *serialize_item(r.merged, item_dialect::ical20);
    // A stored audio alarm at that time makes the device's one a real audio alarm, merged as before.
    std::string with_audio = k_all_day_ical;
    with_audio.insert(with_audio.find("END:VEVENT"),
                      "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT15M\r\nATTACH:Yoga #14\r\nEND:VALARM\r\n");
    auto stored_audio = parse_item(with_audio, item_dialect::ical20);
    ASSERT_TRUE(stored_audio);
    auto again = merge(*stored_audio, *incoming, syncevolution_vcal_phone());
    EXPECT_EQ(std::get<calendar>(again.merged).components.at(0).alarms.size(), 2u);
}

// SyncEvolution's form of a vCalendar 1.0 phone's local-time event: DTSTART in UTC, the rule's end in local
// time, and a DAYLIGHT line for another period than the event's (so UNTIL reads an hour off).
const std::string k_syncevolution_local_rule =
    vcal("TZ:+01:00\r\nDAYLIGHT:TRUE;+02;20250330T010000Z;20241027T010000Z;CET;CEST\r\n",
         "SUMMARY:Standup\r\nDTSTART:20240701T080000Z\r\nRRULE:W1 MO 20240729T100000\r\nDTEND:20240701T081500Z\r\n");

TEST(vcal_utc_times, a_rules_local_end_beside_a_utc_start_reads_as_utc) {
    const auto cal = parse_one(k_syncevolution_local_rule, calendar_version::vcal10);
    EXPECT_TRUE(cal.timezones.empty());
    const auto& rule = cal.components.at(0).rrules.at(0);
    EXPECT_EQ(rule.until, (date_time{2024, 7, 29, 9, 0, 0, false, true, {}}));
}

TEST(vcal_utc_times, a_rule_end_no_occurrence_lies_between_is_the_same_end) {
    auto stored = parse_item(k_berlin_copy, item_dialect::ical20);
    ASSERT_TRUE(stored);
    for (const auto& [until, same] :
         {std::pair{"20240729T100000", true}, {"20240729T075959Z", false}, {"20240722T100000", false}}) {
        std::string text = k_syncevolution_local_rule;
        text.replace(text.find("20240729T100000"), 15, until);
        auto incoming = parse_item(text, item_dialect::vcal10);
        ASSERT_TRUE(incoming);
        auto r = merge(*stored, *incoming, syncevolution_vcal_phone());
        const auto& merged = std::get<calendar>(r.merged);
        EXPECT_EQ(merged.components.at(0).rrules == std::get<calendar>(*stored).components.at(0).rrules, same) << until;
        EXPECT_EQ(merged.timezones.size(), 1u) << until;
    }
}

}  // namespace
}  // namespace syncml::matching
