#include "session/engine.hpp"

#include <gtest/gtest.h>

#include "session/test_phone.hpp"

// Protocol details off the happy path: the statuses the engine answers with and what it does with odd requests.

namespace syncml::session {
namespace {

using testing::phone;
using testing::vcard;

TEST(engine_protocol, a_replace_of_an_item_the_server_does_not_know_is_answered_item_added) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}});
    auto codes = a.sync(200, {{"1", vcard("Alice Changed"), true}, {"77", vcard("Unknown"), true}});
    ASSERT_EQ(codes.size(), 2u);
    EXPECT_EQ(codes[0], "200") << "a Replace of a known item";
    EXPECT_EQ(codes[1], "201") << "a Replace of an unknown item adds it";
    EXPECT_EQ(store.live_items(store.items[0].datastore).size(), 2u);
}

// The Alert names the phone's datastore "./contacts", its DevInf "Contacts": the same datastore, whose Rx-Pref says
// in which format the phone wants the server's items.
TEST(engine_protocol, the_device_format_comes_from_its_devinf_datastore_however_it_spells_the_uri) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}});
    phone b(store, "phone-b");
    dev_inf info;
    info.ver_dtd = "1.2";
    info.dev_id = "phone-b";
    info.dev_typ = "phone";
    datastore ds;
    ds.source_ref = "Contacts";
    ds.rx_pref = content_type_ref{"text/x-vcard", "2.1"};
    ds.tx_pref = ds.rx_pref;
    info.datastores.push_back(ds);
    b.devinf = info;
    auto reply = testing::full_sync(b, 201, {});
    const auto* s = testing::sync_of(reply);
    ASSERT_TRUE(s);
    ASSERT_EQ(s->commands.size(), 1u);
    const auto& it = std::get<add>(s->commands[0].value).items.at(0);
    EXPECT_EQ(it.meta->type.value_or(""), "text/x-vcard");
    EXPECT_NE(it.data->bytes.find("VERSION:2.1"), std::string::npos) << it.data->bytes;
}

}  // namespace
}  // namespace syncml::session
