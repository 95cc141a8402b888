// Filters past the window (issue 18): OMA field filters that send only some properties and never wipe the others,
// filters that do not parse, and the filter capabilities the server's DevInf announces.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "session/engine/engine.hpp"
#include "session/engine/filter_test_support.hpp"
#include "session/engine/test_phone.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session {
namespace {

using namespace filter_testing;
using testing::phone;
using testing::vcard;

// A Filter whose Field lists these DevInf properties.
item_filter fields_only(const std::string& properties,
                        std::optional<std::string> type = std::string("application/vnd.syncml-devinf+xml")) {
    item_filter f;
    meta_info meta;
    meta.type = std::move(type);
    f.field = filter_part{meta, properties};
    return f;
}

TEST(engine_filter, an_oma_field_filter_refused_when_it_cannot_be_read) {
    testing::fake_sync_store store;
    three_events(store);
    auto b = calendar_phone(store, "phone-b");
    const std::string summary = "<Property><PropName>SUMMARY</PropName></Property>";
    EXPECT_EQ(
        session_with(b, 203, [&](message m) { return with_filter(m, "calendar", fields_only(summary, "text/plain")); }),
        "406");
    EXPECT_EQ(session_with(b, 203, [&](message m) { return with_filter(m, "calendar", fields_only("SUMMARY")); }),
              "406");
    EXPECT_EQ(live(store), 3u);
}

std::string with_photo(const std::string& name, std::size_t photo_bytes, const std::string& note = "") {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:" + name + "\r\nN:" + name + ";;;;\r\n" +
           (note.empty() ? "" : "NOTE:" + note + "\r\n") +
           (photo_bytes ? "PHOTO;ENCODING=b;TYPE=JPEG:" + std::string(photo_bytes, 'A') + "\r\n" : "") +
           "END:VCARD\r\n";
}

TEST(engine_filter, a_window_without_large_photos_never_wipes_them_when_the_phone_sends_the_contact_back) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", with_photo("Alice", 2000)}, {"2", with_photo("Bob", 40)}});
    store.windows["phone-b"] = {0, 0, 0, 100};
    phone b(store, "phone-b");
    // Its CTCap lists PHOTO: without the filter, its copy without the photo would clear the server's.
    b.devinf = testing::devinf_storing("text/vcard", "3.0", {"BEGIN", "END", "VERSION", "N", "FN", "NOTE", "PHOTO"});
    testing::full_sync(b, 201, {});
    ASSERT_EQ(b.items.size(), 2u);
    std::string alice_luid;
    for (const auto& [luid, data] : b.items) {
        if (data.find("Alice") != std::string::npos) {
            alice_luid = luid;
            EXPECT_EQ(data.find("PHOTO"), std::string::npos) << "the large photo is not sent";
        } else {
            EXPECT_NE(data.find("PHOTO"), std::string::npos) << "a small one is";
        }
    }
    // The phone edits Alice and sends its copy back, without the photo it never got.
    b.sync(200, {{alice_luid, with_photo("Alice", 0, "met in Berlin"), true}});
    for (const auto* it : store.live_items(store.items.at(0).datastore)) {
        if (it->content.find("Alice") == std::string::npos) continue;
        EXPECT_NE(it->content.find("met in Berlin"), std::string::npos);
        EXPECT_NE(it->content.find("PHOTO"), std::string::npos) << "the server keeps the photo";
    }
    // Nothing goes back and forth afterwards.
    b.sync(200, {});
    EXPECT_EQ(b.sent("Replace") + b.sent("Add") + b.sent("Delete"), 0u);
}

TEST(engine_filter, an_oma_field_filter_sends_only_the_listed_properties_and_never_wipes_the_others) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201,
                       {{"1", with_photo("Alice", 2000, "from work")},
                        {"2", with_photo("Bob", 0, "a note longer than twenty bytes")}});
    phone b(store, "phone-b");
    b.devinf = testing::devinf_storing("text/vcard", "3.0", {"BEGIN", "END", "VERSION", "N", "FN", "NOTE", "PHOTO"});
    // N and FN, and NOTE up to 20 bytes: no PHOTO.
    const auto filtered = [](message m) {
        return with_filter(m, "contacts",
                           fields_only("<Property><PropName>N</PropName></Property><Property><PropName>fn</PropName>"
                                       "</Property><Property><PropName>NOTE</PropName><MaxSize>20</MaxSize>"
                                       "</Property>"));
    };
    EXPECT_EQ(session_with(b, 201, filtered), "200");
    ASSERT_EQ(b.items.size(), 2u);
    std::string alice;
    for (const auto& [luid, data] : b.items) {
        EXPECT_EQ(data.find("PHOTO"), std::string::npos) << "not listed";
        if (data.find("Alice") != std::string::npos) {
            alice = luid;
            EXPECT_NE(data.find("NOTE:from work"), std::string::npos);
        } else {
            EXPECT_EQ(data.find("NOTE"), std::string::npos) << "over its MaxSize";
        }
    }
    // The phone edits Alice's note and sends its copy back, without the photo it never got.
    EXPECT_EQ(session_with(b, 200, filtered, {{alice, with_photo("Alice", 0, "met in Berlin")}}, true), "200");
    ASSERT_EQ(live(store), 2u);
    for (const auto* it : store.live_items(store.items.at(0).datastore)) {
        if (it->content.find("Alice") == std::string::npos) continue;
        EXPECT_NE(it->content.find("met in Berlin"), std::string::npos);
        EXPECT_NE(it->content.find("PHOTO"), std::string::npos) << "the server keeps the photo";
    }
}

TEST(engine_filter, a_filter_that_does_not_parse_is_a_bad_cgi_script) {
    testing::fake_sync_store store;
    three_events(store);
    auto b = calendar_phone(store, "phone-b");
    EXPECT_EQ(session_with(b, 203, [](message m) { return with_filter(m, "calendar", cgi("SUMMARY&EQ;x&AND;(")); }),
              "422");
    EXPECT_EQ(live(store), 3u);
}

TEST(engine_filter, an_empty_filter_element_is_no_filter) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto reply = a.send(with_filter(a.start(201), "contacts", item_filter{})).reply;
    EXPECT_EQ(testing::statuses_of(reply, "Alert").at(0)->data, "200");
}

// The server's DevInf (Results of a Get in the phone's first message), as the reply carries it.
std::optional<dev_inf> server_devinf_in(phone& p, std::optional<std::uint64_t> max_msg_size) {
    auto m = p.start(201);
    get g;
    g.cmd_id = "2";
    g.items.push_back(item{location{"./devinf12", std::nullopt, std::nullopt}, {}, {}, {}, {}, {}, false});
    m.body.commands.push_back(command{g});
    if (max_msg_size) m = testing::with_max_msg_size(m, *max_msg_size);
    for (const auto& c : p.send(m).reply.body.commands) {
        const auto* r = std::get_if<results>(&c.value);
        if (r && !r->items.empty() && r->items[0].data && r->items[0].data->devinf) return r->items[0].data->devinf;
    }
    return std::nullopt;
}

const datastore* datastore_named(const dev_inf& info, const std::string& name) {
    for (const auto& ds : info.datastores) {
        if (ds.source_ref == name) return &ds;
    }
    return nullptr;
}

TEST(engine_filter, the_server_devinf_announces_the_cgi_filter_grammar_and_what_it_filters_on) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto info = server_devinf_in(a, std::nullopt);
    ASSERT_TRUE(info);
    const auto* calendar = datastore_named(*info, "calendar");
    ASSERT_NE(calendar, nullptr);
    EXPECT_EQ(calendar->filter_rx, (std::vector<content_type_ref>{{"syncml:filtertype-cgi", "1.0"}}));
    ASSERT_EQ(calendar->filter_caps.size(), calendar->rx.size()) << "one FilterCap per content type it takes";
    const auto& cap = calendar->filter_caps.at(0);
    EXPECT_EQ(cap.filter_keywords,
              (std::vector<std::string>{"SINCE", "BEFORE", "LIMIT", "MAXCOUNT", "MAXSIZE", "NOATT"}));
    EXPECT_NE(std::find(cap.prop_names.begin(), cap.prop_names.end(), "DTSTART"), cap.prop_names.end());
    const auto* contacts = datastore_named(*info, "contacts");
    ASSERT_NE(contacts, nullptr);
    ASSERT_FALSE(contacts->filter_caps.empty());
    const auto& names = contacts->filter_caps.at(0).prop_names;
    EXPECT_NE(std::find(names.begin(), names.end(), "CATEGORIES"), names.end());
}

TEST(engine_filter, a_client_with_a_small_max_msg_size_gets_the_devinf_without_filter_caps) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto info = server_devinf_in(a, 8000);
    ASSERT_TRUE(info);
    for (const auto& ds : info->datastores) {
        EXPECT_FALSE(ds.filter_rx.empty()) << ds.source_ref;
        EXPECT_TRUE(ds.filter_caps.empty()) << ds.source_ref;
    }
}

}  // namespace
}  // namespace syncml::session
