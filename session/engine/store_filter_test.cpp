#include "session/engine/store_filter.hpp"

#include <gtest/gtest.h>

#include "matching/filter/filter_describe.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session {
namespace {

item_filter record_filter(const std::string& cgi, const std::string& type = "syncml:filtertype-cgi") {
    item_filter f;
    f.record = filter_part{meta_info{}, cgi};
    f.record->meta->type = type;
    return f;
}

// The filter when accepted (a copy: the result is usually a temporary).
store_filter accepted(const store_filter_result& r) {
    if (const auto* refused = std::get_if<filter_refusal>(&r)) ADD_FAILURE() << refused->reason;
    const auto* f = std::get_if<store_filter>(&r);
    return f ? *f : store_filter{};
}

int refused_with(const store_filter_result& r) {
    const auto* refused = std::get_if<filter_refusal>(&r);
    return refused ? refused->status : 0;
}

TEST(store_filter, a_plain_datastore_uri_without_filter_asks_for_everything) {
    const auto f = accepted(client_filter("./contacts", nullptr));
    EXPECT_EQ(f.datastore_uri, "./contacts");
    EXPECT_EQ(f.filter, matching::item_filter{});
    EXPECT_FALSE(f.force_slow_sync);
}

TEST(store_filter, target_options_in_the_uri_become_the_filter_and_leave_the_datastore_name) {
    const auto f = accepted(client_filter("./calendar?/dr(-30,365)", nullptr));
    EXPECT_EQ(f.datastore_uri, "./calendar");
    ASSERT_EQ(f.filter.record.windows.size(), 1u);
    EXPECT_EQ(f.filter.record.windows[0].from, (matching::window_bound{true, 0, -30}));
    EXPECT_EQ(f.filter.record.windows[0].to, (matching::window_bound{true, 0, 365}));
    EXPECT_EQ(refused_with(client_filter("./calendar?/o(x)", nullptr)), status_codes::optional_feature_not_supported);
}

TEST(store_filter, a_cgi_record_filter_of_the_alert_is_read_with_its_type) {
    auto filter = record_filter("CATEGORIES&iCON;Work");
    const auto f = accepted(client_filter("./contacts", &filter));
    EXPECT_FALSE(f.filter.record.where.empty());
    EXPECT_NE(matching::describe(f.filter).find("CATEGORIES"), std::string::npos) << matching::describe(f.filter);
    EXPECT_EQ(f.filter.record.semantics, matching::filter_semantics::exclusive) << "OMA's default";

    filter.filter_type = "INCLUSIVE";
    EXPECT_EQ(accepted(client_filter("./contacts", &filter)).filter.record.semantics,
              matching::filter_semantics::inclusive);
}

TEST(store_filter, filters_the_server_cannot_do_or_read_are_refused_with_the_status_that_says_why) {
    auto malformed = record_filter("CATEGORIES&EQ;Work&AND;(");
    EXPECT_EQ(refused_with(client_filter("./contacts", &malformed)), status_codes::bad_cgi_script);
    auto other_type = record_filter("anything", "application/x-other-filter");
    EXPECT_EQ(refused_with(client_filter("./contacts", &other_type)), status_codes::optional_feature_not_supported);
    auto weird_semantics = record_filter("CATEGORIES&iCON;Work");
    weird_semantics.filter_type = "SOMETIMES";
    EXPECT_EQ(refused_with(client_filter("./contacts", &weird_semantics)),
              status_codes::optional_feature_not_supported);
    item_filter not_devinf;
    not_devinf.field = filter_part{meta_info{}, "<Property><PropName>PHOTO</PropName></Property>"};
    not_devinf.field->meta->type = "text/plain";
    EXPECT_EQ(refused_with(client_filter("./contacts", &not_devinf)), status_codes::optional_feature_not_supported);
    item_filter huge;
    std::string properties;
    for (int i = 0; i < 500; ++i)
        properties += "<Property><PropName>X-" + std::string(100, 'A') + std::to_string(i) + "</PropName></Property>";
    huge.field = filter_part{meta_info{}, properties};
    EXPECT_EQ(refused_with(client_filter("./contacts", &huge)), status_codes::optional_feature_not_supported)
        << "a filter the session could not store and read back";
    item_filter no_property;
    no_property.field = filter_part{meta_info{}, "PHOTO"};
    EXPECT_EQ(refused_with(client_filter("./contacts", &no_property)), status_codes::optional_feature_not_supported);
}

TEST(store_filter, an_oma_field_filter_becomes_the_list_of_properties_the_device_gets) {
    item_filter fields;
    // As a client may send it: wrapped in a CTCap, names in any case, MaxSize 0 meaning no limit.
    fields.field = filter_part{meta_info{},
                               "<CTCap><Property><PropName>tel</PropName><MaxSize>0</MaxSize></Property>"
                               "<Property><PropName>NOTE</PropName><MaxSize>200</MaxSize>"
                               "<PropParam><ParamName>TYPE</ParamName></PropParam></Property></CTCap>"};
    fields.field->meta->type = "application/vnd.syncml-devinf+xml";
    const auto f = accepted(client_filter("./contacts?/li(5000)", &fields));
    EXPECT_EQ(f.filter.fields.include,
              (std::vector<matching::field_rule>{{"TEL", std::nullopt}, {"NOTE", std::size_t{200}}}));
    EXPECT_EQ(f.filter.fields.max_value_size, 5000u) << "ANDed with the URI's options";
    EXPECT_TRUE(f.filter.record.where.empty());
}

TEST(store_filter, a_server_window_is_a_span_window_a_limit_and_a_photo_size) {
    const auto f = window_filter(persistence::sync_window{30, 365, 100, 20000});
    ASSERT_EQ(f.record.windows.size(), 1u);
    EXPECT_EQ(f.record.windows[0].field, matching::window_field::span);
    EXPECT_EQ(f.record.windows[0].from, (matching::window_bound{true, 0, -30}));
    EXPECT_EQ(f.record.windows[0].to, (matching::window_bound{true, 0, 365}));
    EXPECT_EQ(f.record.max_items, 100u);
    ASSERT_EQ(f.fields.size_limits.size(), 1u);
    EXPECT_EQ(f.fields.size_limits[0], (matching::field_rule{"PHOTO", 20000}));

    EXPECT_EQ(window_filter(persistence::sync_window{}), matching::item_filter{});
    const auto future_only = window_filter(persistence::sync_window{0, 90, 0, 0});
    ASSERT_EQ(future_only.record.windows.size(), 1u);
    EXPECT_FALSE(future_only.record.windows[0].from.has_value());
}

TEST(store_filter, the_window_narrows_the_clients_filter_and_keeps_its_semantics) {
    auto filter = record_filter("LIMIT&EQ;50");
    filter.filter_type = "INCLUSIVE";
    const auto client = accepted(client_filter("./calendar", &filter));
    const auto both = with_window(client, persistence::sync_window{30, 0, 100, 0});
    EXPECT_EQ(both.filter.record.max_items, 50u) << "the smaller limit";
    EXPECT_EQ(both.filter.record.windows.size(), 1u);
    EXPECT_EQ(both.filter.record.semantics, matching::filter_semantics::inclusive);
    EXPECT_EQ(with_window(client, persistence::sync_window{}), client);
}

}  // namespace
}  // namespace syncml::session
