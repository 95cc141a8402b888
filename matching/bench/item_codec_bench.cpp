// Items per second for the codecs on a typical 1 KB contact and a recurring event with alarm and time zone, in
// vCard/iCalendar and in Funambol's SIF.
#include <benchmark/benchmark.h>

#include <string>

#include "matching/convert/item_format.hpp"

namespace {

using namespace syncml::matching;

const std::string k_contact =
    "BEGIN:VCARD\r\nVERSION:3.0\r\nN:M\xC3\xBCller;J\xC3\xBCrgen;Alexander;Dr.;PhD\r\nFN:Dr. J\xC3\xBCrgen Alexander "
    "M\xC3\xBCller PhD\r\nNICKNAME:J\xC3\xBCrg\r\nUID:0f8f0b9e-6c1c-4c1e-9a2e-2f0b3c8a1d11\r\n"
    "TEL;TYPE=CELL,PREF:+49 170 1234567\r\nTEL;TYPE=WORK,VOICE:+49 30 987654-12\r\nTEL;TYPE=HOME:+49 30 1112223\r\n"
    "EMAIL;TYPE=INTERNET,WORK:juergen.mueller@example.com\r\nEMAIL;TYPE=INTERNET,HOME:jm@example.org\r\n"
    "ADR;TYPE=WORK:;Geb\xC3\xA4ude 4;Friedrichstra\xC3\x9F"
    "e 123;Berlin;;10117;Deutschland\r\nADR;TYPE=HOME:;;Am Hang 7;Potsdam;Brandenburg;14467;Deutschland\r\n"
    "ORG:Example GmbH;Entwicklung\r\nTITLE:Abteilungsleiter\r\nBDAY:1975-04-12\r\nCATEGORIES:Work,VIP\r\n"
    "URL:https://example.com/~jm\r\nNOTE:Trifft sich gern zum Mittagessen\\, mag keine Anrufe vor 9 Uhr.\\nZweite "
    "Zeile mit mehr Text\\, damit die Notiz l\xC3\xA4nger wird und gefaltet werden muss.\r\n"
    "X-EVOLUTION-FILE-AS:M\xC3\xBCller\\, J\xC3\xBCrgen\r\nX-ANNIVERSARY:2001-06-30\r\nREV:2026-11-02T10:11:12Z\r\n"
    "END:VCARD\r\n";

const std::string k_event =
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
    "BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\nDTSTART:19700329T020000\r\n"
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nBEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\n"
    "TZOFFSETTO:+0100\r\nTZNAME:CET\r\nDTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n"
    "END:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:20261203T100000-42@example.com\r\n"
    "DTSTAMP:20261101T120000Z\r\nSUMMARY:Team meeting\r\nDESCRIPTION:Weekly status\\, agenda in the wiki.\r\n"
    "LOCATION:Room 4.12\r\nDTSTART;TZID=Europe/Berlin:20261203T100000\r\nDTEND;TZID=Europe/Berlin:20261203T110000\r\n"
    "RRULE:FREQ=WEEKLY;UNTIL=20271231T230000Z;BYDAY=TH\r\nEXDATE;TZID=Europe/Berlin:20261224T100000\r\n"
    "CATEGORIES:Business\r\nPRIORITY:5\r\nSTATUS:CONFIRMED\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\n"
    "TRIGGER:-PT15M\r\nDESCRIPTION:Team meeting\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

void run_parse(benchmark::State& state, const std::string& data, item_dialect dialect) {
    for (auto _ : state) benchmark::DoNotOptimize(parse_item(data, dialect));
    state.SetItemsProcessed(state.iterations());
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(data.size()));
}

void run_serialize(benchmark::State& state, const std::string& data, item_dialect from, item_dialect to) {
    auto parsed = parse_item(data, from);
    for (auto _ : state) benchmark::DoNotOptimize(serialize_item(*parsed, to));
    state.SetItemsProcessed(state.iterations());
}

void contact_parse(benchmark::State& s) { run_parse(s, k_contact, item_dialect::vcard30); }
void contact_serialize_30(benchmark::State& s) {
    run_serialize(s, k_contact, item_dialect::vcard30, item_dialect::vcard30);
}
void contact_serialize_21(benchmark::State& s) {
    run_serialize(s, k_contact, item_dialect::vcard30, item_dialect::vcard21);
}
void event_parse(benchmark::State& s) { run_parse(s, k_event, item_dialect::ical20); }
void event_serialize_20(benchmark::State& s) { run_serialize(s, k_event, item_dialect::ical20, item_dialect::ical20); }
void event_serialize_10(benchmark::State& s) { run_serialize(s, k_event, item_dialect::ical20, item_dialect::vcal10); }

// The same items as a Funambol client sends them.
std::string as_sif(const std::string& data, item_dialect from, item_dialect sif) {
    return serialize_item(*parse_item(data, from), sif).value();
}
void contact_serialize_sifc(benchmark::State& s) {
    run_serialize(s, k_contact, item_dialect::vcard30, item_dialect::sifc);
}
void contact_parse_sifc(benchmark::State& s) {
    run_parse(s, as_sif(k_contact, item_dialect::vcard30, item_dialect::sifc), item_dialect::sifc);
}
void event_serialize_sife(benchmark::State& s) { run_serialize(s, k_event, item_dialect::ical20, item_dialect::sife); }
void event_parse_sife(benchmark::State& s) {
    run_parse(s, as_sif(k_event, item_dialect::ical20, item_dialect::sife), item_dialect::sife);
}

}  // namespace

BENCHMARK(contact_parse);
BENCHMARK(contact_serialize_30);
BENCHMARK(contact_serialize_21);
BENCHMARK(event_parse);
BENCHMARK(event_serialize_20);
BENCHMARK(event_serialize_10);
BENCHMARK(contact_serialize_sifc);
BENCHMARK(contact_parse_sifc);
BENCHMARK(event_serialize_sife);
BENCHMARK(event_parse_sife);
