// Funambol's clients: SIF items, base64-encoded, through the scard/scal/stask/snote datastores, beside devices that
// speak vCard and iCalendar (issue 36).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/crypto/base64.hpp"
#include "matching/convert/item_format.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/engine_run.hpp"
#include "session/engine/test_phone.hpp"

namespace syncml::session {
namespace {

using testing::phone;

std::string sif_contact(const std::string& first, const std::string& last, const std::string& mobile) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><contact><SIFVersion>1.1</SIFVersion><FileAs>" + last + ", " +
           first + "</FileAs><FirstName>" + first + "</FirstName><LastName>" + last +
           "</LastName><MobileTelephoneNumber>" + mobile + "</MobileTelephoneNumber><Email1Address>" + first +
           "@example.com</Email1Address><CompanyName>Acme &amp; Co</CompanyName><Body>met at the fair</Body>"
           "<PagerNumber/><Unknown>x</Unknown></contact>";
}

// The DevInf the Funambol Windows Sync Client 10.1.6 sends (../shared/corpus, devaspot-syncml).
dev_inf funambol_devinf() {
    std::ifstream in(
        std::filesystem::path(SYNCML_CORPUS_DIR) / "devaspot-syncml/apps/simple_sync/test/funambol_sample.xml",
        std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    auto decoded = decode(bytes.str());
    EXPECT_TRUE(decoded);
    for (const auto& c : decoded.value().body.commands) {
        if (const auto* p = std::get_if<put>(&c.value)) return *p->items.at(0).data->devinf;
    }
    ADD_FAILURE() << "no Put in the Funambol message";
    return {};
}

// A Funambol client set to sync contacts in SIF: its own "contact" store against the server's scard.
phone funambol_client(testing::fake_sync_store& store) {
    phone p(store, "fol-VUtSLTAyOS1STUE6QW5kcmlpWmFkb3JvemhuaWk=", "text/x-s4j-sifc");
    p.datastore = "scard";
    p.client_store = "contact";
    p.item_format = "b64";
    p.devinf = funambol_devinf();
    return p;
}

std::vector<std::string> contents(testing::fake_sync_store& store) {
    std::vector<std::string> out;
    auto ds = store.datastores.at({7, matching::item_kind::contact});
    for (const auto* item : store.live_items(ds)) out.push_back(item->content);
    return out;
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(engine_sif, a_funambol_clients_sif_contacts_in_b64_are_stored_as_vcards_and_reach_a_vcard_phone) {
    testing::fake_sync_store store;
    auto client = funambol_client(store);
    EXPECT_EQ(client.sync(201, {{"1", sif_contact("Anna", "Rossi", "+39 333 1111111")},
                                {"2", sif_contact("Bruno", "Verdi", "+39 333 2222222")}}),
              (std::vector<std::string>{"201", "201"}));
    auto stored = contents(store);
    ASSERT_EQ(stored.size(), 2u);
    for (const auto& content : stored) {
        EXPECT_TRUE(content.starts_with("BEGIN:VCARD\r\nVERSION:3.0\r\n")) << content;
        EXPECT_TRUE(has(content, "ORG:Acme & Co\r\n")) << content;
        EXPECT_FALSE(has(content, "<")) << "no XML reaches the store";
    }

    phone nokia(store, "IMEI:2", "text/x-vcard");
    nokia.sync(201, {{"n1",
                      "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Bianchi;Carla\r\nTEL;CELL:+39 333 3333333\r\n"
                      "END:VCARD\r\n"}});
    ASSERT_EQ(nokia.sent("Add"), 2u);
    for (const auto& [luid, data] : nokia.items) {
        if (luid == "n1") continue;
        EXPECT_TRUE(data.starts_with("BEGIN:VCARD\r\nVERSION:2.1\r\n")) << data;
        EXPECT_TRUE(has(data, "TEL;CELL:+39 333 ")) << data;
        EXPECT_TRUE(has(data, "EMAIL;INTERNET:")) << data;
        EXPECT_EQ(nokia.received_meta.at(luid).type, "text/x-vcard");
        EXPECT_FALSE(nokia.received_meta.at(luid).format) << "the vCard phone gets plain text";
    }
}

TEST(engine_sif, a_vcard_added_elsewhere_reaches_the_funambol_client_as_sif_c_in_b64) {
    testing::fake_sync_store store;
    auto client = funambol_client(store);
    client.sync(201, {{"1", sif_contact("Anna", "Rossi", "+39 333 1111111")}});
    phone nokia(store, "IMEI:2", "text/x-vcard");
    nokia.sync(201, {{"n1",
                      "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Bianchi;Carla\r\nFN:Carla Bianchi\r\n"
                      "TEL;WORK;VOICE:+39 0523 444444\r\nNOTE:caf\xC3\xA9 & <b>\r\nEND:VCARD\r\n"}});

    client.sync(200, {});
    ASSERT_EQ(client.sent("Add"), 1u);
    const auto& [luid, meta] = *client.received_meta.begin();
    EXPECT_EQ(meta.type, "text/x-s4j-sifc");
    EXPECT_EQ(meta.format, "b64");
    const auto& sif = client.items.at(luid);
    EXPECT_TRUE(sif.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<contact>")) << sif;
    EXPECT_TRUE(has(sif, "<FirstName>Carla</FirstName>")) << sif;
    EXPECT_TRUE(has(sif, "<BusinessTelephoneNumber>+39 0523 444444</BusinessTelephoneNumber>")) << sif;
    EXPECT_TRUE(has(sif, "<Body>caf\xC3\xA9 &amp; &lt;b&gt;</Body>")) << sif;
    auto parsed = matching::parse_item(sif, matching::item_dialect::sifc);
    EXPECT_TRUE(parsed) << "what the client gets reads as SIF-C";
}

TEST(engine_sif, the_client_s_edit_in_sif_merges_into_the_stored_vcard) {
    testing::fake_sync_store store;
    auto client = funambol_client(store);
    client.sync(201, {{"1", sif_contact("Anna", "Rossi", "+39 333 1111111")}});
    auto edited = sif_contact("Anna", "Rossi", "+39 333 9999999");
    EXPECT_EQ(client.sync(200, {{"1", edited, true}}), std::vector<std::string>{"200"});
    auto stored = contents(store);
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_TRUE(has(stored[0], "+39 333 9999999")) << stored[0];
    EXPECT_TRUE(has(stored[0], "FN:Rossi\\, Anna\r\n")) << stored[0];
}

TEST(engine_sif, a_slow_sync_pairs_a_sif_contact_with_its_vcard_twin) {
    testing::fake_sync_store store;
    phone nokia(store, "IMEI:2", "text/x-vcard");
    nokia.sync(201, {{"n1",
                      "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Rossi;Anna\r\nFN:Rossi, Anna\r\n"
                      "TEL;CELL:+39 333 1111111\r\nEMAIL;INTERNET:Anna@example.com\r\nEND:VCARD\r\n"}});
    auto client = funambol_client(store);
    client.sync(201, {{"1", sif_contact("Anna", "Rossi", "+39 333 1111111")}});
    EXPECT_EQ(contents(store).size(), 1u) << "the same person in SIF and vCard is one contact";
    EXPECT_EQ(client.sent("Add"), 0u);
}

TEST(engine_sif, sif_that_does_not_read_and_data_that_does_not_decode_are_refused_with_415) {
    testing::fake_sync_store store;
    auto client = funambol_client(store);
    auto codes = client.sync(201, {{"1", "<contact><FirstName>Anna</contact>"},
                                   {"2", sif_contact("Bruno", "Verdi", "1")},
                                   {"3", testing::vcard("Ok")}});
    EXPECT_EQ(codes, (std::vector<std::string>{"415", "201", "201"})) << "a vCard in SIF's place is read as what it is";
    EXPECT_EQ(contents(store).size(), 2u);

    phone plain(store, "IMEI:3", "text/x-s4j-sifc");
    plain.item_format = "des;b64";
    EXPECT_EQ(plain.sync(201, {{"1", sif_contact("Carla", "Bianchi", "2")}}), std::vector<std::string>{"415"})
        << "Funambol's encryption is no format the server can undo";
    ASSERT_EQ(plain.received_meta.size(), 2u);
    for (const auto& [luid, meta] : plain.received_meta)
        EXPECT_EQ(meta.format, "b64") << "a refused encoding is none to answer in: SIF goes out in b64";
    auto event_as_contact = phone(store, "IMEI:4", "text/x-s4j-sife");
    EXPECT_EQ(event_as_contact.sync(201, {{"1", "<appointment><Start>20240101T100000Z</Start></appointment>"}}),
              std::vector<std::string>{"415"});
    EXPECT_EQ(contents(store).size(), 2u);
}

TEST(engine_sif, b64_item_data_is_decoded_whatever_its_content_type) {
    testing::fake_sync_store store;
    phone p(store, "IMEI:5", "text/x-vcard");
    p.item_format = "B64";
    EXPECT_EQ(p.sync(201, {{"1", testing::vcard("Encoded")}}), std::vector<std::string>{"201"});
    auto stored = contents(store);
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_TRUE(has(stored[0], "FN:Encoded\r\n")) << stored[0];

    phone other(store, "IMEI:6", "text/vcard");
    other.sync(201, {});
    ASSERT_EQ(other.items.size(), 1u);
    EXPECT_FALSE(other.received_meta.begin()->second.format) << "b64 only for the devices that use it";
    EXPECT_TRUE(other.items.begin()->second.starts_with("BEGIN:VCARD"));
}

TEST(engine_sif, a_large_sif_object_in_b64_is_decoded_once_its_last_chunk_arrived) {
    testing::fake_sync_store store;
    phone p(store, "fol-chunks", "text/x-s4j-sifc");
    p.datastore = "scard";
    p.send(p.start(201));
    const auto encoded = common::base64_encode(sif_contact("Dario", "Neri", "+39 333 4444444"));
    auto chunk = [&](const std::string& part, bool more) {
        auto m = p.changes({{"1", part}});
        m.body.final = !more;
        auto& it = std::get<add>(std::get<sync>(m.body.commands[0].value).commands[0].value).items[0];
        it.more_data = more;
        if (more) it.meta->format = "b64";
        if (more) it.meta->size = encoded.size();
        return p.send(m).reply;
    };
    EXPECT_EQ(testing::statuses_of(chunk(encoded.substr(0, 101), true), "Add").at(0)->data, "213");
    EXPECT_EQ(testing::statuses_of(chunk(encoded.substr(101), false), "Add").at(0)->data, "201");
    auto stored = contents(store);
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_TRUE(has(stored[0], "TEL;TYPE=CELL:+39 333 4444444\r\n")) << stored[0];
}

TEST(engine_sif, stask_gets_sif_t_and_the_same_client_on_card_gets_vcard_as_its_rx_pref_says) {
    testing::fake_sync_store store;
    phone seed(store, "IMEI:7", "text/calendar");
    seed.datastore = "tasks";
    seed.sync(201, {{"t1",
                     "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nSUMMARY:Call Anna\r\nDUE;VALUE=DATE:"
                     "20240310\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"}});

    phone tasks(store, "fol-tasks", "text/x-s4j-sift");
    tasks.datastore = "stask";
    tasks.client_store = "task";
    tasks.devinf = funambol_devinf();
    tasks.sync(201, {});
    ASSERT_EQ(tasks.items.size(), 1u);
    EXPECT_EQ(tasks.received_meta.begin()->second.type, "text/x-s4j-sift") << "stask syncs in SIF-T";
    EXPECT_TRUE(has(tasks.items.begin()->second, "<DueDate>2024-03-10</DueDate>")) << tasks.items.begin()->second;

    // The same client on "card" syncs vCard 2.1, its DevInf's Rx-Pref for "contact".
    phone card(store, "fol-card", "text/x-vcard");
    card.datastore = "card";
    card.client_store = "contact";
    card.devinf = funambol_devinf();
    phone anna(store, "IMEI:8", "text/vcard");
    anna.sync(201, {{"a", testing::vcard("Anna")}});
    card.sync(201, {});
    ASSERT_EQ(card.items.size(), 1u);
    EXPECT_EQ(card.received_meta.begin()->second.type, "text/x-vcard");
    EXPECT_TRUE(card.items.begin()->second.starts_with("BEGIN:VCARD\r\nVERSION:2.1\r\n"));
}

TEST(engine_sif, a_recurring_sif_appointment_through_scal_reaches_a_vcalendar_phone_and_a_note_through_snote) {
    testing::fake_sync_store store;
    phone calendar(store, "fol-cal", "text/x-s4j-sife");
    calendar.datastore = "scal";
    calendar.client_store = "appointment";
    calendar.item_format = "b64";
    calendar.devinf = funambol_devinf();
    EXPECT_EQ(calendar.sync(201, {{"e1",
                                   "<appointment><SIFVersion>1.1</SIFVersion><Subject>Standup</Subject>"
                                   "<Start>20240108T083000Z</Start><End>20240108T084500Z</End>"
                                   "<AllDayEvent>0</AllDayEvent><ReminderSet>1</ReminderSet>"
                                   "<ReminderMinutesBeforeStart>5</ReminderMinutesBeforeStart>"
                                   "<IsRecurring>1</IsRecurring><RecurrenceType>1</RecurrenceType>"
                                   "<Interval>1</Interval><DayOfWeekMask>62</DayOfWeekMask>"
                                   "<NoEndDate>0</NoEndDate><Occurrences>10</Occurrences></appointment>"}}),
              std::vector<std::string>{"201"});
    phone nokia(store, "IMEI:9", "text/x-vcalendar");
    nokia.datastore = "calendar";
    nokia.sync(201, {{"n",
                      "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nSUMMARY:Lunch\r\n"
                      "DTSTART:20240109T120000Z\r\nDTEND:20240109T130000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"}});
    ASSERT_EQ(nokia.sent("Add"), 1u);
    std::string standup;
    for (const auto& [luid, data] : nokia.items) {
        if (luid != "n") standup = data;
    }
    EXPECT_TRUE(has(standup, "VERSION:1.0\r\n")) << standup;
    EXPECT_TRUE(has(standup, "RRULE:W1 MO TU WE TH FR #10\r\n")) << standup;
    EXPECT_TRUE(has(standup, "AALARM:20240108T082500Z")) << standup;

    calendar.sync(200, {});
    ASSERT_EQ(calendar.sent("Add"), 1u) << "the phone's lunch goes to the client";
    for (const auto& [luid, data] : calendar.items) {
        if (luid == "e1") continue;
        EXPECT_TRUE(has(data, "<Subject>Lunch</Subject>")) << data;
    }

    phone notes(store, "fol-notes", "text/x-s4j-sifn");
    notes.datastore = "snote";
    notes.client_store = "note";
    EXPECT_EQ(notes.sync(201, {{"m1", "<note><Subject>Shopping</Subject><Body>Shopping\nmilk</Body></note>"}}),
              std::vector<std::string>{"201"});
    auto memos = store.live_items(store.datastores.at({7, matching::item_kind::memo}));
    ASSERT_EQ(memos.size(), 1u);
    EXPECT_EQ(memos[0]->content, "Shopping\r\nmilk") << "notes are stored as plain text";
}

TEST(engine_sif, our_devinf_offers_the_sif_types_after_the_standard_ones) {
    auto info = detail::server_devinf(syncml_version::v1_2, 0);
    const std::vector<std::pair<std::string, std::string>> sif{{"contacts", "text/x-s4j-sifc"},
                                                               {"calendar", "text/x-s4j-sife"},
                                                               {"tasks", "text/x-s4j-sift"},
                                                               {"memos", "text/x-s4j-sifn"}};
    for (const auto& [store, type] : sif) {
        auto ds = std::find_if(info.datastores.begin(), info.datastores.end(),
                               [&](const datastore& d) { return d.source_ref == store; });
        ASSERT_NE(ds, info.datastores.end()) << store;
        EXPECT_EQ(ds->rx.back().ct_type, type);
        EXPECT_EQ(ds->tx.back().ct_type, type);
        EXPECT_NE(ds->rx_pref->ct_type, type);
    }
}

}  // namespace
}  // namespace syncml::session
