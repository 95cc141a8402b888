// Peer tolerance on input and strictness on output of the vCard/vCalendar/iCalendar/vNote codecs.
#include <gtest/gtest.h>

#include "matching/content/content_line.hpp"
#include "matching/content/text_codec.hpp"
#include "matching/convert/item_format.hpp"

namespace syncml::matching {
namespace {

contact parse_contact(const std::string& text, item_dialect dialect = item_dialect::vcard21) {
    auto parsed = parse_item(text, dialect);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().to_string());
    return parsed ? std::get<contact>(*parsed) : contact{};
}

calendar parse_cal(const std::string& text, item_dialect dialect) {
    auto parsed = parse_item(text, dialect);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().to_string());
    return parsed ? std::get<calendar>(*parsed) : calendar{};
}

std::string serialize(const item& value, item_dialect dialect) {
    auto out = serialize_item(value, dialect);
    EXPECT_TRUE(out);
    return out ? *out : std::string();
}

TEST(item_format, maps_meta_types_to_dialects) {
    EXPECT_EQ(dialect_from_mime("text/x-vcard"), item_dialect::vcard21);
    EXPECT_EQ(dialect_from_mime("text/vcard"), item_dialect::vcard30);
    EXPECT_EQ(dialect_from_mime("TEXT/X-VCARD", "3.0"), item_dialect::vcard30);
    EXPECT_EQ(dialect_from_mime("text/x-vcalendar"), item_dialect::vcal10);
    EXPECT_EQ(dialect_from_mime("text/calendar; charset=utf-8"), item_dialect::ical20);
    EXPECT_EQ(dialect_from_mime("text/plain"), item_dialect::plain_text);
    EXPECT_EQ(dialect_from_mime("text/x-vnote"), item_dialect::vnote11);
    EXPECT_FALSE(dialect_from_mime("application/vnd.syncml-devinf+xml"));
    EXPECT_EQ(mime_of(item_dialect::vcal10), "text/x-vcalendar");
    EXPECT_EQ(version_of(item_dialect::vcard21), "2.1");
}

TEST(item_format, maps_funambols_sif_types_to_their_dialects_and_back) {
    EXPECT_EQ(dialect_from_mime("text/x-s4j-sifc"), item_dialect::sifc);
    EXPECT_EQ(dialect_from_mime("TEXT/X-S4J-SIFE", "1.0"), item_dialect::sife);
    EXPECT_EQ(dialect_from_mime("text/x-s4j-sift"), item_dialect::sift);
    EXPECT_EQ(dialect_from_mime("text/x-s4j-sifn"), item_dialect::sifn);
    for (auto d : {item_dialect::sifc, item_dialect::sife, item_dialect::sift, item_dialect::sifn}) {
        EXPECT_EQ(dialect_from_mime(mime_of(d)), d);
        EXPECT_EQ(dialect_from_name(name_of(d)), d);
        EXPECT_EQ(version_of(d), "1.0");
    }
    EXPECT_EQ(detect_dialect("<?xml version=\"1.0\"?><contact><FirstName>A</FirstName></contact>"), item_dialect::sifc);
    EXPECT_EQ(detect_dialect("<appointment/>"), item_dialect::sife);
    EXPECT_EQ(detect_dialect("<task/>"), item_dialect::sift);
    EXPECT_EQ(detect_dialect("<note/>"), item_dialect::sifn);
}

TEST(item_format, detects_dialect_from_data) {
    EXPECT_EQ(detect_dialect("BEGIN:VCARD\r\nVERSION:3.0\r\nEND:VCARD\r\n"), item_dialect::vcard30);
    EXPECT_EQ(detect_dialect("begin:vcard\nversion:2.1\nend:vcard\n"), item_dialect::vcard21);
    EXPECT_EQ(detect_dialect("BEGIN:VCALENDAR\nVERSION:1.0\nEND:VCALENDAR\n"), item_dialect::vcal10);
    EXPECT_EQ(detect_dialect("\xEF\xBB\xBF"
                             "BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n"),
              item_dialect::ical20);
    EXPECT_EQ(detect_dialect("BEGIN:VNOTE\nBODY:x\nEND:VNOTE\n"), item_dialect::vnote11);
    EXPECT_EQ(detect_dialect("Shopping\nmilk\n"), item_dialect::plain_text);
}

TEST(vcard_reader, tolerates_lf_tab_folding_and_bare_type_parameters) {
    contact c =
        parse_contact("BEGIN:VCARD\nVERSION:2.1\nN:Doe;John\nTEL;HOME;VOICE:+1 555\nNOTE:long\n\tline\nEND:VCARD");
    ASSERT_TRUE(c.name);
    EXPECT_EQ(c.name->family, "Doe");
    EXPECT_EQ(c.name->given, "John");
    ASSERT_EQ(c.phones.size(), 1u);
    EXPECT_EQ(c.phones[0].types, (std::vector<std::string>{"HOME", "VOICE"}));
    EXPECT_EQ(c.note, "longline");
}

TEST(vcard_reader, decodes_quoted_printable_with_soft_breaks_and_charsets) {
    contact c = parse_contact(
        "BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:M=FCller;J=FC=\r\nrgen\r\n"
        "NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:line1=0D=0Aline2 =E2=82=AC\r\nEND:VCARD\r\n");
    ASSERT_TRUE(c.name);
    EXPECT_EQ(c.name->family, "M\xC3\xBCller");
    EXPECT_EQ(c.name->given, "J\xC3\xBCrgen");
    EXPECT_EQ(c.note, "line1\nline2 \xE2\x82\xAC");
}

TEST(vcard_reader, reads_broken_quoted_printable_and_windows_1252) {
    // The continuation line lacks the soft break; 0x80 is the euro sign in Windows-1252.
    contact c = parse_contact(
        "BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;ENCODING=QUOTED-PRINTABLE:price=0A\r\n10 =80\r\nFN:A\r\nEND:VCARD\r\n");
    EXPECT_EQ(c.note, "price\n\n10 \xE2\x82\xAC");
    EXPECT_EQ(c.formatted_name, "A");
}

TEST(vcard_reader, decodes_base64_photos_in_both_spellings) {
    std::string png = "\x89PNG\r\n\x1a\n-binary-";
    std::string b64 = encode_base64(png);
    contact v21 = parse_contact("BEGIN:VCARD\r\nVERSION:2.1\r\nPHOTO;ENCODING=BASE64;TYPE=PNG:\r\n" + b64.substr(0, 8) +
                                "\r\n" + b64.substr(8) + "\r\n\r\nEND:VCARD\r\n");
    ASSERT_TRUE(v21.picture);
    EXPECT_EQ(v21.picture->data, png);
    EXPECT_EQ(v21.picture->media_type, "PNG");
    contact v30 = parse_contact("BEGIN:VCARD\r\nVERSION:3.0\r\nPHOTO;ENCODING=b;TYPE=PNG:" + b64 + "\r\nEND:VCARD\r\n",
                                item_dialect::vcard30);
    ASSERT_TRUE(v30.picture);
    EXPECT_EQ(v30.picture->data, png);
}

TEST(vcard_reader, unescapes_and_keeps_empty_and_unknown_properties) {
    contact c = parse_contact(
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Doe\\, John\r\nNOTE:a\\nb\\;c\r\nEMAIL:\r\nX-FOO;X-P=1:bar\r\n"
        "item1.X-ABLabel:_$!<Other>!$_\r\nEND:VCARD\r\n",
        item_dialect::vcard30);
    EXPECT_EQ(c.formatted_name, "Doe, John");
    EXPECT_EQ(c.note, "a\nb;c");
    ASSERT_EQ(c.emails.size(), 1u);
    EXPECT_EQ(c.emails[0].value, "");
    ASSERT_EQ(c.extra.size(), 2u);
    EXPECT_EQ(c.extra[0].params, (std::vector<param>{param{"X-P", {"1"}}}));
    EXPECT_EQ(c.extra[1].group, "item1");
    auto again = serialize(item{c}, item_dialect::vcard30);
    EXPECT_NE(again.find("EMAIL:\r\n"), std::string::npos) << again;
    EXPECT_NE(again.find("item1.X-ABLABEL:_$!<Other>!$_\r\n"), std::string::npos) << again;
}

TEST(vcard_reader, recovers_a_missing_end_and_reports_garbage_with_its_line) {
    contact c = parse_contact("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:No End\r\n", item_dialect::vcard30);
    EXPECT_EQ(c.formatted_name, "No End");
    auto bad = parse_item("BEGIN:VCARD\r\nVERSION:3.0\r\n\r\n:no name\r\nEND:VCARD\r\n", item_dialect::vcard30);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().line, 4);
    EXPECT_NE(bad.error().to_string().find("line 4"), std::string::npos);
    auto misplaced = parse_item("VERSION:3.0\r\nBEGIN:VCARD\r\nEND:VCARD\r\n", item_dialect::vcard30);
    ASSERT_FALSE(misplaced);
    EXPECT_EQ(misplaced.error().line, 1);
}

TEST(content_writer, folds_at_75_octets_without_splitting_utf8) {
    content_writer out(line_syntax::modern);
    std::string value;
    for (int i = 0; i < 60; ++i) value += "\xC3\xA4";  // 120 octets of 2-byte characters
    out.write("NOTE", value);
    std::string text = out.take();
    std::size_t start = 0;
    int lines = 0;
    while (start < text.size()) {
        std::size_t end = text.find("\r\n", start);
        std::string_view line(text.data() + start, end - start);
        EXPECT_LE(line.size(), 75u);
        EXPECT_TRUE(is_valid_utf8(line.substr(lines > 0 ? 1 : 0))) << line;
        start = end + 2;
        ++lines;
    }
    EXPECT_GE(lines, 2);
}

TEST(vcard_writer, marks_charset_and_quoted_printable_for_2_1_and_escapes_for_3_0) {
    contact c;
    c.formatted_name = "J\xC3\xBCrgen";
    c.note = "two\nlines, one comma";
    std::string v21 = serialize(item{c}, item_dialect::vcard21);
    EXPECT_NE(v21.find("FN;CHARSET=UTF-8:J\xC3\xBCrgen\r\n"), std::string::npos) << v21;
    EXPECT_NE(v21.find("NOTE;ENCODING=QUOTED-PRINTABLE:two=0D=0Alines, one comma\r\n"), std::string::npos) << v21;
    std::string v30 = serialize(item{c}, item_dialect::vcard30);
    EXPECT_NE(v30.find("NOTE:two\\nlines\\, one comma\r\n"), std::string::npos) << v30;
    EXPECT_NE(v30.find("VERSION:3.0\r\n"), std::string::npos);
}

TEST(vcard_conversion, turns_2_1_type_parameters_and_photos_into_3_0_form) {
    std::string b64 = encode_base64("jpegbytes");
    auto out = convert_item("BEGIN:VCARD\r\nVERSION:2.1\r\nTEL;CELL;PREF:+49 1\r\nPHOTO;ENCODING=BASE64;JPEG:" + b64 +
                                "\r\n\r\nEND:VCARD\r\n",
                            item_dialect::vcard21, item_dialect::vcard30);
    ASSERT_TRUE(out);
    EXPECT_NE(out->find("TEL;TYPE=CELL,PREF:+49 1\r\n"), std::string::npos) << *out;
    EXPECT_NE(out->find("PHOTO;ENCODING=b;TYPE=JPEG:" + b64), std::string::npos) << *out;
}

TEST(vcard_conversion, writes_photo_type_as_a_named_parameter_in_2_1) {
    std::string b64 = encode_base64("jpegbytes");
    auto out =
        convert_item("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nTEL;TYPE=CELL:1\r\nPHOTO;ENCODING=b;TYPE=JPEG:" + b64 +
                         "\r\nEND:VCARD\r\n",
                     item_dialect::vcard30, item_dialect::vcard21);
    ASSERT_TRUE(out);
    EXPECT_NE(out->find("PHOTO;ENCODING=BASE64;TYPE=JPEG:"), std::string::npos) << *out;
    EXPECT_NE(out->find("TEL;CELL:1\r\n"), std::string::npos) << *out;
}

const char* k_vcal_event =
    "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nTZ:+01:00\r\n"
    "DAYLIGHT:TRUE;+02:00;20260329T010000Z;20261025T010000Z;CET;CEST\r\n"
    "BEGIN:VEVENT\r\nUID:ev-1\r\nSUMMARY:Standup\r\nDTSTART:20260601T090000\r\nDTEND:20260601T093000\r\n"
    "RRULE:W1 MO TU #10\r\nEXDATE:20260602T090000;20260608T090000\r\n"
    "AALARM:20260601T084500;PT5M;2;beep.wav\r\nDALARM:20260601T085000;;;Standup soon\r\n"
    "STATUS:NEEDS ACTION\r\nPRIORITY:2\r\nCATEGORIES:WORK;DAILY\r\nTRANSP:0\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

TEST(vcal_reader, maps_tz_daylight_alarms_rules_and_value_sets_to_icalendar_semantics) {
    calendar cal = parse_cal(k_vcal_event, item_dialect::vcal10);
    ASSERT_EQ(cal.timezones.size(), 1u);
    ASSERT_EQ(cal.components.size(), 1u);
    const calendar_component& e = cal.components[0];
    EXPECT_EQ(e.start->tzid, cal.timezones[0].tzid);
    EXPECT_EQ(cal.timezones[0].observances.size(), 3u);
    EXPECT_EQ(cal.timezones[0].observances[1].offset_to, "+0200");
    EXPECT_EQ(cal.timezones[0].observances[1].start.hour, 2);  // 01:00Z + 1 h standard time
    ASSERT_EQ(e.rrules.size(), 1u);
    EXPECT_EQ(e.rrules[0].count, 10);
    EXPECT_EQ(e.exdates.size(), 2u);
    ASSERT_EQ(e.alarms.size(), 2u);
    EXPECT_EQ(e.alarms[0].action, "AUDIO");
    EXPECT_EQ(e.alarms[0].trigger_duration, "-PT15M");
    EXPECT_EQ(e.alarms[0].repeat, 2);
    EXPECT_EQ(e.alarms[0].attach, "beep.wav");
    EXPECT_EQ(e.alarms[1].action, "DISPLAY");
    EXPECT_EQ(e.alarms[1].description, "Standup soon");
    EXPECT_EQ(e.status, "NEEDS-ACTION");
    EXPECT_EQ(e.priority, 5);
    EXPECT_EQ(e.categories, (std::vector<std::string>{"WORK", "DAILY"}));
    EXPECT_EQ(e.transparency, "OPAQUE");
}

TEST(vcal_conversion, writes_vtimezone_valarm_and_rrule_and_comes_back_unchanged) {
    auto ical = convert_item(k_vcal_event, item_dialect::vcal10, item_dialect::ical20);
    ASSERT_TRUE(ical);
    for (const char* expected : {"BEGIN:VTIMEZONE", "TZOFFSETTO:+0200", "RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO,TU",
                                 "BEGIN:VALARM", "TRIGGER:-PT15M", "STATUS:NEEDS-ACTION", "PRIORITY:5"}) {
        EXPECT_NE(ical->find(expected), std::string::npos) << expected << "\n" << *ical;
    }
    auto back = convert_item(*ical, item_dialect::ical20, item_dialect::vcal10);
    ASSERT_TRUE(back);
    for (const char* expected :
         {"TZ:+01:00", "DAYLIGHT:TRUE;+02:00;20260329T010000Z;20261025T010000Z;CET;CEST", "RRULE:W1 MO TU #10",
          "AALARM:20260601T084500;PT5M;2;beep.wav", "STATUS:NEEDS ACTION", "PRIORITY:2", "TRANSP:0"}) {
        EXPECT_NE(back->find(expected), std::string::npos) << expected << "\n" << *back;
    }
    EXPECT_EQ(parse_cal(*back, item_dialect::vcal10), parse_cal(k_vcal_event, item_dialect::vcal10));
}

TEST(vcal_conversion, all_day_events_become_dates_and_back) {
    calendar cal = parse_cal(
        "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nDTSTART:20261224T000000\r\nDTEND:20261226T235900\r\n"
        "SUMMARY:Holidays\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        item_dialect::vcal10);
    const auto& e = cal.components.at(0);
    EXPECT_TRUE(e.start->date_only);
    EXPECT_EQ(e.end->day, 27);  // exclusive end in iCalendar
    std::string ical = serialize(item{cal}, item_dialect::ical20);
    EXPECT_NE(ical.find("DTSTART;VALUE=DATE:20261224"), std::string::npos) << ical;
    std::string vcal = serialize(item{cal}, item_dialect::vcal10);
    EXPECT_NE(vcal.find("DTEND:20261226T235900"), std::string::npos) << vcal;
}

TEST(vcal_conversion, keeps_what_1_0_cannot_express_in_x_properties) {
    const char* ical =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:t1\r\nSUMMARY:Report\r\n"
        "DUE;VALUE=DATE:20261210\r\nSTATUS:IN-PROCESS\r\nPERCENT-COMPLETE:40\r\nPRIORITY:3\r\n"
        "ORGANIZER:mailto:boss@example.com\r\nRRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1\r\nEND:VTODO\r\n"
        "END:VCALENDAR\r\n";
    auto vcal = convert_item(ical, item_dialect::ical20, item_dialect::vcal10);
    ASSERT_TRUE(vcal);
    EXPECT_NE(vcal->find("X-SYNCML-ICAL-PERCENT-COMPLETE:40"), std::string::npos) << *vcal;
    EXPECT_NE(vcal->find("ATTENDEE;ROLE=ORGANIZER:boss@example.com"), std::string::npos) << *vcal;
    EXPECT_NE(vcal->find("STATUS:ACCEPTED"), std::string::npos) << *vcal;
    auto back = parse_item(*vcal, item_dialect::vcal10);
    ASSERT_TRUE(back);
    EXPECT_EQ(std::get<calendar>(*back), parse_cal(ical, item_dialect::ical20));
}

TEST(vcal_conversion, task_completion_survives_both_ways) {
    const char* vcal =
        "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VTODO\r\nSUMMARY:Done thing\r\nDUE:20261201T170000Z\r\n"
        "COMPLETED:20261130T120000Z\r\nSTATUS:COMPLETED\r\nPRIORITY:1\r\nEND:VTODO\r\nEND:VCALENDAR\r\n";
    calendar cal = parse_cal(vcal, item_dialect::vcal10);
    const auto& t = cal.components.at(0);
    EXPECT_EQ(t.kind, item_kind::task);
    EXPECT_EQ(t.status, "COMPLETED");
    ASSERT_TRUE(t.completed);
    EXPECT_TRUE(t.completed->utc);
    auto ical = serialize(item{cal}, item_dialect::ical20);
    EXPECT_NE(ical.find("COMPLETED:20261130T120000Z"), std::string::npos);
    EXPECT_EQ(parse_cal(ical, item_dialect::ical20), cal);
}

TEST(memo_codec, converts_plain_text_vnote_and_vjournal) {
    auto parsed = parse_item("Shopping\r\nmilk\r\nbread", item_dialect::plain_text);
    ASSERT_TRUE(parsed);
    const memo& m = std::get<memo>(*parsed);
    EXPECT_EQ(m.summary, "Shopping");
    EXPECT_EQ(m.body, "Shopping\nmilk\nbread");
    std::string note = serialize(*parsed, item_dialect::vnote11);
    EXPECT_NE(note.find("BODY;ENCODING=QUOTED-PRINTABLE:Shopping=0D=0Amilk=0D=0Abread"), std::string::npos) << note;
    std::string journal = serialize(*parsed, item_dialect::ical20);
    EXPECT_NE(journal.find("BEGIN:VJOURNAL"), std::string::npos);
    auto back = convert_item(journal, item_dialect::ical20, item_dialect::plain_text);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, "Shopping\r\nmilk\r\nbread");
    auto from_note = convert_item(note, item_dialect::vnote11, item_dialect::plain_text);
    ASSERT_TRUE(from_note);
    EXPECT_EQ(*from_note, *back);
}

TEST(item_format, refuses_conversions_between_kinds) {
    auto out = convert_item("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:x\r\nEND:VCARD\r\n", item_dialect::vcard30,
                            item_dialect::ical20);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error().code, item_errc::unsupported);
}

}  // namespace
}  // namespace syncml::matching
