#include "session/engine/engine_metrics.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace syncml::session {
namespace {

// Series of one family of a fresh registry: "label=value,..." -> counter value.
std::map<std::string, double> series_of(prometheus::Registry& registry, const std::string& name) {
    std::map<std::string, double> out;
    for (const auto& family : registry.Collect()) {
        if (family.name != name) continue;
        for (const auto& metric : family.metric) {
            std::string key;
            for (const auto& label : metric.label) key += (key.empty() ? "" : ",") + label.name + "=" + label.value;
            out[key] = metric.counter.value;
        }
    }
    return out;
}

TEST(engine_metrics, counts_every_known_label_set_from_zero) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    const auto messages = series_of(registry, "syncml_messages_total");
    EXPECT_EQ(messages.size(), 5U);
    for (const char* result : {"ok", "resend", "auth_failed", "bad_request", "unavailable"}) {
        EXPECT_EQ(messages.count(std::string("result=") + result), 1U) << result;
    }
    const auto sessions = series_of(registry, "syncml_sessions_total");
    EXPECT_EQ(sessions.size(), 6U);
    EXPECT_EQ(sessions.count("mode=slow"), 1U);
    EXPECT_EQ(series_of(registry, "syncml_items_total").count("direction=to_client,operation=delete"), 1U);
    const auto statuses = series_of(registry, "syncml_statuses_total");
    for (const char* code : {"200", "401", "407", "500", "508"})
        EXPECT_EQ(statuses.count(std::string("code=") + code), 1U);
    for (const auto& family : {messages, sessions, statuses}) {
        for (const auto& [labels, value] : family) EXPECT_EQ(value, 0) << labels;
    }
}

TEST(engine_metrics, counts_a_message_on_its_initial_series) {
    prometheus::Registry registry;
    engine_metrics metrics(registry);
    metrics.message(engine_metrics::message_result::auth_failed, std::chrono::milliseconds(1));
    EXPECT_EQ(series_of(registry, "syncml_messages_total").at("result=auth_failed"), 1);
    EXPECT_EQ(series_of(registry, "syncml_messages_total").size(), 5U);
}

}  // namespace
}  // namespace syncml::session
