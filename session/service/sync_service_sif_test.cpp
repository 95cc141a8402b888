// A Funambol client end to end (issue 36): its recorded first message (Funambol Windows Sync Client 10.1.6, from
// ../shared/corpus), its SIF-C contacts in b64 through scard, and a vCard phone of the same user, over XML, the
// service and PostgreSQL.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/crypto/base64.hpp"
#include "persistence/accounts/accounts.hpp"
#include "session/service/sync_service_test_support.hpp"

namespace syncml::session {
namespace {

using testing::sync_service_test;

constexpr std::string_view k_device = "fol-VUtSLTAyOS1STUE6QW5kcmlpWmFkb3JvemhuaWk=";

std::string recorded_message() {
    std::ifstream in(
        std::filesystem::path(SYNCML_CORPUS_DIR) / "devaspot-syncml/apps/simple_sync/test/funambol_sample.xml",
        std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

std::string sif_contact(const std::string& first, const std::string& last) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<contact>\n<SIFVersion>1.1</SIFVersion>\n<FileAs>" + last +
           ", " + first + "</FileAs>\n<FirstName>" + first + "</FirstName>\n<LastName>" + last +
           "</LastName>\n<MobileTelephoneNumber>+39 333 1234567</MobileTelephoneNumber>\n<CompanyName>Funambol"
           "</CompanyName>\n<Body/>\n</contact>";
}

class funambol_session : public sync_service_test {
  protected:
    void SetUp() override {
        sync_service_test::SetUp();
        if (!db_) return;
        persistence::add_user(*db_, tenant_, "test", "test");  // the recorded message's credentials
    }

    sync_response post_bytes(const std::string& body, const std::string& url) {
        sync_request request;
        request.tenant = tenant_;
        request.url = url;
        request.host = "h";
        request.remote_addr = "192.0.2.1";
        request.body = body;
        return service_.handle(request, *db_);
    }

    // A message of the client's session `session_id` to its scard datastore.
    message client_message(const std::string& session_id, const std::string& msg_id) {
        auto m = blank(std::string(k_device), msg_id);
        m.header.session_id = session_id;
        return m;
    }

    static sync to_scard() {
        sync s;
        s.cmd_id = "1";
        s.target = location{"scard", std::nullopt, std::nullopt};
        s.source = location{"contact", std::nullopt, std::nullopt};
        return s;
    }

    static command sif_add(const std::string& cmd_id, const std::string& luid, const std::string& sif) {
        item it;
        it.source = location{luid, std::nullopt, std::nullopt};
        it.meta = meta_info{};
        it.meta->type = "text/x-s4j-sifc";
        it.meta->format = "b64";
        it.data = item_data{common::base64_encode(sif), std::nullopt, std::nullopt};
        add a;
        a.cmd_id = cmd_id;
        a.items.push_back(std::move(it));
        return command{a};
    }

    // The Adds of a reply's Sync.
    static std::vector<item> server_items(const message& m) {
        std::vector<item> out;
        for (const auto& c : m.body.commands) {
            const auto* s = std::get_if<sync>(&c.value);
            if (!s) continue;
            for (const auto& inner : s->commands) {
                if (const auto* a = std::get_if<add>(&inner.value)) out.push_back(a->items.at(0));
            }
        }
        return out;
    }

    // User test's vCard phone: a slow sync that sends `vcards` and answers the server's Adds with a Map.
    std::vector<item> vcard_phone_slow_sync(const std::string& device, int vcards) {
        auto start = alert_message(device);
        start.header.cred->data = common::base64_encode("test:test");
        auto first = decoded(post(service_, start, "/sync/" + tenant_));
        EXPECT_EQ(status_codes(first, "SyncHdr"), std::vector<std::string>{"212"});
        auto changes = decoded(post(service_, sync_message(device, vcards), resp_path(first)));
        auto adds = server_items(changes);
        auto done = blank(device, "3");
        map mp;
        mp.cmd_id = "1";
        mp.target = location{"contacts", std::nullopt, std::nullopt};
        mp.source = location{"./c", std::nullopt, std::nullopt};
        for (std::size_t i = 0; i < adds.size(); ++i)
            mp.items.push_back(map_item{adds[i].source->loc_uri, "v" + std::to_string(i)});
        done.body.commands.push_back(command{mp});
        EXPECT_TRUE(decoded(post(service_, done, resp_path(changes))).body.final);
        return adds;
    }

    sync_service service_;
};

TEST_F(funambol_session, the_recorded_windows_client_message_is_answered_with_our_devinf_listing_sif) {
    auto reply = decoded(post_bytes(recorded_message(), "/sync/" + tenant_));
    EXPECT_EQ(status_codes(reply, "SyncHdr"), std::vector<std::string>{"212"});
    EXPECT_EQ(status_codes(reply, "Alert"), std::vector<std::string>{"200"}) << "its card datastore is the contacts";
    EXPECT_EQ(status_codes(reply, "Put"), std::vector<std::string>{"200"});
    EXPECT_EQ(status_codes(reply, "Get"), std::vector<std::string>{"200"});
    bool sif_listed = false;
    for (const auto& c : reply.body.commands) {
        const auto* r = std::get_if<results>(&c.value);
        if (!r || !r->items.at(0).data || !r->items.at(0).data->devinf) continue;
        for (const auto& ds : r->items.at(0).data->devinf->datastores) {
            for (const auto& rx : ds.rx) sif_listed = sif_listed || rx.ct_type == "text/x-s4j-sifc";
        }
    }
    EXPECT_TRUE(sif_listed);
}

TEST_F(funambol_session, sif_contacts_in_b64_reach_a_vcard_phone_and_a_vcard_reaches_the_client_as_sif) {
    // The Windows client set to sync contacts in SIF: its recorded first message, addressed to scard.
    auto first_bytes = recorded_message();
    auto card = first_bytes.find("<LocURI>card</LocURI>");
    ASSERT_NE(card, std::string::npos);
    first_bytes.replace(card, 21, "<LocURI>scard</LocURI>");
    auto first = decoded(post_bytes(first_bytes, "/sync/" + tenant_));
    ASSERT_EQ(status_codes(first, "SyncHdr"), std::vector<std::string>{"212"});
    ASSERT_EQ(status_codes(first, "Alert"), std::vector<std::string>{"200"});
    const std::string session = "1333380097";

    auto changes = client_message(session, "2");
    auto sync_cmd = to_scard();
    sync_cmd.commands.push_back(sif_add("2", "101", sif_contact("Anna", "Rossi")));
    sync_cmd.commands.push_back(sif_add("3", "102", sif_contact("Bruno", "Verdi")));
    changes.body.commands.push_back(command{sync_cmd});
    auto package4 = decoded(post(service_, changes, resp_path(first)));
    EXPECT_EQ(status_codes(package4, "Add"), (std::vector<std::string>{"201", "201"}));
    EXPECT_TRUE(decoded(post(service_, client_message(session, "3"), resp_path(package4))).body.final);

    auto received = vcard_phone_slow_sync("IMEI:1", 1);
    ASSERT_EQ(received.size(), 2u);
    for (const auto& it : received) {
        EXPECT_EQ(it.meta->type, "text/vcard");
        EXPECT_FALSE(it.meta->format);
        const auto& card_text = it.data->bytes;
        EXPECT_TRUE(card_text.starts_with("BEGIN:VCARD\r\nVERSION:3.0\r\n")) << card_text;
        EXPECT_NE(card_text.find("TEL;TYPE=CELL:+39 333 1234567\r\n"), std::string::npos) << card_text;
        EXPECT_NE(card_text.find("ORG:Funambol\r\n"), std::string::npos) << card_text;
    }

    // The client's next sync, two-way: the phone's vCard comes as SIF-C in b64.
    auto next = alert_message(std::string(k_device));
    next.header.session_id = "1333380500";
    next.header.cred->data = common::base64_encode("test:test");
    auto& a = std::get<alert>(next.body.commands.front().value);
    a.data = "200";
    a.items.at(0).target->loc_uri = "scard";
    a.items.at(0).source->loc_uri = "contact";
    a.items.at(0).meta->anchor = sync_anchor{std::string("1333380097"), std::string("1333380500")};
    auto alerted = decoded(post(service_, next, "/sync/" + tenant_));
    ASSERT_EQ(status_codes(alerted, "Alert"), std::vector<std::string>{"200"}) << "no slow sync needed";
    auto empty = client_message("1333380500", "2");
    empty.body.commands.push_back(command{to_scard()});
    auto sent = server_items(decoded(post(service_, empty, resp_path(alerted))));
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].meta->type, "text/x-s4j-sifc");
    EXPECT_EQ(sent[0].meta->format, "b64");
    auto sif = common::base64_decode(sent[0].data->bytes);
    ASSERT_TRUE(sif) << sent[0].data->bytes;
    EXPECT_TRUE(sif->starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<contact>")) << *sif;
    EXPECT_NE(sif->find("<FirstName>Person0</FirstName>"), std::string::npos) << *sif;
}

}  // namespace
}  // namespace syncml::session
