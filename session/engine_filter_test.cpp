// Filters a client asks for (issue 18). Until the engine applies them, a datastore asked for with a filter is
// refused with a status that says why, never synced whole: a refresh from a client that holds only part of the
// datastore would otherwise delete every server item outside that part.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "session/engine.hpp"
#include "session/sync_mode.hpp"
#include "session/test_phone.hpp"

namespace syncml::session {
namespace {

using testing::phone;
using testing::vcard;

// `m`'s Alert asks for the datastore through `target` with `filter` (when given) in the item's Target.
message with_filter(message m, const std::string& target, std::optional<item_filter> filter) {
    for (auto& c : m.body.commands) {
        if (auto* a = std::get_if<alert>(&c.value)) {
            a->items.at(0).target = location{target, std::nullopt, std::move(filter)};
        }
    }
    return m;
}

item_filter cgi(const std::string& expression) {
    item_filter f;
    f.record = filter_part{meta_info{}, expression};
    f.record->meta->type = "syncml:filtertype-cgi";
    return f;
}

// Alice and Bob on the server; phone B then opens a refresh from the client with `opening`, sends no item, and
// ends the session. Returns the status of B's Alert.
std::string refresh_with(testing::fake_sync_store& store, const std::function<message(message)>& opening) {
    phone a(store, "phone-a");
    testing::full_sync(a, 201, {{"1", vcard("Alice")}, {"2", vcard("Bob")}});
    phone b(store, "phone-b");
    auto reply = b.send(opening(b.start(203))).reply;
    const auto statuses = testing::statuses_of(reply, "Alert");
    b.send(b.changes({}));
    return statuses.empty() ? "no Alert status" : statuses.at(0)->data;
}

TEST(engine_filter, a_refresh_from_the_client_with_a_record_filter_is_refused_and_deletes_nothing) {
    testing::fake_sync_store store;
    const auto status =
        refresh_with(store, [](message m) { return with_filter(m, "contacts", cgi("CATEGORIES&iCON;Work")); });
    EXPECT_EQ(status, "406");
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 2u) << "the server's items outside the filter stay";
}

TEST(engine_filter, a_date_range_in_the_datastore_uri_is_refused_the_same_way) {
    testing::fake_sync_store store;
    const auto status =
        refresh_with(store, [](message m) { return with_filter(m, "contacts?/dr(-30,365)", std::nullopt); });
    EXPECT_EQ(status, "406");
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 2u);
}

TEST(engine_filter, a_filter_that_does_not_parse_is_a_bad_cgi_script) {
    testing::fake_sync_store store;
    const auto status =
        refresh_with(store, [](message m) { return with_filter(m, "contacts", cgi("CATEGORIES&EQ;Work&AND;(")); });
    EXPECT_EQ(status, "422");
    EXPECT_EQ(store.live_items(store.items.at(0).datastore).size(), 2u);
}

TEST(engine_filter, an_empty_filter_element_is_no_filter) {
    testing::fake_sync_store store;
    phone a(store, "phone-a");
    auto reply = a.send(with_filter(a.start(201), "contacts", item_filter{})).reply;
    EXPECT_EQ(testing::statuses_of(reply, "Alert").at(0)->data, "200");
}

}  // namespace
}  // namespace syncml::session
